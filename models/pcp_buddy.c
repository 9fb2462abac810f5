/* The per-cpu pageblock buddy pagesets (commit 0352d5f0, docs/MODEL.md),
 * also those of the superpageblock series tip: a list per order up to pageblock_order and
 * type, pageblocks owned by the CPU that took them whole, frees routed to
 * the owner, merging on the pageset. */
#include "pcp_buddy.h"
#include "pcp_internal.h"
#include "buddy.h"
#include "superpageblock.h"

#define PB_NONE UINT32_MAX

static unsigned buddy_order_to_pindex(int mt, unsigned order)
{
	return pcp_buddy_ops.pindex[order][mt];
}

static unsigned buddy_pindex_to_order(unsigned pindex)
{
	return pindex / MIGRATE_PCPTYPES;
}

/* ---- owned_blocks: pageblocks linked through pageblock_data.cpu_node ---- */

static bool pb_on_cpu_list(const struct machine *m, uint32_t pb)
{
	return m->mm.pb_flags[pb] & PB_on_cpu_list;
}

static void owned_blocks_add(struct machine *m, struct per_cpu_pages *pcp, uint32_t pb)
{
	struct memmap *mm = &m->mm;

	mm->pb_cpu_prev[pb] = PB_NONE;
	mm->pb_cpu_next[pb] = pcp->owned_blocks.head;
	if (pcp->owned_blocks.head == PB_NONE)
		pcp->owned_blocks.tail = pb;
	else
		mm->pb_cpu_prev[pcp->owned_blocks.head] = pb;
	pcp->owned_blocks.head = pb;
	mm->pb_flags[pb] |= PB_on_cpu_list;
}

static void owned_blocks_del(struct machine *m, struct per_cpu_pages *pcp, uint32_t pb)
{
	struct memmap *mm = &m->mm;
	uint32_t next = mm->pb_cpu_next[pb], prev = mm->pb_cpu_prev[pb];

	if (prev == PB_NONE)
		pcp->owned_blocks.head = next;
	else
		mm->pb_cpu_next[prev] = next;
	if (next == PB_NONE)
		pcp->owned_blocks.tail = prev;
	else
		mm->pb_cpu_prev[next] = prev;
	mm->pb_flags[pb] &= (uint16_t)~PB_on_cpu_list;
}

/* clear_pcpblock_owner(): the block is whole again in the zone buddy, so
 * no free can be routed to a pcp for it any more. */
void clear_pcpblock_owner(struct machine *m, pfn_t pfn)
{
	uint32_t pb = pfn_to_pb(pfn);
	int owner = get_pcpblock_owner(m, pfn);

	if (owner < 0)
		return;
	if (pb_on_cpu_list(m, pb))
		owned_blocks_del(m, zone_pcp(pfn_zone(m, pfn), (unsigned)owner), pb);
	m->mm.pb_cpu[pb] = 0;
}

static void set_pcpblock_owner(struct machine *m, pfn_t pfn, unsigned cpu)
{
	m->mm.pb_cpu[pfn_to_pb(pfn)] = (uint16_t)(cpu + 1);
}

/* ---- allocation ---- */

pfn_t pcp_rmqueue_smallest(struct machine *m, struct per_cpu_pages *pcp, int mt, unsigned order)
{
	for (unsigned high = order; high <= pageblock_order; high++) {
		struct pfn_list *list = &pcp->lists[buddy_order_to_pindex(mt, high)];

		if (pfn_list_empty(list))
			continue;
		pfn_t pfn = list->head;
		bool owned = PagePCPBuddy(m, pfn);
		unsigned size = 1u << high;

		pcp_dequeue(m, pcp, &pcp->work, pfn);
		/* Split on the pcp: remainders keep the block's ownership. */
		while (high > order) {
			high--;
			size >>= 1;
			if (owned)
				m->mm.flags[pfn + size].aux |= PG_pcp_buddy;
			pcp_enqueue(m, pcp, &pcp->work, pfn + size, mt, high, false);
			pcp->work.split_steps++;
		}
		return pfn;
	}
	return PFN_NONE;
}

