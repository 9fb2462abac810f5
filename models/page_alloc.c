#include "page_alloc.h"
#include "buddy.h"
#include "compaction.h"
#include "huge_memory.h"
#include "migrate.h"
#include "mm_space.h"
#include "page_isolation.h"
#include "page_owner.h"
#include "pbstat.h"  /* pbstat */
#include "page_cache.h"
#include "snapshot.h"
#include "pcp.h"
#include "superpageblock.h"
#include "watermark.h"

unsigned alloc_flags_nofragment(struct machine *m, struct zone *zone, gfp_t gfp)
{
	unsigned flags = (gfp & __GFP_KSWAPD_RECLAIM) ? ALLOC_KSWAPD : 0;

	if (!zone || zone->idx != ZONE_NORMAL)
		return flags;
	/* Fragmentation avoidance assumes a DMA32 zone below to fall back to;
	 * on a multi-node machine only nodes that have one get the flag. */
	if (m->nr_nodes > 1 && !populated_zone(zone - 1))
		return flags;
	return flags | ALLOC_NOFRAGMENT;
}

unsigned gfp_to_alloc_flags(gfp_t gfp, unsigned order)
{
	unsigned flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	if (gfp & __GFP_HIGH)
		flags |= ALLOC_MIN_RESERVE;
	if (gfp & __GFP_KSWAPD_RECLAIM)
		flags |= ALLOC_KSWAPD;
	if (!(gfp & __GFP_DIRECT_RECLAIM)) {
		if (!(gfp & __GFP_NOMEMALLOC))
			flags |= ALLOC_NON_BLOCK;
		if (order > 0 && (flags & ALLOC_MIN_RESERVE))
			flags |= ALLOC_HIGHATOMIC;
		if (flags & ALLOC_MIN_RESERVE)
			flags &= ~ALLOC_CPUSET;
	}
	if (gfp_migratetype(gfp) == MIGRATE_MOVABLE)
		flags |= ALLOC_CMA;
	return flags;
}

/* zone_statistics(): one NUMA event per allocation, by where the page came
 * from relative to the preferred zone and the running CPU.  The zone that
 * gave the page counts the hit or miss and the local or other; the
 * preferred zone counts the foreign one, the page it could not give. */
static void zone_statistics(struct mm_ctx *ctx, struct zone *preferred, struct zone *z)
{
	if (z->node == preferred->node) {
		z->vm_numa_event[NUMA_HIT]++;
	} else {
		z->vm_numa_event[NUMA_MISS]++;
		preferred->vm_numa_event[NUMA_FOREIGN]++;
	}
	if (z->node == topology_cpu_to_node(&z->machine->topo, ctx->cpu))
		z->vm_numa_event[NUMA_LOCAL]++;
	else
		z->vm_numa_event[NUMA_OTHER]++;
}

/* rmqueue_buddy(): straight from the zone buddy under zone->lock. */
static pfn_t rmqueue_buddy(struct mm_ctx *ctx, struct zone *zone, unsigned order,
			   unsigned alloc_flags, int mt)
{
	pfn_t pfn = PFN_NONE;

	if (alloc_flags & ALLOC_TRYLOCK) {
		if (!zone_trylock(ctx, zone, SITE_RMQUEUE_BUDDY))
			return PFN_NONE;
	} else {
		zone_lock(ctx, zone, SITE_RMQUEUE_BUDDY);
	}
	if (alloc_flags & ALLOC_HIGHATOMIC)
		pfn = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (pfn == PFN_NONE) {
		enum rmqueue_mode mode = RMQUEUE_NORMAL;

		pfn = __rmqueue(zone, order, mt, alloc_flags, &mode);
		/* Failing now is worse than failing a future atomic request. */
		if (pfn == PFN_NONE && (alloc_flags & (ALLOC_OOM | ALLOC_NON_BLOCK)))
			pfn = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	}
	zone_unlock(ctx, zone);
	if (pfn != PFN_NONE)
		zone->machine->vm_events[PGALLOC_DMA + zone->idx] += 1UL << order;
	return pfn;
}

