/* The per-cpu pageblock buddy allocator (commit 0352d5f0, docs/MODEL.md):
 * pageblock ownership, the four-phase refill, PCP-level merging, frees
 * routed to the owning CPU.  Its entry points are the pcp_buddy_ops of
 * pcp_internal.h. */
#ifndef MMSIM_PCP_BUDDY_H
#define MMSIM_PCP_BUDDY_H

#include "pcp.h"

/* pcp_rmqueue_smallest(): the smallest block of this type on the pcp, split
 * down to order there; PFN_NONE if none is large enough. */
pfn_t pcp_rmqueue_smallest(struct machine *m, struct per_cpu_pages *pcp, int mt, unsigned order);

#endif