/* Phase 0: pull the free fragments of previously drained owned blocks of
 * this type back onto the pcp, so new allocations pack next to old ones
 * instead of opening fresh pageblocks. */
static unsigned long refill_phase0(struct mm_ctx *ctx, struct zone *zone,
				   struct per_cpu_pages *pcp, int mt, unsigned long needed)
{
	struct machine *m = zone->machine;
	struct memmap *mm = &m->mm;
	unsigned long refilled = 0;
	uint32_t pb = pcp->owned_blocks.head;

	while (pb != PB_NONE) {
		uint32_t next = mm->pb_cpu_next[pb];
		pfn_t base = (pfn_t)pb << pageblock_order;

		if (get_pfnblock_migratetype(mm, base) != mt) {
			pb = next;
			continue;
		}
		for (pfn_t pfn = base; pfn < base + pageblock_nr_pages;) {
			zone->work.pb_scan++;
			if (!PageBuddy(mm, pfn)) {
				pfn++;
				continue;
			}
			unsigned o = page_order(mm, pfn);
			del_page_from_free_list(zone, pfn, o, mt);
			mm->flags[pfn].aux |= PG_pcp_buddy;
			pcp_enqueue(m, pcp, &zone->work, pfn, mt, o, true);
			refilled += 1UL << o;
			pfn += 1u << o;
		}
		mm_touch(ctx, &mm->pb_cl[pb]);
		owned_blocks_del(m, pcp, pb);
		if (refilled >= needed)
			break;
		pb = next;
	}
	return refilled;
}

/* Phase 1: whole pageblocks, owned by this CPU, as long as they fit the
 * refill; take() picks each block. */
static unsigned long refill_whole_blocks(struct mm_ctx *ctx, struct zone *zone,
					 struct per_cpu_pages *pcp, int mt, unsigned alloc_flags,
					 enum rmqueue_mode *mode, unsigned long needed,
					 unsigned long refilled,
					 pfn_t (*take)(struct zone *zone, int mt, unsigned alloc_flags,
						       enum rmqueue_mode *mode))
{
	struct machine *m = zone->machine;

	while (refilled + pageblock_nr_pages <= needed) {
		pfn_t pfn = take(zone, mt, alloc_flags, mode);

		if (pfn == PFN_NONE)
			break;
		set_pcpblock_owner(m, pfn, pcp->cpu);
		mm_touch(ctx, &m->mm.pb_cl[pfn_to_pb(pfn)]);
		m->mm.flags[pfn].aux |= PG_pcp_buddy;
		pcp_enqueue(m, pcp, &zone->work, pfn, mt, pageblock_order, true);
		refilled += pageblock_nr_pages;
	}
	return refilled;
}

static pfn_t take_pageblock(struct zone *zone, int mt, unsigned alloc_flags,
			    enum rmqueue_mode *mode)
{
	return __rmqueue(zone, pageblock_order, mt, alloc_flags, mode);
}

/* At the series tip movable blocks come from the fullest clean
 * superpageblock first. */
static pfn_t take_pageblock_spb(struct zone *zone, int mt, unsigned alloc_flags,
				enum rmqueue_mode *mode)
{
	if (mt == MIGRATE_MOVABLE) {
		struct superpageblock *sb = sb_preferred_for_movable(zone);
		pfn_t pfn = sb ? __rmqueue_from_sb(zone, sb, pageblock_order, mt) : PFN_NONE;

		if (pfn != PFN_NONE)
			return pfn;
	}
	return take_pageblock(zone, mt, alloc_flags, mode);
}

/* Phase 2: same-type chunks from the zone lists, largest first, split on
 * the pcp; no ownership, no fallback. */
static unsigned long refill_chunks(struct zone *zone, struct per_cpu_pages *pcp,
				   unsigned order, int mt, unsigned long needed,
				   unsigned long refilled)
{
	for (int o = pageblock_order - 1; o > (int)order && refilled < needed; o--) {
		while (refilled + (1UL << o) <= needed) {
			pfn_t pfn = zone->free_area[o].free_list[mt].head;

			if (pfn == PFN_NONE)
				break;
			del_page_from_free_list(zone, pfn, (unsigned)o, mt);
			pcp_enqueue(zone->machine, pcp, &zone->work, pfn, mt, (unsigned)o, true);
			refilled += 1UL << o;
		}
	}
	return refilled;
}