pfn_t rmqueue(struct mm_ctx *ctx, struct zone *preferred, struct zone *zone, unsigned order,
	      unsigned alloc_flags, int mt)
{
	pfn_t pfn = PFN_NONE;

	if (pcp_allowed_order(zone->machine, order))
		pfn = rmqueue_pcplist(ctx, zone, order, mt, alloc_flags);
	if (pfn == PFN_NONE)
		pfn = rmqueue_buddy(ctx, zone, order, alloc_flags, mt);
	if (pfn != PFN_NONE)
		zone_statistics(ctx, preferred, zone);
	/* A fallback boosted the watermark: kswapd reclaims towards it. */
	if ((alloc_flags & ALLOC_KSWAPD) && (zone->flags & ZONE_BOOSTED_WATERMARK)) {
		zone->flags &= ~ZONE_BOOSTED_WATERMARK;
		wakeup_kswapd(zone->machine, zone, 0, 0, (int)zone->idx);
	}
	return pfn;
}

/* reserve_highatomic_pageblock(): keep up to 1% of the zone for high-order
 * atomic requests, nothing in a zone whose 1% is less than a pageblock.
 * The reserve is taken back by unreserve_highatomic_pageblock(), when
 * direct reclaim's retry fails and before the slow path gives up. */
static void reserve_highatomic_pageblock(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn,
					 unsigned order)
{
	struct memmap *mm = &zone->machine->mm;
	unsigned long max_managed = (zone->managed_pages / 100 + pageblock_nr_pages - 1) &
				    ~(unsigned long)(pageblock_nr_pages - 1);
	int mt;

	if (zone->managed_pages / 100 < pageblock_nr_pages ||
	    zone->nr_reserved_highatomic >= max_managed)
		return;
	zone_lock(ctx, zone, SITE_OTHER);
	mt = get_pfnblock_migratetype(mm, pfn);
	if (zone->nr_reserved_highatomic >= max_managed || !migratetype_is_mergeable(mt))
		goto out;
	if (order < pageblock_order) {
		if (move_freepages_block(zone, pfn, mt, MIGRATE_HIGHATOMIC) == -1)
			goto out;
		zone->nr_reserved_highatomic += pageblock_nr_pages;
	} else {
		change_pageblock_range(mm, pfn, order, MIGRATE_HIGHATOMIC);
		zone->nr_reserved_highatomic += 1UL << order;
	}
out:
	zone_unlock(ctx, zone);
}

pfn_t get_page_from_freelist(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
			     unsigned alloc_flags, const struct alloc_context *ac)
{
	bool no_fallback;

	(void)gfp;
retry:
	no_fallback = alloc_flags & ALLOC_NOFRAGMENT;
	for (unsigned i = 0; i < ac->nr_zones; i++) {
		struct zone *zone = ac->zonelist[i];
		unsigned long mark;

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone) ||
		    !zone_in_nodemask(ac, zone))
			continue;
		/* Locality beats fragmentation avoidance: before spilling to a
		 * remote node, retry the local zones allowing fallbacks. */
		if (no_fallback && m->nr_nodes > 1 && zone != ac->preferred_zone &&
		    zone->node != ac->preferred_zone->node) {
			alloc_flags &= ~ALLOC_NOFRAGMENT;
			goto retry;
		}
		if (!(zone->flags & ZONE_BELOW_HIGH)) {
			mark = wmark_pages(zone, WMARK_HIGH);
			if (zone_watermark_fast(zone, order, mark, ac->highest_zoneidx, alloc_flags))
				goto try_this_zone;
			zone->flags |= ZONE_BELOW_HIGH;
		}
		mark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
		if (!zone_watermark_fast(zone, order, mark, ac->highest_zoneidx, alloc_flags) &&
		    !(alloc_flags & ALLOC_NO_WATERMARKS))
			continue;
try_this_zone:;
		pfn_t pfn = rmqueue(ctx, ac->preferred_zone, zone, order, alloc_flags,
				    ac->migratetype);
		if (pfn != PFN_NONE) {
			if (alloc_flags & ALLOC_HIGHATOMIC)
				reserve_highatomic_pageblock(ctx, zone, pfn, order);
			return pfn;
		}
	}
	/* The later series' NORETRY skip: a caller with a fallback gets NULL
	 * rather than a fragmenting fallback. */
	if (no_fallback && !(alloc_flags & ALLOC_HAS_FALLBACK)) {
		alloc_flags &= ~ALLOC_NOFRAGMENT;
		goto retry;
	}
	return PFN_NONE;
}

