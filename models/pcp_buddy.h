/* The per-cpu pageblock buddy allocator (seed 001, commit 0352d5f0):
 * pageblock ownership, the four-phase refill, PCP-level merging, frees
 * routed to the owning CPU. */
#ifndef MMSIM_PCP_BUDDY_H
#define MMSIM_PCP_BUDDY_H

#include "pcp.h"

/* __rmqueue_pcplist() of seed 001: split from the pcp's own stock first. */
pfn_t rmqueue_pcplist_buddy(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
			    unsigned alloc_flags, struct per_cpu_pages *pcp);
/* pcp_rmqueue_smallest(): the smallest block of this type on the pcp. */
pfn_t pcp_rmqueue_smallest(struct machine *m, struct per_cpu_pages *pcp, int mt, unsigned order);
unsigned long rmqueue_bulk_buddy(struct mm_ctx *ctx, struct zone *zone, unsigned order,
				 unsigned long count, int mt, unsigned alloc_flags,
				 struct per_cpu_pages *pcp);
void free_pcppages_bulk_buddy(struct mm_ctx *ctx, struct zone *zone, int count,
			      struct per_cpu_pages *pcp);
/* page_alloc_cpu_dead() for one zone: mark, drain, forget owned blocks. */
void pcp_buddy_cpu_dead(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp);

#endif