/* The phases of a refill before the page-by-page one: pages added. */
typedef unsigned long refill_fn(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
				unsigned order, int mt, unsigned alloc_flags,
				enum rmqueue_mode *mode, unsigned long needed);

/* Phases 0 to 2. */
static unsigned long refill_blocks(struct mm_ctx *ctx, struct zone *zone,
				   struct per_cpu_pages *pcp, unsigned order, int mt,
				   unsigned alloc_flags, enum rmqueue_mode *mode,
				   unsigned long needed)
{
	unsigned long refilled = refill_phase0(ctx, zone, pcp, mt, needed);

	refilled = refill_whole_blocks(ctx, zone, pcp, mt, alloc_flags, mode, needed, refilled,
				       take_pageblock);
	return refill_chunks(zone, pcp, order, mt, needed, refilled);
}

/* The same at the series tip: whole blocks from superpageblocks, and
 * Phase 2 is gone. */
static unsigned long refill_blocks_spb(struct mm_ctx *ctx, struct zone *zone,
				       struct per_cpu_pages *pcp, unsigned order, int mt,
				       unsigned alloc_flags, enum rmqueue_mode *mode,
				       unsigned long needed)
{
	unsigned long refilled = refill_phase0(ctx, zone, pcp, mt, needed);

	(void)order;
	return refill_whole_blocks(ctx, zone, pcp, mt, alloc_flags, mode, needed, refilled,
				   take_pageblock_spb);
}

/* rmqueue_bulk() with refill's phases before the page-by-page one. */
static unsigned long rmqueue_bulk_phases(struct mm_ctx *ctx, struct zone *zone, unsigned order,
					 unsigned long count, int mt, unsigned alloc_flags,
					 struct per_cpu_pages *pcp, refill_fn *refill)
{
	unsigned long needed = count << order, refilled = 0;
	enum rmqueue_mode mode = RMQUEUE_NORMAL;

	if (!rmqueue_bulk_lock(ctx, zone, alloc_flags))
		return 0;
	/* A boot pageset (count 1) takes single pages. */
	if (count > 1)
		refilled = refill(ctx, zone, pcp, order, mt, alloc_flags, &mode, needed);
	/* Phase 3: page by page with migratetype fallback, queued under the
	 * requested type whatever block they came from. */
	refilled = rmqueue_bulk_pages(zone, pcp, order, mt, alloc_flags, &mode, refilled, needed);
	zone_unlock(ctx, zone);
	return refilled;
}

static unsigned long rmqueue_bulk_buddy(struct mm_ctx *ctx, struct zone *zone, unsigned order,
					unsigned long count, int mt, unsigned alloc_flags,
					struct per_cpu_pages *pcp)
{
	return rmqueue_bulk_phases(ctx, zone, order, count, mt, alloc_flags, pcp, refill_blocks);
}

static unsigned long rmqueue_bulk_spb(struct mm_ctx *ctx, struct zone *zone, unsigned order,
				      unsigned long count, int mt, unsigned alloc_flags,
				      struct per_cpu_pages *pcp)
{
	return rmqueue_bulk_phases(ctx, zone, order, count, mt, alloc_flags, pcp,
				   refill_blocks_spb);
}

/* Split from the pageset's own stock first, refill only when it has no
 * block large enough. */
static pfn_t rmqueue_pcplist_phases(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
				    unsigned alloc_flags, struct per_cpu_pages *pcp,
				    refill_fn *refill)
{
	struct machine *m = zone->machine;
	pfn_t pfn = pcp_rmqueue_smallest(m, pcp, mt, order);

	if (pfn != PFN_NONE)
		return pfn;
	int batch = nr_pcp_alloc(pcp, zone, order);
	if (!rmqueue_bulk_phases(ctx, zone, order, (unsigned long)batch, mt, alloc_flags, pcp,
				 refill))
		return PFN_NONE;
	return pcp_rmqueue_smallest(m, pcp, mt, order);
}