bool unreserve_highatomic_pageblock(struct mm_ctx *ctx, const struct alloc_context *ac,
				    bool force)
{
	struct memmap *mm;

	for (unsigned i = 0; i < ac->nr_zones; i++) {
		struct zone *zone = ac->zonelist[i];

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone))
			continue;
		/* One pageblock stays reserved unless the pressure is extreme. */
		if (!force && zone->nr_reserved_highatomic <= pageblock_nr_pages)
			continue;
		mm = &zone->machine->mm;
		zone_lock(ctx, zone, SITE_OTHER);
		for (unsigned o = 0; o < NR_PAGE_ORDERS; o++) {
			pfn_t pfn = zone->ops->first_free(zone, o, MIGRATE_HIGHATOMIC);
			unsigned long size = MAX(pageblock_nr_pages, 1UL << o);
			int moved = 1;

			if (pfn == PFN_NONE)
				continue;
			zone->nr_reserved_highatomic -= MIN(size, zone->nr_reserved_highatomic);
			/* Straight to the caller's type: no claim heuristics, the
			 * caller needs the pages now. */
			if (o < pageblock_order) {
				moved = move_freepages_block(zone, pfn, MIGRATE_HIGHATOMIC,
							     ac->migratetype);
			} else {
				move_to_free_list(zone, pfn, o, MIGRATE_HIGHATOMIC, ac->migratetype);
				change_pageblock_range(mm, pfn, o, ac->migratetype);
			}
			if (moved > 0) {
				zone_unlock(ctx, zone);
				return true;
			}
		}
		zone_unlock(ctx, zone);
	}
	return false;
}

/* __alloc_pages_direct_reclaim() reduced to what is modelled: reclaim
 * the preferred node's page cache, retry, and if that fails give back a
 * highatomic reserve and drain the pagesets (pages may sit there), once
 * per call as the kernel's local `drained` does, and retry again. */
static pfn_t __alloc_pages_direct_reclaim(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
					  unsigned order, unsigned alloc_flags,
					  const struct alloc_context *ac, int nid,
					  unsigned long *did_some_progress)
{
	pfn_t pfn;

	*did_some_progress = do_try_to_free_pages(ctx, m, nid, (int)order, ac->highest_zoneidx);
	if (!*did_some_progress)
		return PFN_NONE;
	pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, ac);
	if (pfn == PFN_NONE) {
		unreserve_highatomic_pageblock(ctx, ac, false);
		drain_all_pages(ctx, m, NULL);
		pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, ac);
	}
	return pfn;
}

/* The zone variants' shortcuts of __alloc_pages_direct_compact (with
 * superpageblocks, 832e6bcd's: a movable request of pageblock order or
 * more takes a range spb_try_alloc_contig finds; a non-movable one has a
 * pageblock of its type evacuated and tries the free lists once).  A range
 * comes back as alloc_contig_range's blocks, unprepared here for the
 * caller's prep. */
static pfn_t compact_shortcuts(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
				unsigned alloc_flags, const struct alloc_context *ac)
{
	for (unsigned i = 0; i < ac->nr_zones; i++) {
		struct zone *zone = ac->zonelist[i];
		pfn_t pfn;

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone) ||
		    !zone->ops->compact_shortcut ||
		    !zone->ops->compact_shortcut(ctx, zone, gfp, order, ac->migratetype, &pfn))
			continue;
		if (pfn != PFN_NONE) {
			pbstat_free(m->pbstat, pfn, order, (unsigned)ac->migratetype);  /* pbstat */
			page_clear(&m->mm, pfn);
			return pfn;
		}
		pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, ac);
		if (pfn != PFN_NONE)
			return pfn;
	}
	return PFN_NONE;
}

/* __alloc_pages_direct_compact(): the zones' shortcuts, then
 * compact the request's zones and try the free lists; a stall is counted
 * when some zone was compacted. */
static pfn_t __alloc_pages_direct_compact(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
					  unsigned order, unsigned alloc_flags,
					  const struct alloc_context *ac,
					  enum compact_priority prio,
					  enum compact_result *compact_result)
{
	pfn_t pfn;

