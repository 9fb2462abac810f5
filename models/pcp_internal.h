/* What a per-CPU pageset variant provides to the shared code of pcp.c.
 * Each variant fills one table in its own file (pcp_upstream.c,
 * pcp_buddy.c); pcp.c picks the machine's table by policy, so the shared
 * functions never test the variant themselves. */
#ifndef MMSIM_PCP_INTERNAL_H
#define MMSIM_PCP_INTERNAL_H

#include "buddy.h"
#include "pcp.h"

/* The lists of order o when each order has one per type, order-major. */
#define PCP_ORDER_LISTS(o) \
	{ MIGRATE_PCPTYPES * (o), MIGRATE_PCPTYPES * (o) + 1, MIGRATE_PCPTYPES * (o) + 2 }
_Static_assert(MIGRATE_PCPTYPES == 3, "PCP_ORDER_LISTS has a list per type");

struct pcp_ops {
	/* List layout: nr_lists lists, each holding blocks of one order.  A
	 * block of order o and type mt goes to list pindex[o][mt]; orders
	 * without their bit in allowed_orders bypass the pagesets.  Tables
	 * rather than calls: every list operation reads them. */
	unsigned nr_lists;
	uint8_t pindex[NR_PAGE_ORDERS][MIGRATE_PCPTYPES];
	uint16_t allowed_orders;
	unsigned (*pindex_to_order)(unsigned pindex);
	/* __rmqueue_pcplist(), pcp locked: PFN_NONE if neither the pageset
	 * nor a refill from the zone could serve. */
	pfn_t (*rmqueue)(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
			 unsigned alloc_flags, struct per_cpu_pages *pcp);
	/* Refill under zone->lock: pages added, 0 if none. */
	unsigned long (*rmqueue_bulk)(struct mm_ctx *ctx, struct zone *zone, unsigned order,
				      unsigned long count, int mt, unsigned alloc_flags,
				      struct per_cpu_pages *pcp);
	/* Give count pages back to the zone, pcp locked; the variant may start
	 * from the list pindex. */
	void (*free_bulk)(struct mm_ctx *ctx, struct zone *zone, int count,
			  struct per_cpu_pages *pcp, int pindex);
	/* After a free left the pageset at or over high: give to_free pages
	 * back, starting from the freed block's list pindex.  False if the
	 * pcp lock was given up on the way (then it is not held). */
	bool (*free_to_high)(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
			     int to_free, int pindex);
	/* The CPU whose pageset takes a free of the block at pfn. */
	unsigned (*free_target_cpu)(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
	/* Lock that pageset for a free of one block (__free_frozen_pages) or
	 * for a batch (free_unref_folios, task context, fpi FPI_NONE); false:
	 * the block goes to the zone. */
	bool (*lock_for_free)(struct mm_ctx *ctx, struct per_cpu_pages *pcp, unsigned fpi);
	bool (*lock_for_folios)(struct mm_ctx *ctx, struct per_cpu_pages *pcp, unsigned fpi);
	/* page_alloc_cpu_dead() for the dead CPU's pageset of one zone: no
	 * page stays cached on it. */
	void (*cpu_dead)(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp);
};

extern const struct pcp_ops pcp_upstream_ops;
extern const struct pcp_ops pcp_buddy_ops;
extern const struct pcp_ops pcp_spb_ops;

/* zone->lock for a refill; false, lock not taken, if ALLOC_TRYLOCK found
 * it busy. */
bool rmqueue_bulk_lock(struct mm_ctx *ctx, struct zone *zone, unsigned alloc_flags);
/* Under zone->lock: blocks of order from __rmqueue (fallbacks allowed) to
 * the tail of the pcp list of mt, until refilled reaches needed pages or
 * the zone runs out.  Returns the new refilled. */
unsigned long rmqueue_bulk_pages(struct zone *zone, struct per_cpu_pages *pcp, unsigned order,
				 int mt, unsigned alloc_flags, enum rmqueue_mode *mode,
				 unsigned long refilled, unsigned long needed);

#endif
