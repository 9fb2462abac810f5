/* The upstream per-CPU pagesets (BASE, the parent of commit 0352d5f0): lists for
 * orders 0..3 and THPs, refilled and drained under zone->lock, frees
 * always to the local pageset and only if its lock is free. */
#include "pcp_internal.h"
#include "buddy.h"

static unsigned upstream_order_to_pindex(int mt, unsigned order)
{
	return pcp_upstream_ops.pindex[order][mt];
}

static unsigned upstream_pindex_to_order(unsigned pindex)
{
	if (pindex >= NR_LOWORDER_PCP_LISTS)
		return HPAGE_PMD_ORDER;
	return pindex / MIGRATE_PCPTYPES;
}

static unsigned long rmqueue_bulk_upstream(struct mm_ctx *ctx, struct zone *zone, unsigned order,
					   unsigned long count, int mt, unsigned alloc_flags,
					   struct per_cpu_pages *pcp)
{
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	unsigned long refilled;

	if (!rmqueue_bulk_lock(ctx, zone, alloc_flags))
		return 0;
	refilled = rmqueue_bulk_pages(zone, pcp, order, mt, alloc_flags, &mode, 0, count << order);
	zone_unlock(ctx, zone);
	return refilled;
}

/* The exact list, refilled when empty. */
static pfn_t rmqueue_pcplist_upstream(struct mm_ctx *ctx, struct zone *zone, unsigned order,
				      int mt, unsigned alloc_flags, struct per_cpu_pages *pcp)
{
	struct pfn_list *list = &pcp->lists[upstream_order_to_pindex(mt, order)];

	if (pfn_list_empty(list)) {
		int batch = nr_pcp_alloc(pcp, zone, order);

		rmqueue_bulk_upstream(ctx, zone, order, (unsigned long)batch, mt, alloc_flags, pcp);
		if (pfn_list_empty(list))
			return PFN_NONE;
	}
	pfn_t pfn = list->head;
	pcp_dequeue(zone->machine, pcp, &pcp->work, pfn);
	return pfn;
}

/* Round robin over the lists, from the tails, the list pindex first. */
static void free_pcppages_bulk_upstream(struct mm_ctx *ctx, struct zone *zone, int count,
					struct per_cpu_pages *pcp, int pindex)
{
	struct machine *m = zone->machine;

	if (count > pcp->count)
		count = pcp->count;
	pindex--;
	zone_lock(ctx, zone, SITE_FREE_PCPPAGES_BULK);
	while (count > 0) {
		struct pfn_list *list;

		do {
			if (++pindex > NR_PCP_LISTS_UPSTREAM - 1)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (pfn_list_empty(list));
		int nr_pages = 1 << upstream_pindex_to_order((unsigned)pindex);
		do {
			pfn_t pfn = list->tail;
			unsigned order = page_order(&m->mm, pfn);

			pcp_dequeue(m, pcp, &zone->work, pfn);
			count -= nr_pages;
			m->vm_events[PGFREE_TO_BUDDY] += 1UL << order;
			__free_one_page(zone, pfn, order, get_pfnblock_migratetype(&m->mm, pfn),
					FPI_NONE);
		} while (count > 0 && !pfn_list_empty(list));
	}
	zone_unlock(ctx, zone);
}

/* A batch at a time, letting others at the pcp lock in between. */
static bool free_to_high_upstream(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
				  int to_free, int pindex)
{
	int batch = pcp->batch;

	while (to_free > 0 && pcp->count > 0) {
		int chunk = to_free < batch ? to_free : batch;

		free_pcppages_bulk_upstream(ctx, zone, chunk, pcp, pindex);
		to_free -= chunk;
		if (to_free == 0 || pcp->count == 0)
			break;
		pcp_unlock(ctx, pcp);
		if (!pcp_trylock(ctx, pcp, SITE_FREE_FROZEN_PAGES))
			return false;
	}
	return true;
}

static unsigned free_target_cpu_upstream(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	(void)m;
	(void)pfn;
	return ctx->cpu;
}

/* Only ever a trylock of the local pageset. */
static bool lock_for_free_upstream(struct mm_ctx *ctx, struct per_cpu_pages *pcp, unsigned fpi)
{
	(void)fpi;
	return pcp_trylock(ctx, pcp, SITE_FREE_FROZEN_PAGES);
}

static void cpu_dead_upstream(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp)
{
	drain_pages_zone(ctx, pcp->cpu, zone);
}

/* Orders 0..3 have a list per type; THPs share two lists, movable and the
 * other two types.  Orders between are not cached. */
const struct pcp_ops pcp_upstream_ops = {
	.nr_lists = NR_PCP_LISTS_UPSTREAM,
	.pindex = {
		PCP_ORDER_LISTS(0), PCP_ORDER_LISTS(1), PCP_ORDER_LISTS(2), PCP_ORDER_LISTS(3),
		[PAGE_ALLOC_COSTLY_ORDER + 1 ... MAX_PAGE_ORDER] = {
			[MIGRATE_UNMOVABLE] = NR_LOWORDER_PCP_LISTS,
			[MIGRATE_MOVABLE] = NR_LOWORDER_PCP_LISTS + 1,
			[MIGRATE_RECLAIMABLE] = NR_LOWORDER_PCP_LISTS,
		},
	},
	.allowed_orders = ((1u << (PAGE_ALLOC_COSTLY_ORDER + 1)) - 1) | 1u << HPAGE_PMD_ORDER,
	.pindex_to_order = upstream_pindex_to_order,
	.rmqueue = rmqueue_pcplist_upstream,
	.rmqueue_bulk = rmqueue_bulk_upstream,
	.free_bulk = free_pcppages_bulk_upstream,
	.free_to_high = free_to_high_upstream,
	.free_target_cpu = free_target_cpu_upstream,
	.lock_for_free = lock_for_free_upstream,
	.lock_for_folios = lock_for_free_upstream,
	.cpu_dead = cpu_dead_upstream,
};