	if (!order)
		return PFN_NONE;
	pfn = compact_shortcuts(ctx, m, gfp, order, alloc_flags, ac);
	if (pfn != PFN_NONE) {
		*compact_result = COMPACT_SUCCESS;
		m->vm_events[COMPACTSUCCESS]++;
		return pfn;
	}
	*compact_result = try_to_compact_pages(ctx, m, gfp, order, alloc_flags, ac, prio);
	if (*compact_result == COMPACT_SKIPPED)
		return PFN_NONE;
	m->vm_events[COMPACTSTALL]++;
	pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, ac);
	if (pfn != PFN_NONE) {
		struct zone *zone = pfn_zone(m, pfn);

		zone->compact_blockskip_flush = false;
		compaction_defer_reset(zone, (int)order, true);
		m->vm_events[COMPACTSUCCESS]++;
		return pfn;
	}
	m->vm_events[COMPACTFAIL]++;
	return PFN_NONE;
}

#define MAX_COMPACT_RETRIES 16

/* should_compact_retry(): compaction that succeeded but lost the race is
 * retried (a quarter as often for costly orders), one that failed is
 * retried at the next priority.  A skipped compaction would retry only if
 * reclaim could free enough, and reclaim has given up by then. */
static bool should_compact_retry(unsigned order, enum compact_result compact_result,
				 enum compact_priority *prio, int *compaction_retries)
{
	int max_retries = MAX_COMPACT_RETRIES;
	enum compact_priority min_prio;

	if (!order || compact_result == COMPACT_SKIPPED)
		return false;
	if (compact_result == COMPACT_SUCCESS) {
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			max_retries /= 4;
		if (++*compaction_retries <= max_retries)
			return true;
	}
	min_prio = order > PAGE_ALLOC_COSTLY_ORDER ? MIN_COMPACT_COSTLY_PRIORITY :
						     MIN_COMPACT_PRIORITY;
	if (*prio > min_prio) {
		(*prio)--;
		*compaction_retries = 0;
		return true;
	}
	return false;
}

static void wake_all_kswapds(struct machine *m, gfp_t gfp, unsigned order,
			     const struct alloc_context *ac)
{
	int last_nid = -1;

	for (unsigned i = 0; i < ac->nr_zones; i++) {
		struct zone *zone = ac->zonelist[i];

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone) ||
		    !zone_in_nodemask(ac, zone) || (int)zone->node == last_nid)
			continue;
		wakeup_kswapd(m, zone, gfp, (int)order, ac->highest_zoneidx);
		last_nid = (int)zone->node;
	}
}

/* __alloc_pages_slowpath() in the kernel's order: costly orders (and
 * unmovable high orders) compact first at async priority; otherwise
 * reclaim, then compaction, then retry while reclaim makes progress
 * (should_reclaim_retry without its per-zone watermark check, which
 * only matters once a round frees nothing: the model then gives up) or
 * compaction asks to.  No OOM killer. */
#define SLOWPATH_MAX_ROUNDS 1024
static pfn_t __alloc_pages_slowpath(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
				    unsigned order, unsigned has_fallback, int nid,
				    const struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp & __GFP_DIRECT_RECLAIM;
	bool costly_order = order > PAGE_ALLOC_COSTLY_ORDER;
	bool compact_first = can_direct_reclaim &&
			     (costly_order || (order > 0 && ac->migratetype != MIGRATE_MOVABLE));
	enum compact_priority prio = compact_first ? INIT_COMPACT_PRIORITY : DEF_COMPACT_PRIORITY;
	enum compact_result compact_result = COMPACT_SKIPPED;
	unsigned alloc_flags = gfp_to_alloc_flags(gfp, order) | has_fallback;
	unsigned long did_some_progress = 0;
	int compaction_retries = 0, rounds = 0;
	pfn_t pfn;

	for (;;) {
		if (alloc_flags & ALLOC_KSWAPD)
			wake_all_kswapds(m, gfp, order, ac);
		pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, ac);
		if (pfn != PFN_NONE || !can_direct_reclaim)
			return pfn;
		if (!compact_first) {
			pfn = __alloc_pages_direct_reclaim(ctx, m, gfp, order, alloc_flags, ac, nid,
							   &did_some_progress);
			if (pfn != PFN_NONE)
				return pfn;
		}
		pfn = __alloc_pages_direct_compact(ctx, m, gfp, order, alloc_flags, ac, prio,
						   &compact_result);
		if (pfn != PFN_NONE)
			return pfn;
		if (compact_first) {
			/* A costly NORETRY request gives up where compaction was
			 * skipped or deferred: reclaim would not help it. */
			if (costly_order && (gfp & __GFP_NORETRY) &&
			    (compact_result == COMPACT_SKIPPED || compact_result == COMPACT_DEFERRED))
				return PFN_NONE;
			if (!(gfp & __GFP_NORETRY))
				prio = DEF_COMPACT_PRIORITY;
			compact_first = false;
			continue;
		}
		if (gfp & __GFP_NORETRY)
			return PFN_NONE;
		if (costly_order && !(gfp & __GFP_RETRY_MAYFAIL))
			return PFN_NONE;
		/* Other CPUs can take what each round frees: retry for as long
		 * as reclaim finds pages; SLOWPATH_MAX_ROUNDS is the model's
		 * guard against a livelock the kernel's OOM killer would end. */
		if (did_some_progress && ++rounds < SLOWPATH_MAX_ROUNDS)
			continue;
		if (did_some_progress &&
		    should_compact_retry(order, compact_result, &prio, &compaction_retries))
			continue;
		/* should_reclaim_retry() giving up: before OOM, the highatomic
		 * reserves go, all of them if need be. */
		if (unreserve_highatomic_pageblock(ctx, ac, true))
			continue;
		return PFN_NONE;
	}
}

