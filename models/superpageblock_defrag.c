/* The superpageblock defrag worker of seed 004 (a5fb5641) and the
 * contiguous-allocation shortcuts of seed 005 (832e6bcd), from
 * mm/page_alloc.c at the series tip.
 *
 * spb_update_list() queues a superpageblock that needs defrag on its
 * node's kevacuate queue (spb_maybe_start_defrag, superpageblock.c); the
 * kevacuate<N> thread (kevacuate_thread, started by machine_boot) runs
 * the queue's items one at a time.  A tainted superpageblock has its movable pages evacuated to
 * anywhere on the node (evacuate_pageblock); a clean one has its partly
 * used pageblocks moved into its own free space
 * (compact_pageblock_in_spb).  Both walk the superpageblock's pageblocks
 * from where the last pass stopped, wrapping once.  Both drop the clean
 * page-cache pages they isolate rather than move them
 * (reclaim_clean_pages_from_list; alloc_contig_range's model still moves
 * them). */
#include "superpageblock_internal.h"
#include "compaction.h"
#include "migrate.h"
#include "page_alloc.h"
#include "page_cache.h"
#include "pcp.h"

void pageblock_evacuate_init(struct machine *m)
{
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		struct pglist_data *pgdat = &m->node_data[n];

		if (pgdat->evacuate_wq)
			continue;
		pgdat->evacuate_wq = g_new0(struct evacuate_wq, 1);
		g_queue_init(&pgdat->evacuate_wq->queue);
	}
}

void pageblock_evacuate_exit(struct machine *m)
{
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		struct pglist_data *pgdat = &m->node_data[n];

		if (!pgdat->evacuate_wq)
			continue;
		g_queue_clear(&pgdat->evacuate_wq->queue);
		g_free(pgdat->evacuate_wq);
		pgdat->evacuate_wq = NULL;
	}
}

bool spb_defrag_pending(struct machine *m, int nid)
{
	struct evacuate_wq *wq = m->node_data[nid].evacuate_wq;

	return wq && !g_queue_is_empty(&wq->queue);
}

/* The superpageblock of zone starting at start, looked up again after
 * every call that may let other threads run (hotplug may move the array,
 * and hot-remove take it away: NULL). */
static struct superpageblock *spb_at(struct zone *zone, pfn_t start)
{
	return pfn_to_superpageblock(zone, start);
}

/* The pageblock at pfn is memory of zone. */
static bool pageblock_of_zone(struct zone *zone, uint64_t pfn)
{
	return zone_spans_pfn(zone, (pfn_t)pfn) && pfn_zone(zone->machine, (pfn_t)pfn) == zone;
}

static void spb_clear_skip_bits(struct zone *zone, pfn_t start)
{
	uint16_t *flags = zone->machine->mm.pb_flags;

	for (uint64_t pfn = start; pfn < (uint64_t)start + SUPERPAGEBLOCK_NR_PAGES;
	     pfn += pageblock_nr_pages)
		if (pageblock_of_zone(zone, pfn))
			flags[pfn_to_pb((pfn_t)pfn)] &= (uint16_t)~PB_compact_skip;
}

/* The isolate-and-migrate loop of evacuate_pageblock and
 * compact_pageblock_in_spb over the pageblock at start: stops at the
 * first batch with a page not moved. */
static void migrate_pageblock(struct mm_ctx *ctx, struct compact_control *cc, pfn_t start,
			      new_folio_t get_new_folio, void *private)
{
	struct machine *m = cc->zone->machine;
	pfn_t pfn = start, end = start + pageblock_nr_pages;
	enum migrate_status status[COMPACT_CLUSTER_MAX];

	while (pfn < end) {
		unsigned nr;
		int ret;

		isolate_migratepages_range(ctx, cc, pfn, end);
		pfn = cc->migrate_pfn;
		nr = cc->migratepages->len;
		if (!nr)
			break;
		g_assert(nr <= COMPACT_CLUSTER_MAX);   /* order-0 pages, one batch */
		/* Clean page cache is dropped, not moved. */
		nr -= reclaim_clean_pages_from_list(ctx, m, (pfn_t *)(void *)cc->migratepages->data,
						    nr);
		ret = 0;
		if (nr) {
			ret = migrate_pages(ctx, m, (const pfn_t *)(void *)cc->migratepages->data,
					    nr, get_new_folio, NULL, private, cc->mode, MR_COMPACTION,
					    status, NULL);
			putback_movable_pages(ctx, status, nr);
		}
		g_array_set_size(cc->migratepages, 0);
		cc->nr_migratepages = 0;
		if (ret)
			break;
	}
}

