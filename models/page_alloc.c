#include "page_alloc.h"
#include "buddy.h"
#include "pbstat.h"  /* pbstat */
#include "page_cache.h"
#include "pcp.h"
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
 * from relative to the preferred zone and the running CPU. */
static void zone_statistics(struct mm_ctx *ctx, struct zone *preferred, struct zone *z)
{
	struct machine *m = z->machine;

	if (z->node == preferred->node) {
		m->vm_events[NUMA_HIT]++;
	} else {
		m->vm_events[NUMA_MISS]++;
		m->vm_events[NUMA_FOREIGN]++;
	}
	if (z->node == topology_cpu_to_node(&m->topo, ctx->cpu))
		m->vm_events[NUMA_LOCAL]++;
	else
		m->vm_events[NUMA_OTHER]++;
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
	/* The kswapd wake-up for a boosted watermark is modelled with kswapd;
	 * until then the flag is just cleared as rmqueue() does. */
	if ((alloc_flags & ALLOC_KSWAPD) && (zone->flags & ZONE_BOOSTED_WATERMARK))
		zone->flags &= ~ZONE_BOOSTED_WATERMARK;
	return pfn;
}

/* reserve_highatomic_pageblock(): keep up to 1% of the zone for high-order
 * atomic requests, nothing in a zone whose 1% is less than a pageblock.
 * The reserve is taken back only by unreserve_highatomic_pageblock()
 * before OOM, which comes with reclaim. */
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

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone))
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

/* __alloc_pages_direct_reclaim() reduced to what is modelled: reclaim
 * the preferred node's page cache, drain the pagesets (pages may sit
 * there), retry; up to MAX_RECLAIM_RETRIES rounds.  No compaction yet. */
#define MAX_RECLAIM_RETRIES 16
static pfn_t __alloc_pages_direct_reclaim(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
					  unsigned order, int nid, const struct alloc_context *ac)
{
	for (int i = 0; i < MAX_RECLAIM_RETRIES && m->page_cache; i++) {
		if (!shrink_page_cache(ctx, m, nid, SWAP_CLUSTER_MAX << order, true))
			return PFN_NONE;
		drain_all_pages(ctx, m, NULL);
		pfn_t pfn = get_page_from_freelist(ctx, m, gfp, order, gfp_to_alloc_flags(gfp, order),
						   ac);
		if (pfn != PFN_NONE)
			return pfn;
	}
	return PFN_NONE;
}

pfn_t __alloc_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
		    int preferred_nid, uint32_t owner, uint32_t offset)
{
	struct pglist_data *pgdat = &m->node_data[preferred_nid];
	struct alloc_context ac = {
		.zonelist = pgdat->zonelist,
		.nr_zones = pgdat->nr_zonelist,
		.highest_zoneidx = gfp_zone(gfp),
		.migratetype = gfp_migratetype(gfp),
	};
	unsigned alloc_flags;
	pfn_t pfn;

	if (order > MAX_PAGE_ORDER)
		return PFN_NONE;
	for (unsigned i = 0; i < ac.nr_zones; i++) {
		struct zone *z = ac.zonelist[i];

		if ((int)z->idx <= ac.highest_zoneidx && populated_zone(z)) {
			ac.preferred_zone = z;
			break;
		}
	}
	if (!ac.preferred_zone)
		return PFN_NONE;

	alloc_flags = ALLOC_WMARK_LOW | alloc_flags_nofragment(m, ac.preferred_zone, gfp);
	/* Superpageblock policy only: the later series' "caller has a
	 * fallback" rule (docs/MODEL.md, "The later series' rule"). */
	unsigned has_fallback = zone_has_spb(ac.preferred_zone) && (gfp & __GFP_NORETRY) &&
				!(gfp & __GFP_DIRECT_RECLAIM) ? ALLOC_HAS_FALLBACK : 0;
	alloc_flags |= has_fallback;
	if (ac.migratetype == MIGRATE_MOVABLE)
		alloc_flags |= ALLOC_CMA;
	pfn = get_page_from_freelist(ctx, m, gfp, order, alloc_flags, &ac);
	if (pfn == PFN_NONE)
		pfn = get_page_from_freelist(ctx, m, gfp, order,
					     gfp_to_alloc_flags(gfp, order) | has_fallback, &ac);
	if (pfn == PFN_NONE && (gfp & __GFP_DIRECT_RECLAIM))
		pfn = __alloc_pages_direct_reclaim(ctx, m, gfp, order, preferred_nid, &ac);
	if (pfn == PFN_NONE) {
		m->vm_events[ALLOC_FAIL]++;
		return PFN_NONE;
	}
	/* prep_new_page(): the head records size, type and owner. */
	page_set(&m->mm, pfn, PG_KIND_ALLOC, order, (unsigned)ac.migratetype);
	*block_word_a(&m->mm, pfn, order) = owner;
	*block_word_b(&m->mm, pfn, order) = offset;
	pbstat_alloc(m->pbstat, pfn, order, (unsigned)ac.migratetype);  /* pbstat */
	if (gfp & __GFP_ZERO)
		mm_charge(ctx, COST_ZERO_PAGE, 1UL << order);
	return pfn;
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
	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
		return -1;
	__free_frozen_pages(ctx, m, pfn, page_order(&m->mm, pfn), FPI_NONE);
	return 0;
}