void prep_new_page(struct machine *m, pfn_t pfn, unsigned order, int mt, uint32_t owner,
		   uint32_t offset)
{
	page_set(&m->mm, pfn, PG_KIND_ALLOC, order, (unsigned)mt);
	*block_word_a(&m->mm, pfn, order) = owner;
	*block_word_b(&m->mm, pfn, order) = offset;
	pbstat_alloc(m->pbstat, pfn, order, (unsigned)mt);  /* pbstat */
}

void split_page(struct machine *m, pfn_t pfn, unsigned order, unsigned new_order)
{
	unsigned mt = page_extra(&m->mm, pfn);
	uint32_t owner = page_owner(m, pfn), offset = page_owner_offset(m, pfn);

	/* The pages stay allocated as the same type: pbstat is unchanged. */
	split_page_owner(m, pfn, order, new_order);
	for (pfn_t p = pfn; p < pfn + (1u << order); p += 1u << new_order) {
		page_set(&m->mm, p, PG_KIND_ALLOC, new_order, mt);
		*block_word_a(&m->mm, p, new_order) = owner;
		*block_word_b(&m->mm, p, new_order) = offset + (p - pfn);
	}
}

pfn_t __alloc_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
		    int preferred_nid, uint32_t owner, uint32_t offset)
{
	return __alloc_pages_nodemask(ctx, m, gfp, order, preferred_nid, NODE_MASK_NONE, owner,
				      offset);
}

/* The allocator proper; __alloc_pages_nodemask() times it. */
static pfn_t __alloc_pages_noprof(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
				  unsigned order, int preferred_nid, nodemask_t nodemask,
				  uint32_t owner, uint32_t offset)
{
	struct pglist_data *pgdat = &m->node_data[preferred_nid];
	struct alloc_context ac = {
		.zonelist = pgdat->zonelist,
		.nr_zones = pgdat->nr_zonelist,
		.highest_zoneidx = gfp_zone(gfp),
		.migratetype = gfp_migratetype(gfp),
		.nodemask = nodemask,
	};
	unsigned alloc_flags;
	pfn_t pfn;

	if (order > MAX_PAGE_ORDER)
		return PFN_NONE;
	for (unsigned i = 0; i < ac.nr_zones; i++) {
		struct zone *z = ac.zonelist[i];

		if ((int)z->idx <= ac.highest_zoneidx && populated_zone(z) &&
		    zone_in_nodemask(&ac, z)) {
			ac.preferred_zone = z;
			break;
		}
	}
	if (!ac.preferred_zone)
		return PFN_NONE;

	alloc_flags = ALLOC_WMARK_LOW | alloc_flags_nofragment(m, ac.preferred_zone, gfp);
	/* Superpageblock policy only: the later series' "caller has a
	 * fallback" rule (docs/MODEL.md, "The later series' rule"). */
	unsigned has_fallback = ac.preferred_zone->ops->noretry_has_fallback &&
				(gfp & __GFP_NORETRY) &&
				!(gfp & __GFP_DIRECT_RECLAIM) ? ALLOC_HAS_FALLBACK : 0;
	alloc_flags |= has_fallback;
	if (ac.migratetype == MIGRATE_MOVABLE)
		alloc_flags |= ALLOC_CMA;
	pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, &ac);
	if (pfn == PFN_NONE)
		/* Reclaim works on a node the request may use. */
		pfn = __alloc_pages_slowpath(ctx, m, gfp, order, has_fallback,
					     zone_in_nodemask(&ac, &pgdat->node_zones[0]) ?
					     preferred_nid : (int)ac.preferred_zone->node, &ac);
	if (pfn == PFN_NONE) {
		m->vm_events[ALLOC_FAIL]++;
		return PFN_NONE;
	}
	prep_new_page(m, pfn, order, ac.migratetype, owner, offset);
	set_page_owner(ctx, m, pfn);
	if (gfp & __GFP_ZERO)
		mm_charge(ctx, folio_zero_cost(order), 1UL << order);
	return pfn;
}