void evacuate_pageblock(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn, bool force)
{
	struct compact_control cc = {
		.zone = zone,
		.order = -1,
		.mode = MIGRATE_ASYNC,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
	};
	int nid = (int)zone->node;

	if (!force && get_pfnblock_migratetype(&zone->machine->mm, pfn) == MIGRATE_MOVABLE)
		return;
	compact_control_init_lists(&cc);
	migrate_pageblock(ctx, &cc, pfn, alloc_migration_target, &nid);
	/* Scanned again only so that a pageblock left with free pages alone
	 * loses PB_has_movable. */
	isolate_migratepages_range(ctx, &cc, pfn, pfn + pageblock_nr_pages);
	putback_isolated(ctx, &cc);
	compact_control_free_lists(&cc);
}

struct spb_compaction_control {
	struct zone *zone;
	pfn_t start;            /* the superpageblock's first pfn */
};

/* alloc_spb_compaction_target(): a destination from the superpageblock's
 * own movable lists, the source's order first, else split from above
 * (even from the pageblock being emptied). */
static pfn_t alloc_spb_compaction_target(struct mm_ctx *ctx, struct machine *m, pfn_t src,
					 void *private)
{
	struct spb_compaction_control *scc = private;
	unsigned order = page_order(&m->mm, src);
	struct superpageblock *sb;
	pfn_t pfn;

	zone_lock(ctx, scc->zone, SITE_OTHER);
	sb = spb_at(scc->zone, scc->start);
	pfn = sb ? __rmqueue_from_sb(scc->zone, sb, order, MIGRATE_MOVABLE) : PFN_NONE;
	zone_unlock(ctx, scc->zone);
	if (pfn != PFN_NONE)
		prep_new_page(m, pfn, order, MIGRATE_MOVABLE, OWNER_NONE, 0);
	return pfn;
}

static void compact_pageblock_in_spb(struct mm_ctx *ctx, struct zone *zone, pfn_t sb_start,
				     pfn_t pfn)
{
	struct compact_control cc = {
		.zone = zone,
		.order = -1,
		.mode = MIGRATE_SYNC_LIGHT,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
	};
	struct spb_compaction_control scc = { .zone = zone, .start = sb_start };

	compact_control_init_lists(&cc);
	migrate_pageblock(ctx, &cc, pfn, alloc_spb_compaction_target, &scc);
	putback_isolated(ctx, &cc);
	compact_control_free_lists(&cc);
}

/* spb_defrag_tainted() and spb_defrag_clean(): from the cursor, every
 * pageblock not wholly free nor skip-marked (tainted: with movable pages)
 * until spb_defrag_done; at the end the skip bits are cleared and the
 * walk wraps once, up to the cursor's pageblock included. */
static void spb_defrag_walk(struct mm_ctx *ctx, struct zone *zone, pfn_t start, bool tainted)
{
	const uint16_t *flags = zone->machine->mm.pb_flags;
	uint64_t end = (uint64_t)start + SUPERPAGEBLOCK_NR_PAGES, pfn, cursor;
	bool wrapped = false;

	cursor = spb_at(zone, start)->defrag_cursor;
	if (cursor < start || cursor >= end) {
		cursor = start;
		spb_clear_skip_bits(zone, start);
	}
	for (pfn = cursor; pfn < end;) {
		struct superpageblock *sb = spb_at(zone, start);

		if (!sb)
			return;
		if (spb_defrag_done(sb))
			break;
		if (pageblock_of_zone(zone, pfn)) {
			uint16_t f = flags[pfn_to_pb((pfn_t)pfn)];

			if ((!tainted || (f & PB_has_movable)) && !(f & PB_all_free) &&
			    !(f & PB_compact_skip)) {
				if (tainted)
					evacuate_pageblock(ctx, zone, (pfn_t)pfn, true);
				else
					compact_pageblock_in_spb(ctx, zone, start, (pfn_t)pfn);
				/* The kernel's, after each batch: here after each
				 * pageblock, with nothing isolated. */
				cond_resched(ctx);
			}
		}
		pfn += pageblock_nr_pages;
		if (pfn >= end && !wrapped) {
			spb_clear_skip_bits(zone, start);
			pfn = start;
			wrapped = true;
		}
		if (wrapped && pfn > cursor)
			break;
	}
	if (spb_at(zone, start))
		spb_at(zone, start)->defrag_cursor = (pfn_t)MIN(pfn, (uint64_t)PFN_NONE);
}