static pfn_t rmqueue_pcplist_buddy(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
				   unsigned alloc_flags, struct per_cpu_pages *pcp)
{
	return rmqueue_pcplist_phases(ctx, zone, order, mt, alloc_flags, pcp, refill_blocks);
}

static pfn_t rmqueue_pcplist_spb(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
				 unsigned alloc_flags, struct per_cpu_pages *pcp)
{
	return rmqueue_pcplist_phases(ctx, zone, order, mt, alloc_flags, pcp, refill_blocks_spb);
}

/* ---- freeing ---- */

/* The merge pass, under pcp->lock only: bottom-up, so one pass can rebuild
 * whole pageblocks from owned fragments before zone->lock is taken. */
static void pcp_merge_pass(struct machine *m, struct per_cpu_pages *pcp)
{
	struct memmap *mm = &m->mm;

	for (unsigned order = 0; order < pageblock_order; order++) {
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
			struct pfn_list *list = &pcp->lists[buddy_order_to_pindex(mt, order)];
			pfn_t pfn = list->head;

			while (pfn != PFN_NONE) {
				pfn_t next = pfn_list_next(mm, list, pfn);
				pfn_t buddy = pfn ^ (1u << order);

				pcp->work.pb_scan++;
				if (!PagePCPBuddy(m, pfn) || !PagePCPBuddy(m, buddy) ||
				    page_order(mm, buddy) != order) {
					pfn = next;
					continue;
				}
				if (buddy == next)
					next = pfn_list_next(mm, list, next);
				pcp_dequeue(m, pcp, &pcp->work, pfn);
				pcp_dequeue(m, pcp, &pcp->work, buddy);
				pfn &= buddy;
				mm->flags[pfn].aux |= PG_pcp_buddy;
				pcp_enqueue(m, pcp, &pcp->work, pfn, mt, order + 1, true);
				pcp->work.merge_steps++;
				pfn = next;
			}
		}
	}
}

/* Merge on the pageset first, then give back whole pageblocks first,
 * whatever list the caller named (pindex). */
static void free_pcppages_bulk_buddy(struct mm_ctx *ctx, struct zone *zone, int count,
				     struct per_cpu_pages *pcp, int pindex)
{
	struct machine *m = zone->machine;
	struct memmap *mm = &m->mm;