pfn_t __alloc_pages_nodemask(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
			     int preferred_nid, nodemask_t nodemask, uint32_t owner,
			     uint32_t offset)
{
	uint64_t start;
	pfn_t pfn;

	if (G_UNLIKELY(m->snapshot_pools)) {
		pfn = snapshot_pool_alloc(m, order, preferred_nid, owner, offset);
		if (pfn != PFN_NONE)
			return pfn;
	}
	start = mm_now(ctx);
	pfn = __alloc_pages_noprof(ctx, m, gfp, order, preferred_nid, nodemask, owner,
					 offset);

	/* Scenario code outside threads takes no time: nothing to time. */
	if (ctx->engine)
		hist_record(&m->alloc_latency, mm_now(ctx) - start);
	return pfn;
}

unsigned long __isolate_free_page(struct zone *zone, pfn_t pfn, unsigned order)
{
	struct memmap *mm = &zone->machine->mm;
	int mt = get_pfnblock_migratetype(mm, pfn);

	if (mt != MIGRATE_ISOLATE) {
		/* A migration target uses no reserves: the min watermark and
		 * the block itself must stay free. */
		unsigned long mark = zone->_watermark[WMARK_MIN] + (1UL << order);

		if (!zone_watermark_ok(zone, 0, mark, 0, ALLOC_CMA))
			return 0;
	}
	zone_mark_taken(zone, pfn, order, MIGRATE_MOVABLE);
	del_page_from_free_list(zone, pfn, order, mt);
	/* Half a pageblock or more taken for movable pages: the rest of each
	 * pageblock it touches turns movable too. */
	if (order >= pageblock_order - 1) {
		for (pfn_t p = pfn; p < pfn + (1u << order); p += pageblock_nr_pages) {
			int pmt = get_pfnblock_migratetype(mm, p);

			if (migratetype_is_mergeable(pmt) && pmt != MIGRATE_MOVABLE)
				move_freepages_block(zone, p, pmt, MIGRATE_MOVABLE);
		}
	}
	return 1UL << order;
}

void free_one_page(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn, unsigned order,
		   unsigned fpi)
{
	zone_lock(ctx, zone, SITE_FREE_ONE_PAGE);
	split_large_buddy(zone, pfn, order, fpi);
	zone_unlock(ctx, zone);
	zone->machine->vm_events[PGFREE] += 1UL << order;
	zone->machine->vm_events[PGFREE_TO_BUDDY] += 1UL << order;
}

int __free_pages(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	/* A reserved page is a bad page to free_pages_prepare(): not freed. */
	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC ||
	    owner_kind(page_owner(m, pfn)) == OWNER_KIND_RESERVED)
		return -1;
	__free_frozen_pages(ctx, m, pfn, page_order(&m->mm, pfn), FPI_NONE);
	return 0;
}

/* __alloc_contig_migrate_range()'s destinations: a movable page on the
 * range's node first, then anywhere (no __GFP_THISNODE); the isolated
 * range itself is out of the allocator's reach. */
static pfn_t alloc_contig_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	const gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_RETRY_MAYFAIL;
	int nid = *(const int *)private;

	if (folio_order(m, src))
		return alloc_thp_migration_target(ctx, m, src, thp_migration_gfp(gfp), nid,
						  NODE_MASK_NONE);
	return __alloc_pages(ctx, m, gfp, 0, nid, OWNER_NONE, 0);
}