/* spb_defrag_work_fn(): one pass, by the category the superpageblock has
 * now; a pass that freed no pageblock arms the back-off. */
static void spb_defrag_work_fn(struct mm_ctx *ctx, struct zone *zone, pfn_t start)
{
	struct superpageblock *sb = spb_at(zone, start);
	uint16_t nr_free_before = sb->nr_free;

	if (spb_get_category(sb) == SB_TAINTED) {
		if (sb->nr_movable)
			spb_defrag_walk(ctx, zone, start, true);
	} else {
		spb_defrag_walk(ctx, zone, start, false);
	}
	sb = spb_at(zone, start);
	if (!sb)
		return;
	if (sb->nr_free == nr_free_before) {
		sb->defrag_last_no_progress_ns = mm_now(ctx) | 1;
		sb->defrag_last_no_progress_pages = sb->nr_free_pages;
	} else {
		sb->defrag_last_no_progress_ns = 0;
	}
	sb->defrag_active = false;
}

bool spb_defrag_run_one(struct mm_ctx *ctx, struct machine *m, int nid)
{
	struct evacuate_wq *wq = m->node_data[nid].evacuate_wq;
	gsize key;
	struct zone *zone;

	if (!wq || g_queue_is_empty(&wq->queue))
		return false;
	key = GPOINTER_TO_SIZE(g_queue_pop_head(&wq->queue));
	zone = &m->node_data[nid].node_zones[key >> 32];
	spb_defrag_work_fn(ctx, zone, (pfn_t)(key & 0xffffffffu));
	return true;
}

void kevacuate_thread(struct mm_ctx *ctx, void *arg)
{
	struct machine *m = arg;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	uint64_t poll = m->kswapd_interval ? m->kswapd_interval : 1000000;

	for (;;) {
		schedule_timeout(ctx, poll);
		while (spb_defrag_run_one(ctx, m, nid))
			schedule_timeout(ctx, 0);
	}
}

/* ---- seed 005: contiguous allocation and targeted evacuation ---- */

/* sb_collect_contig_candidates(), zone->lock held: for 1 GiB and more,
 * whole empty superpageblocks then whole clean ones, emptiest first; below
 * that, the first aligned chunk of clean ones, fullest first (full ones
 * left out), then of empty ones. */
static unsigned sb_collect_contig_candidates(struct zone *zone, unsigned long nr_pages,
					     pfn_t *pfns)
{
	unsigned n = 0;

	if (nr_pages >= SUPERPAGEBLOCK_NR_PAGES) {
		for_each_spb_on(zone, SPB_WALK_CONTIG, &zone->spb_empty, sb) {
			if (sb->total_pageblocks < SUPERPAGEBLOCK_NR_PAGEBLOCKS)
				continue;
			pfns[n++] = sb->start_pfn;
			if (n == SPB_CONTIG_MAX_CANDIDATES)
				return n;
		}
		for (int full = __NR_SB_FULLNESS - 1; full >= 0; full--) {
			for_each_spb_on(zone, SPB_WALK_CONTIG, &zone->spb_lists[SB_CLEAN][full], sb) {
				if (sb->total_pageblocks < SUPERPAGEBLOCK_NR_PAGEBLOCKS)
					continue;
				pfns[n++] = sb->start_pfn;
				if (n == SPB_CONTIG_MAX_CANDIDATES)
					return n;
			}
		}
		return n;
	}
	for (int l = SB_FULL_75; l <= __NR_SB_FULLNESS; l++) {
		struct spb_list *list = l < __NR_SB_FULLNESS ? &zone->spb_lists[SB_CLEAN][l] :
							       &zone->spb_empty;

		for_each_spb_on(zone, SPB_WALK_CONTIG, list, sb) {
			uint64_t pfn = ((uint64_t)sb->start_pfn + nr_pages - 1) & ~(uint64_t)(nr_pages - 1);
			uint64_t end = (uint64_t)sb->start_pfn +
				       (uint64_t)sb->total_pageblocks * pageblock_nr_pages;

			if (pfn + nr_pages > end)
				continue;
			pfns[n++] = (pfn_t)pfn;
			if (n == SPB_CONTIG_MAX_CANDIDATES)
				return n;
		}
	}
	return n;
}

/* __alloc_contig_verify_gfp_mask(): beyond the zone, mobility and
 * placement hints, only reclaim and a few action flags are accepted. */