	if (count > pcp->count)
		count = pcp->count;
	pcp_merge_pass(m, pcp);
	pindex = (int)buddy_order_to_pindex(0, pageblock_order) - 1;
	zone_lock(ctx, zone, SITE_FREE_PCPPAGES_BULK);
	while (count > 0) {
		struct pfn_list *list;

		do {
			if (++pindex > NR_PCP_LISTS - 1)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (pfn_list_empty(list));
		unsigned order = buddy_pindex_to_order((unsigned)pindex);
		do {
			pfn_t pfn = list->tail;
			unsigned fpi = FPI_NONE;

			/* An owned fragment going back to the zone: remember the
			 * block for Phase 0, and queue the fragment at the tail,
			 * away from other CPUs' allocations. */
			if (PagePCPBuddy(m, pfn) && order < pageblock_order) {
				uint32_t pb = pfn_to_pb(pfn);

				if (!pb_on_cpu_list(m, pb)) {
					owned_blocks_add(m, pcp, pb);
					mm_touch(ctx, &mm->pb_cl[pb]);
				}
				fpi = FPI_TO_TAIL;
			}
			pcp_dequeue(m, pcp, &zone->work, pfn);
			count -= 1 << order;
			m->vm_events[PGFREE_TO_BUDDY] += 1UL << order;
			__free_one_page(zone, pfn, order, get_pfnblock_migratetype(mm, pfn), fpi);
		} while (count > 0 && !pfn_list_empty(list));
	}
	zone_unlock(ctx, zone);
}

/* One bulk free of all to_free pages, keeping the pcp lock throughout. */
static bool free_to_high_buddy(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
			       int to_free, int pindex)
{
	free_pcppages_bulk_buddy(ctx, zone, to_free, pcp, pindex);
	return true;
}

/* The owning CPU's pageset for an owned block, else the local one. */
static unsigned free_target_cpu_buddy(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	int owner = get_pcpblock_owner(m, pfn);

	return owner >= 0 ? (unsigned)owner : ctx->cpu;
}

/* The owner's pageset may be remote: wait for its lock, unless the caller
 * may not spin. */
static bool lock_for_free_buddy(struct mm_ctx *ctx, struct per_cpu_pages *pcp, unsigned fpi)
{
	if (fpi & FPI_TRYLOCK)
		return pcp_trylock(ctx, pcp, SITE_FREE_FROZEN_PAGES);
	pcp_lock(ctx, pcp, SITE_FREE_FROZEN_PAGES);
	return true;
}

/* Mark, drain, forget the owned blocks. */
static void cpu_dead_buddy(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp)
{
	struct machine *m = zone->machine;

	/* Frees arriving after this go to the zone buddy. */
	pcp_lock(ctx, pcp, SITE_OTHER);
	pcp->flags |= PCPF_CPU_DEAD;
	pcp_unlock(ctx, pcp);
	drain_pages_zone(ctx, pcp->cpu, zone);
	/* Forget the blocks to recover; their stale owner stays until each
	 * block is whole again in the zone buddy. */
	pcp_lock(ctx, pcp, SITE_OTHER);
	zone_lock(ctx, zone, SITE_OTHER);
	while (pcp->owned_blocks.head != PB_NONE)
		owned_blocks_del(m, pcp, pcp->owned_blocks.head);
	zone_unlock(ctx, zone);
	pcp_unlock(ctx, pcp);
}

/* A list per order and type; every order up to pageblock_order cached. */
_Static_assert(MAX_PAGE_ORDER == 10, "pcp_buddy_ops.pindex has a row per order");
/* What the series tip keeps of pcp_buddy's pagesets: all but its refill
 * (whole blocks from superpageblocks) and the lock of a single free. */
#define PCP_BUDDY_OPS \
	.nr_lists = NR_PCP_LISTS, \
	.pindex = { \
		PCP_ORDER_LISTS(0), PCP_ORDER_LISTS(1), PCP_ORDER_LISTS(2), PCP_ORDER_LISTS(3), \
		PCP_ORDER_LISTS(4), PCP_ORDER_LISTS(5), PCP_ORDER_LISTS(6), PCP_ORDER_LISTS(7), \
		PCP_ORDER_LISTS(8), PCP_ORDER_LISTS(9), PCP_ORDER_LISTS(10), \
	}, \
	.allowed_orders = (1u << (pageblock_order + 1)) - 1, \
	.pindex_to_order = buddy_pindex_to_order, \
	.free_bulk = free_pcppages_bulk_buddy, \
	.free_to_high = free_to_high_buddy, \
	.free_target_cpu = free_target_cpu_buddy, \
	.cpu_dead = cpu_dead_buddy

const struct pcp_ops pcp_buddy_ops = {
	PCP_BUDDY_OPS,
	.rmqueue = rmqueue_pcplist_buddy,
	.rmqueue_bulk = rmqueue_bulk_buddy,
	.lock_for_free = lock_for_free_buddy,
	.lock_for_folios = lock_for_free_buddy,
};

/* The tip's single free always trylocks (a blocking pcp->lock could
 * deadlock with callers holding hardirq-taken locks) and falls back to
 * free_one_page; batches in task context still spin. */
static bool lock_for_free_spb(struct mm_ctx *ctx, struct per_cpu_pages *pcp, unsigned fpi)
{
	(void)fpi;
	return pcp_trylock(ctx, pcp, SITE_FREE_FROZEN_PAGES);
}

const struct pcp_ops pcp_spb_ops = {
	PCP_BUDDY_OPS,
	.rmqueue = rmqueue_pcplist_spb,
	.rmqueue_bulk = rmqueue_bulk_spb,
	.lock_for_free = lock_for_free_spb,
	.lock_for_folios = lock_for_free_buddy,
};