/* Move every movable page out of [start, end), COMPACT_CLUSTER_MAX at a
 * time; pages that failed are tried again with the next batch, up to five
 * times, then the range is busy. */
static int __alloc_contig_migrate_range(struct mm_ctx *ctx, struct compact_control *cc,
					pfn_t start, pfn_t end, struct migrate_stats *stats)
{
	struct machine *m = cc->zone->machine;
	GArray *status = g_array_new(FALSE, FALSE, sizeof(enum migrate_status));
	int nid = (int)cc->zone->node, ret = 0;
	unsigned tries = 0;
	pfn_t pfn = start;

	while (pfn < end || cc->migratepages->len) {
		pfn_t *pages;
		unsigned nr, kept = 0;

		if (fatal_signal_pending()) {
			ret = -MM_EINTR;
			break;
		}
		if (!cc->migratepages->len) {
			isolate_migratepages_range(ctx, cc, pfn, end);
			pfn = cc->migrate_pfn;
			tries = 0;
		} else if (++tries == 5) {
			ret = -MM_EBUSY;
			break;
		}
		nr = cc->migratepages->len;
		pages = (pfn_t *)(void *)cc->migratepages->data;
		g_array_set_size(status, nr);
		ret = migrate_pages(ctx, m, pages, nr, alloc_contig_target, NULL, &nid, MIGRATE_SYNC,
				    MR_CONTIG_RANGE, (enum migrate_status *)(void *)status->data, stats);
		for (unsigned i = 0; i < nr; i++) {
			enum migrate_status st = g_array_index(status, enum migrate_status, i);

			if (st == MIGRATE_PINNED || st == MIGRATE_NO_TARGET || st == MIGRATE_UNTRIED ||
			    st == MIGRATE_THP_FAILED)
				pages[kept++] = pages[i];
		}
		g_array_set_size(cc->migratepages, kept);
		cc->nr_migratepages = kept;
		if (ret == -MM_ENOMEM)
			break;
	}
	putback_isolated(ctx, cc);
	g_array_free(status, TRUE);
	return ret < 0 ? ret : 0;
}

int alloc_contig_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end, int mt,
		       uint32_t owner, struct migrate_stats *stats, pfn_t *fail_pfn)
{
	const pfn_t max_block = 1u << MAX_PAGE_ORDER;
	struct zone *zone = pfn_zone(m, start);
	struct compact_control cc = {
		.zone = zone,
		.order = -1,
		.mode = MIGRATE_SYNC,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
		.ignore_skip_hint = true,
		.no_set_skip_hint = true,
		.alloc_contig = true,
	};
	pfn_t fail = start;
	int ret;

	if (start >= end || (start | end) & (max_block - 1) || !zone_spans_pfn(zone, start) ||
	    !zone_spans_pfn(zone, end - 1)) {
		if (fail_pfn)
			*fail_pfn = start;
		return -MM_EINVAL;
	}
	compact_control_init_lists(&cc);
	ret = start_isolate_page_range(ctx, m, start, end, &fail);
	if (ret)
		goto out;
	/* Free pages of the range cached on pagesets go to the isolate lists. */
	drain_all_pages(ctx, m, zone);
	ret = __alloc_contig_migrate_range(ctx, &cc, start, end, stats);
	if (ret && ret != -MM_EBUSY)
		goto done;
	ret = test_pages_isolated(ctx, m, start, end, &fail);
	if (ret)
		goto done;
	if (!isolate_freepages_range(ctx, &cc, start, end)) {
		ret = -MM_EBUSY;
		goto done;
	}
	/* The free blocks taken become the caller's: MAX_PAGE_ORDER blocks of
	 * type mt, owned by owner, offset their index. */
	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		while (!g_queue_is_empty(&cc.freepages[o])) {
			pfn_t pfn = GPOINTER_TO_UINT(g_queue_pop_head(&cc.freepages[o]));

			pbstat_free(m->pbstat, pfn, (unsigned)o, MIGRATE_MOVABLE);  /* pbstat */
			page_clear(&m->mm, pfn);
		}
	}
	cc.nr_freepages = 0;
	for (pfn_t pfn = start; pfn < end; pfn += max_block) {
		prep_new_page(m, pfn, MAX_PAGE_ORDER, mt, owner, (pfn - start) >> MAX_PAGE_ORDER);
		set_page_owner(ctx, m, pfn);
	}