static bool alloc_contig_gfp_valid(gfp_t gfp)
{
	gfp_t ignored = __GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_RECLAIMABLE;
	gfp_t allowed = __GFP_RECLAIM | __GFP_RETRY_MAYFAIL | __GFP_NOWARN | __GFP_ZERO;

	return !(gfp & ~(ignored | allowed));
}

pfn_t spb_try_alloc_contig(struct mm_ctx *ctx, struct zone *zone, unsigned long nr_pages,
			   gfp_t gfp, uint32_t owner, struct migrate_stats *stats)
{
	struct machine *m = zone->machine;
	pfn_t pfns[SPB_CONTIG_MAX_CANDIDATES];
	unsigned n;

	if (nr_pages < pageblock_nr_pages || !zone_has_spb(zone))
		return PFN_NONE;
	zone_lock(ctx, zone, SITE_OTHER);
	n = sb_collect_contig_candidates(zone, nr_pages, pfns);
	zone_unlock(ctx, zone);
	for (unsigned i = 0; i < n; i++) {
		struct superpageblock *sb;

		/* A mask alloc_contig_range refuses fails every candidate
		 * (-EINVAL); what is left is the rotation. */
		for (int attempt = 0; attempt < 2 && alloc_contig_gfp_valid(gfp); attempt++)
			if (!alloc_contig_range(ctx, m, pfns[i], (pfn_t)(pfns[i] + nr_pages),
						gfp_migratetype(gfp), owner, stats, NULL))
				return pfns[i];
		zone_lock(ctx, zone, SITE_OTHER);
		sb = pfn_to_superpageblock(zone, pfns[i]);
		if (sb && sb->on_list) {
			spb_list_del(zone, sb);
			spb_list_add_tail(zone, spb_target_list(zone, sb), sb);
			spb_relinked(zone, sb);
		}
		zone_unlock(ctx, zone);
	}
	return PFN_NONE;
}

/* sb_collect_evacuate_candidates(), zone->lock held: tainted
 * superpageblocks, fullest first, with movable pages and pages of mt. */
static unsigned sb_collect_evacuate_candidates(struct zone *zone, int mt, pfn_t *pfns)
{
	unsigned n = 0;

	for_each_spb_in_category(zone, SPB_WALK_EVACUATE, SB_TAINTED, sb) {
		bool matching = mt == MIGRATE_UNMOVABLE ? sb->nr_unmovable > 0 : sb->nr_reclaimable > 0;

		if (!sb->nr_movable || !matching)
			continue;
		pfns[n++] = sb->start_pfn;
		if (n == SPB_CONTIG_MAX_CANDIDATES)
			return n;
	}
	return n;
}

bool spb_evacuate_for_order(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt)
{
	struct memmap *mm = &zone->machine->mm;
	pfn_t pfns[SPB_CONTIG_MAX_CANDIDATES];
	unsigned n;

	(void)order;    /* unused at the tip too */
	if (!zone_has_spb(zone) || (mt != MIGRATE_UNMOVABLE && mt != MIGRATE_RECLAIMABLE))
		return false;
	zone_lock(ctx, zone, SITE_OTHER);
	n = sb_collect_evacuate_candidates(zone, mt, pfns);
	zone_unlock(ctx, zone);
	for (unsigned i = 0; i < n; i++) {
		for (uint64_t pfn = pfns[i]; pfn < (uint64_t)pfns[i] + SUPERPAGEBLOCK_NR_PAGES;
		     pfn += pageblock_nr_pages) {
			if (!pageblock_of_zone(zone, pfn) ||
			    get_pfnblock_migratetype(mm, (pfn_t)pfn) != mt ||
			    !(mm->pb_flags[pfn_to_pb((pfn_t)pfn)] & PB_has_movable))
				continue;
			evacuate_pageblock(ctx, zone, (pfn_t)pfn, true);
			return true;
		}
	}
	return false;
}

/* zone_ops' compact_shortcut (832e6bcd's __alloc_pages_direct_compact). */
bool spb_compact_shortcut(struct mm_ctx *ctx, struct zone *zone, gfp_t gfp, unsigned order, int mt,
			  pfn_t *pfn)
{
	*pfn = PFN_NONE;
	if (order >= pageblock_order && mt == MIGRATE_MOVABLE) {
		*pfn = spb_try_alloc_contig(ctx, zone, 1UL << order, gfp, OWNER_NONE, NULL);
		return *pfn != PFN_NONE;
	}
	if (mt == MIGRATE_UNMOVABLE || mt == MIGRATE_RECLAIMABLE)
		return spb_evacuate_for_order(ctx, zone, order, mt);
	return false;
}