done:
	undo_isolate_page_range(ctx, m, start, end);
	if (!ret)
		superpageblock_contig_mark(ctx, m, start, end, true);
out:
	compact_control_free_lists(&cc);
	if (ret && fail_pfn)
		*fail_pfn = fail;
	return ret;
}

void free_contig_range(struct mm_ctx *ctx, struct machine *m, pfn_t pfn, unsigned long nr_pages)
{
	superpageblock_contig_mark(ctx, m, pfn, (pfn_t)(pfn + nr_pages), false);
	for (pfn_t p = pfn; p < pfn + nr_pages; p += 1u << MAX_PAGE_ORDER)
		__free_pages(ctx, m, p);
}

/* pfn_range_valid_contig(): all in the zone, no page reserved at boot
 * and no gigantic page already there (the kernel's PageReserved and
 * PageHuge tests); for a caller that may not migrate, no page allocated
 * at all (free pages cached on the pagesets are drained into the range). */
static bool pfn_range_valid_contig(struct machine *m, struct zone *zone, pfn_t start,
				   unsigned long nr_pages, bool may_migrate)
{
	struct memmap *mm = &m->mm;

	for (pfn_t pfn = start; pfn < start + nr_pages; pfn += pageblock_nr_pages)
		if (pfn_zone(m, pfn) != zone || !zone_spans_pfn(zone, pfn))
			return false;
	for (pfn_t pfn = start; pfn < start + nr_pages; pfn++) {
		enum page_kind kind = page_kind(mm, pfn);

		if (kind == PG_KIND_ALLOC && (!may_migrate ||
					      owner_kind(page_owner(m, pfn)) == OWNER_KIND_HUGETLB ||
					      owner_kind(page_owner(m, pfn)) == OWNER_KIND_RESERVED))
			return false;
		if (kind != PG_KIND_NONE)
			pfn += (1u << page_order(mm, pfn)) - 1;
	}
	return true;
}

/* The zones of nid's zonelist on the nodes of nodemask (NODE_MASK_NONE:
 * every node) that gfp allows. */
static bool contig_zone_allowed(const struct zone *zone, gfp_t gfp, nodemask_t nodemask)
{
	return (!nodemask || node_isset(zone->node, nodemask)) &&
	       (int)zone->idx <= (int)gfp_zone(gfp) && populated_zone(zone);
}

pfn_t alloc_contig_pages(struct mm_ctx *ctx, struct machine *m, unsigned long nr_pages, gfp_t gfp,
			 int nid, nodemask_t nodemask, uint32_t owner, struct migrate_stats *stats)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	bool may_migrate = gfp & __GFP_DIRECT_RECLAIM;

	/* Superpageblocks first: their lists name the ranges worth trying
	 * (worth migrating for; without migration any free range will do). */
	for (unsigned i = 0; may_migrate && i < pgdat->nr_zonelist; i++) {
		struct zone *zone = pgdat->zonelist[i];
		pfn_t pfn;

		if (!contig_zone_allowed(zone, gfp, nodemask))
			continue;
		pfn = spb_try_alloc_contig(ctx, zone, nr_pages, gfp, owner, stats);
		if (pfn != PFN_NONE)
			return pfn;
	}
	for (unsigned i = 0; i < pgdat->nr_zonelist; i++) {
		struct zone *zone = pgdat->zonelist[i];
		uint64_t pfn = ((uint64_t)zone->zone_start_pfn + nr_pages - 1) & ~(uint64_t)(nr_pages - 1);

		if (!contig_zone_allowed(zone, gfp, nodemask))
			continue;
		for (; pfn + nr_pages <= zone_end_pfn(zone); pfn += nr_pages) {
			if (!pfn_range_valid_contig(m, zone, (pfn_t)pfn, nr_pages, may_migrate))
				continue;
			if (!alloc_contig_range(ctx, m, (pfn_t)pfn, (pfn_t)(pfn + nr_pages),
						gfp_migratetype(gfp), owner, stats, NULL))
				return (pfn_t)pfn;
		}
	}
	return PFN_NONE;
}
