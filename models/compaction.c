#include "compaction.h"
#include "huge_memory.h"
#include "buddy.h"
#include "migrate.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "pcp.h"
#include "superpageblock.h"
#include "watermark.h"

static inline pfn_t pageblock_start_pfn(pfn_t pfn)
{
	return pfn & ~(pageblock_nr_pages - 1);
}

static inline pfn_t pageblock_end_pfn(pfn_t pfn)
{
	return pageblock_start_pfn(pfn) + pageblock_nr_pages;
}

static inline bool pageblock_aligned(pfn_t pfn)
{
	return !(pfn & (pageblock_nr_pages - 1));
}

/* The order-aligned block around pfn: its start, and the end of the one
 * after pfn. */
static inline pfn_t block_start_pfn(pfn_t pfn, int order)
{
	return pfn & ~((1u << order) - 1);
}

static inline pfn_t block_end_pfn(pfn_t pfn, int order)
{
	return block_start_pfn(pfn, order) + (1u << order);
}

static inline bool is_via_compact_memory(int order)
{
	return order == -1;
}

void compact_control_init_lists(struct compact_control *cc)
{
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		g_queue_init(&cc->freepages[o]);
	cc->migratepages = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	cc->nr_freepages = cc->nr_migratepages = 0;
}

void compact_control_free_lists(struct compact_control *cc)
{
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		g_assert(g_queue_is_empty(&cc->freepages[o]));
	g_array_free(cc->migratepages, TRUE);
	cc->migratepages = NULL;
}

/* ---- fragmentation (mm/vmstat.c) ---- */

struct contig_page_info {
	unsigned long free_pages, free_blocks_total, free_blocks_suitable;
};

static void fill_contig_page_info(struct zone *zone, unsigned suitable_order,
				  struct contig_page_info *info)
{
	*info = (struct contig_page_info){ 0 };
	for (unsigned o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long blocks = zone->free_area[o].nr_free;

		info->free_blocks_total += blocks;
		info->free_pages += blocks << o;
		if (o >= suitable_order)
			info->free_blocks_suitable += blocks << (o - suitable_order);
	}
}

int fragmentation_index(struct zone *zone, unsigned order)
{
	struct contig_page_info info;
	unsigned long per_block;

	if (order > MAX_PAGE_ORDER)
		return 0;
	fill_contig_page_info(zone, order, &info);
	if (!info.free_blocks_total)
		return 0;
	if (info.free_blocks_suitable)
		return -1000;
	/* Near 0 when the free blocks, on average, are nearly the requested
	 * size (too little memory); near 1000 when they are many and small. */
	per_block = (1000 + info.free_pages * 1000 / (1UL << order)) / info.free_blocks_total;
	return 1000 - (int)per_block;
}

unsigned extfrag_for_order(struct zone *zone, unsigned order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_pages)
		return 0;
	return (unsigned)((info.free_pages - (info.free_blocks_suitable << order)) * 100 /
			  info.free_pages);
}

unsigned fragmentation_score_zone(struct zone *zone)
{
	return extfrag_for_order(zone, COMPACTION_HPAGE_ORDER);
}

unsigned fragmentation_score_node(struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	unsigned long present = 0, score = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		present += pgdat->node_zones[i].present_pages;
	/* Weighted by size, so small zones (DMA32) never trigger it alone. */
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &pgdat->node_zones[i];

		if (populated_zone(z))
			score += z->present_pages * fragmentation_score_zone(z) / (present + 1);
	}
	return (unsigned)score;
}

static unsigned fragmentation_score_wmark(struct machine *m, bool low)
{
	unsigned wmark_low = 100u - (unsigned)m->compaction_proactiveness;
	unsigned leeway = MIN(10u, wmark_low / 2);

	return low ? wmark_low : MIN(wmark_low + leeway, 100u);
}

/* kswapd is balancing the node (models/page_cache.c marks its zones). */
static bool kswapd_is_running(struct machine *m, int nid)
{
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (m->node_data[nid].node_zones[i].flags & ZONE_RECLAIM_ACTIVE)
			return true;
	return false;
}

/* ---- suitability and deferral ---- */

static bool __compaction_suitable(struct zone *zone, int order, unsigned long watermark,
				  int highest_zoneidx, long free_pages)
{
	watermark += compact_gap(order);
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		watermark += zone->_watermark[WMARK_LOW] - zone->_watermark[WMARK_MIN];
	return __zone_watermark_ok(zone, 0, watermark, highest_zoneidx, ALLOC_CMA, free_pages);
}

bool compaction_suitable(struct zone *zone, int order, unsigned long watermark,
			 int highest_zoneidx)
{
	if (!__compaction_suitable(zone, order, watermark, highest_zoneidx,
				   (long)zone_page_state(zone, NR_FREE_PAGES)))
		return false;
	/* Costly orders only when a failure would be fragmentation's fault. */
	if (order > PAGE_ALLOC_COSTLY_ORDER) {
		int fragindex = fragmentation_index(zone, (unsigned)order);

		if (fragindex >= 0 && fragindex <= zone->machine->extfrag_threshold)
			return false;
	}
	return true;
}

static enum compact_result compaction_suit_allocation_order(struct zone *zone, int order,
							    int highest_zoneidx,
							    unsigned alloc_flags, bool async)
{
	unsigned long watermark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
	long free_pages = (long)zone_page_state(zone, NR_FREE_PAGES);

	if (__zone_watermark_ok(zone, (unsigned)order, watermark, highest_zoneidx, alloc_flags,
				free_pages))
		return COMPACT_SUCCESS;
	if (order > PAGE_ALLOC_COSTLY_ORDER && async && !(alloc_flags & ALLOC_CMA) &&
	    !__zone_watermark_ok(zone, 0, watermark + compact_gap(order), highest_zoneidx, 0,
				 free_pages))
		return COMPACT_SKIPPED;
	if (!compaction_suitable(zone, order, watermark, highest_zoneidx))
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

void defer_compaction(struct zone *zone, int order)
{
	zone->compact_considered = 0;
	if (zone->compact_defer_shift < COMPACT_MAX_DEFER_SHIFT)
		zone->compact_defer_shift++;
	if (order < zone->compact_order_failed)
		zone->compact_order_failed = order;
}

bool compaction_deferred(struct zone *zone, int order)
{
	unsigned long limit = 1UL << zone->compact_defer_shift;

	if (order < zone->compact_order_failed)
		return false;
	/* Skipped 2^compact_defer_shift times, then tried again. */
	if (++zone->compact_considered >= limit) {
		zone->compact_considered = (unsigned)limit;
		return false;
	}
	return true;
}

void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	if (alloc_success) {
		zone->compact_considered = 0;
		zone->compact_defer_shift = 0;
	}
	if (order >= zone->compact_order_failed)
		zone->compact_order_failed = order + 1;
}

static bool compaction_restarting(struct zone *zone, int order)
{
	if (order < zone->compact_order_failed)
		return false;
	return zone->compact_defer_shift == COMPACT_MAX_DEFER_SHIFT &&
	       zone->compact_considered >= 1UL << zone->compact_defer_shift;
}

/* ---- skip hints and cached scanner positions ---- */

static bool get_pageblock_skip(struct machine *m, pfn_t pfn)
{
	return m->mm.pb_flags[pfn_to_pb(pfn)] & PB_compact_skip;
}

static void set_pageblock_skip(struct machine *m, pfn_t pfn)
{
	m->mm.pb_flags[pfn_to_pb(pfn)] |= PB_compact_skip;
}

static bool isolation_suitable(struct compact_control *cc, pfn_t pfn)
{
	return cc->ignore_skip_hint || !get_pageblock_skip(cc->zone->machine, pfn);
}

static void reset_cached_positions(struct zone *zone)
{
	zone->compact_cached_migrate_pfn[0] = zone->zone_start_pfn;
	zone->compact_cached_migrate_pfn[1] = zone->zone_start_pfn;
	zone->compact_cached_free_pfn = pageblock_start_pfn(zone_end_pfn(zone) - 1);
}

/* After a direct compaction met its scanners: every hint of the zone goes
 * and both scanners start again from the zone's ends. */
static void __reset_isolation_suitable(struct zone *zone)
{
	struct machine *m = zone->machine;

	if (!zone->compact_blockskip_flush)
		return;
	zone->compact_blockskip_flush = false;
	for (pfn_t pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn += pageblock_nr_pages)
		m->mm.pb_flags[pfn_to_pb(pfn)] &= (uint16_t)~PB_compact_skip;
	reset_cached_positions(zone);
	zone->compact_init_migrate_pfn = zone->zone_start_pfn;
	zone->compact_init_free_pfn = zone->compact_cached_free_pfn;
}

void reset_isolation_suitable(struct machine *m, int nid)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (populated_zone(z))
			__reset_isolation_suitable(z);
	}
}

/* Set the hint unless ignored; whether it was set already. */
static bool test_and_set_skip(struct compact_control *cc, pfn_t pfn)
{
	bool skip;

	if (cc->ignore_skip_hint)
		return false;
	skip = get_pageblock_skip(cc->zone->machine, pfn);
	if (!skip && !cc->no_set_skip_hint)
		set_pageblock_skip(cc->zone->machine, pfn);
	return skip;
}

static void update_cached_migrate(struct compact_control *cc, pfn_t pfn)
{
	struct zone *zone = cc->zone;

	if (cc->no_set_skip_hint)
		return;
	pfn = pageblock_end_pfn(pfn);
	if (pfn > zone->compact_cached_migrate_pfn[0])
		zone->compact_cached_migrate_pfn[0] = pfn;
	if (cc->mode != MIGRATE_ASYNC && pfn > zone->compact_cached_migrate_pfn[1])
		zone->compact_cached_migrate_pfn[1] = pfn;
}

static void update_pageblock_skip(struct compact_control *cc, pfn_t block, pfn_t pfn)
{
	if (cc->no_set_skip_hint)
		return;
	set_pageblock_skip(cc->zone->machine, block);
	if (pfn < cc->zone->compact_cached_free_pfn)
		cc->zone->compact_cached_free_pfn = pfn;
}

/* ---- the free scanner ---- */

/* Async compaction tries zone->lock once; if busy it takes it anyway but
 * remembers the contention, which ends the run early. */
static void compact_lock_zone(struct mm_ctx *ctx, struct compact_control *cc)
{
	if (cc->mode == MIGRATE_ASYNC && !cc->contended) {
		if (zone_trylock(ctx, cc->zone, SITE_ISOLATE_FREEPAGES))
			return;
		cc->contended = true;
	}
	zone_lock(ctx, cc->zone, SITE_ISOLATE_FREEPAGES);
}

/* A free block taken off the lists becomes compaction's: an allocated
 * movable block with no owner (mark_allocated). */
static void mark_isolated_block(struct machine *m, pfn_t pfn, unsigned order)
{
	prep_new_page(m, pfn, order, MIGRATE_MOVABLE, OWNER_NONE, 0);
}

/* isolate_freepages_block(): free blocks of [*start_pfn, end_pfn) onto
 * cc->freepages, looking at every stride-th pfn; strict (contiguous
 * allocation) stops at the first pfn that is not free and then counts
 * nothing.  *start_pfn: where the scan stopped.  Returns pages isolated. */
static unsigned long isolate_freepages_block(struct mm_ctx *ctx, struct compact_control *cc,
					     pfn_t *start_pfn, pfn_t end_pfn, unsigned stride,
					     bool strict)
{
	struct zone *zone = cc->zone;
	struct machine *m = zone->machine;
	struct memmap *mm = &m->mm;
	unsigned long nr_scanned = 0, total_isolated = 0, looked_unlocked = 0;
	pfn_t pfn = *start_pfn;
	bool locked = false;

	if (strict)
		stride = 1;
	for (; pfn < end_pfn; pfn += stride) {
		unsigned long isolated;
		unsigned order;

		/* The lock-drop point, busy or not. */
		if (!(pfn % COMPACT_CLUSTER_MAX) && locked) {
			zone_unlock(ctx, zone);
			locked = false;
		}
		nr_scanned++;
		if (locked)
			zone->work.pb_scan++;
		else
			looked_unlocked++;
		order = page_order(mm, pfn);
		if (page_kind(mm, pfn) == PG_KIND_ALLOC && order > 0) {
			/* A compound page: step over it whole. */
			if (pfn + (1u << order) <= end_pfn) {
				pfn += (1u << order) - 1;
				nr_scanned += (1u << order) - 1;
			}
			goto isolate_fail;
		}
		if (!PageBuddy(mm, pfn))
			goto isolate_fail;
		if (!locked) {
			compact_lock_zone(ctx, cc);
			locked = true;
			/* Others ran while we waited: look again. */
			if (!PageBuddy(mm, pfn))
				goto isolate_fail;
		}
		order = page_order(mm, pfn);
		isolated = __isolate_free_page(zone, pfn, order);
		if (!isolated)
			break;
		mark_isolated_block(m, pfn, order);
		g_queue_push_tail(&cc->freepages[order], GUINT_TO_POINTER(pfn));
		nr_scanned += isolated - 1;
		total_isolated += isolated;
		cc->nr_freepages += isolated;
		if (!strict && cc->nr_migratepages <= cc->nr_freepages) {
			pfn += (pfn_t)isolated;
			break;
		}
		pfn += (pfn_t)isolated - 1;
		continue;
isolate_fail:
		if (strict)
			break;
	}
	if (locked)
		zone_unlock(ctx, zone);
	mm_charge(ctx, COST_PB_SCAN, looked_unlocked);
	if (pfn > end_pfn)
		pfn = end_pfn;
	*start_pfn = pfn;
	if (strict && pfn < end_pfn)
		total_isolated = 0;
	cc->total_free_scanned += nr_scanned;
	m->vm_events[COMPACTISOLATED] += total_isolated;
	return total_isolated;
}

/* pageblock_pfn_to_page(): the pageblock lies in cc's zone (zones are
 * pageblock aligned, so its first pfn says it). */
static bool pageblock_in_zone(struct compact_control *cc, pfn_t block_start)
{
	return zone_spans_pfn(cc->zone, block_start);
}

/* suitable_migration_target(): not a free block the request could use
 * itself, and (unless told otherwise) a movable pageblock. */
static bool suitable_migration_target(struct compact_control *cc, pfn_t pfn)
{
	struct memmap *mm = &cc->zone->machine->mm;
	int mt;

	if (PageBuddy(mm, pfn)) {
		unsigned order = cc->order > 0 ? (unsigned)cc->order : pageblock_order;

		if (page_order(mm, pfn) >= order)
			return false;
	}
	if (cc->ignore_block_suitable)
		return true;
	mt = get_pfnblock_migratetype(mm, pfn);
	return mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA;
}

/* isolate_freepages(): down from cc->free_pfn, pageblock by pageblock,
 * until there are destinations for every isolated page or the scanner
 * reaches the migrate scanner's pageblock. */
static void isolate_freepages(struct mm_ctx *ctx, struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	pfn_t isolate_start_pfn = cc->free_pfn;
	pfn_t block_start_pfn = pageblock_start_pfn(isolate_start_pfn);
	pfn_t block_end_pfn = MIN(block_start_pfn + pageblock_nr_pages, zone_end_pfn(zone));
	pfn_t low_pfn = pageblock_end_pfn(cc->migrate_pfn);
	unsigned stride = cc->mode == MIGRATE_ASYNC ? COMPACT_CLUSTER_MAX : 1;

	for (; block_start_pfn >= low_pfn; block_end_pfn = block_start_pfn,
	     block_start_pfn -= pageblock_nr_pages, isolate_start_pfn = block_start_pfn) {
		unsigned long nr_isolated;

		if (!pageblock_in_zone(cc, block_start_pfn) ||
		    !suitable_migration_target(cc, block_start_pfn) ||
		    !isolation_suitable(cc, block_start_pfn))
			continue;
		nr_isolated = isolate_freepages_block(ctx, cc, &isolate_start_pfn, block_end_pfn,
						      stride, false);
		if (isolate_start_pfn == block_end_pfn)
			update_pageblock_skip(cc, block_start_pfn, block_start_pfn - pageblock_nr_pages);
		if (cc->nr_freepages >= cc->nr_migratepages) {
			/* Enough: resume in the block below next time if this
			 * one was used up. */
			if (isolate_start_pfn >= block_end_pfn)
				isolate_start_pfn = block_start_pfn - pageblock_nr_pages;
			break;
		} else if (isolate_start_pfn < block_end_pfn) {
			break;          /* the watermark stopped it */
		}
		stride = nr_isolated ? 1 : MIN(COMPACT_CLUSTER_MAX, stride << 1);
	}
	cc->free_pfn = isolate_start_pfn;
}

/* compaction_alloc(), migrate_pages' get_new_folio: the first isolated
 * block from the lowest order up, split down to one page, the rest
 * queued; the free scanner runs once if there is none. */
static pfn_t compaction_alloc(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	struct compact_control *cc = private;
	bool has_isolated_pages = false;
	unsigned start_order;
	pfn_t pfn;

	(void)src;
again:
	for (start_order = 0; start_order < NR_PAGE_ORDERS; start_order++)
		if (!g_queue_is_empty(&cc->freepages[start_order]))
			break;
	if (start_order == NR_PAGE_ORDERS) {
		if (has_isolated_pages)
			return PFN_NONE;
		isolate_freepages(ctx, cc);
		has_isolated_pages = true;
		goto again;
	}
	pfn = GPOINTER_TO_UINT(g_queue_pop_head(&cc->freepages[start_order]));
	while (start_order > 0) {
		start_order--;
		page_set(&m->mm, pfn + (1u << start_order), PG_KIND_ALLOC, start_order, MIGRATE_MOVABLE);
		g_queue_push_head(&cc->freepages[start_order],
				  GUINT_TO_POINTER(pfn + (1u << start_order)));
	}
	page_set(&m->mm, pfn, PG_KIND_ALLOC, 0, MIGRATE_MOVABLE);
	cc->nr_freepages--;
	cc->nr_migratepages--;
	return pfn;
}

/* compaction_free(), put_new_folio: an unused destination goes back on
 * the isolated list. */
static void compaction_free(struct mm_ctx *ctx, struct machine *m, pfn_t dst, void *private)
{
	struct compact_control *cc = private;

	(void)ctx;
	(void)m;
	g_queue_push_head(&cc->freepages[0], GUINT_TO_POINTER(dst));
	cc->nr_freepages++;
	cc->nr_migratepages++;
}

void release_free_list(struct mm_ctx *ctx, struct compact_control *cc)
{
	struct machine *m = cc->zone->machine;
	pfn_t high_pfn = 0;

	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		while (!g_queue_is_empty(&cc->freepages[o])) {
			pfn_t pfn = GPOINTER_TO_UINT(g_queue_pop_head(&cc->freepages[o]));

			__free_pages(ctx, m, pfn);
			high_pfn = MAX(high_pfn, pfn);
		}
	}
	/* The free scanner restarts at the highest block given back, never
	 * further up than it was. */
	if (cc->nr_freepages && !cc->alloc_contig &&
	    pageblock_start_pfn(high_pfn) > cc->zone->compact_cached_free_pfn)
		cc->zone->compact_cached_free_pfn = pageblock_start_pfn(high_pfn);
	cc->nr_freepages = 0;
}

pfn_t isolate_freepages_range(struct mm_ctx *ctx, struct compact_control *cc, pfn_t start,
			      pfn_t end)
{
	pfn_t pfn = start;

	while (pfn < end) {
		pfn_t block_end = MIN(pageblock_end_pfn(pfn), end);
		pfn_t at = pfn;
		unsigned long isolated;

		if (!pageblock_in_zone(cc, pageblock_start_pfn(pfn)) ||
		    !zone_spans_pfn(cc->zone, block_end - 1))
			break;
		isolated = isolate_freepages_block(ctx, cc, &at, block_end, 1, true);
		if (!isolated)
			break;
		/* A block above pageblock order carries the scan past block_end. */
		pfn += (pfn_t)isolated;
	}
	if (pfn < end) {
		release_free_list(ctx, cc);
		return 0;
	}
	return pfn;
}

/* ---- the migrate scanner ---- */

/* skip_isolation_on_order(): a compound page of the target order or more
 * (unless compacting everything), or of pageblock order, is left alone. */
static bool skip_isolation_on_order(unsigned order, int target_order)
{
	if (!is_via_compact_memory(target_order) && (int)order >= target_order)
		return true;
	return order >= pageblock_order;
}

void putback_isolated(struct mm_ctx *ctx, struct compact_control *cc)
{
	if (cc->migratepages->len)
		mm_charge(ctx, COST_MIGRATE_ISOLATE, cc->migratepages->len);
	g_array_set_size(cc->migratepages, 0);
	cc->nr_migratepages = 0;
}

/* isolate_migratepages_block(): movable pages of [low_pfn, end_pfn), one
 * pageblock at most, onto cc->migratepages, stopping after
 * COMPACT_CLUSTER_MAX; cc->migrate_pfn: where the next call goes on. */
static int isolate_migratepages_block(struct mm_ctx *ctx, struct compact_control *cc,
				      pfn_t low_pfn, pfn_t end_pfn)
{
	struct machine *m = cc->zone->machine;
	struct memmap *mm = &m->mm;
	unsigned long nr_scanned = 0, nr_isolated = 0, looked = 0;
	pfn_t valid_page = PFN_NONE, next_skip_pfn = 0;
	bool skip_on_failure = false, skip_updated = false;
	int ret = 0;
	/* A page that could hold movable data was seen and not isolated. */
	bool movable_skipped = false;

	cc->migrate_pfn = low_pfn;
	/* Async direct compaction gives up an order-aligned block at its
	 * first page that cannot move: the block could not become free. */
	if (cc->direct_compaction && cc->mode == MIGRATE_ASYNC) {
		skip_on_failure = true;
		next_skip_pfn = block_end_pfn(low_pfn, cc->order);
	}
	for (; low_pfn < end_pfn; low_pfn++) {
		unsigned order;

		/* A killed task's compaction ends at the next cluster,
		 * contended, leaving the skip hints as they are. */
		if (!(low_pfn % COMPACT_CLUSTER_MAX) && fatal_signal_pending()) {
			cc->contended = true;
			ret = -MM_EINTR;
			goto fatal_pending;
		}
		if (skip_on_failure && low_pfn >= next_skip_pfn) {
			if (nr_isolated)
				break;
			next_skip_pfn = block_end_pfn(low_pfn, cc->order);
		}
		nr_scanned++;
		looked++;
		if (valid_page == PFN_NONE &&
		    (pageblock_aligned(low_pfn) || low_pfn == cc->zone->zone_start_pfn)) {
			if (!isolation_suitable(cc, low_pfn)) {
				low_pfn = end_pfn;
				goto isolate_abort;
			}
			valid_page = low_pfn;
		}
		order = page_order(mm, low_pfn);
		if (PageBuddy(mm, low_pfn)) {
			if (order > 0) {
				low_pfn += (1u << order) - 1;
				nr_scanned += (1u << order) - 1;
			}
			continue;
		}
		if (page_kind(mm, low_pfn) != PG_KIND_ALLOC)
			goto isolate_fail;      /* a per-CPU list page or a block's tail */
		if (order > 0) {
			/* A THP in a range being made contiguous is isolated
			 * whole, from whichever of its blocks the scan meets
			 * first; other compound pages are stepped over. */
			pfn_t head = cc->alloc_contig ? thp_head(m, low_pfn) : PFN_NONE;
			unsigned long rest;

			if (head == PFN_NONE) {
				if (!cc->alloc_contig && !skip_isolation_on_order(order, cc->order))
					goto isolate_fail;
				low_pfn += (1u << order) - 1;
				nr_scanned += (1u << order) - 1;
				goto isolate_fail;
			}
			rest = head + (1UL << folio_order(m, head)) - low_pfn - 1;
			if ((cc->migratepages->len &&
			     g_array_index(cc->migratepages, pfn_t, cc->migratepages->len - 1) == head) ||
			    !isolate_migratepage(ctx, m, head)) {
				low_pfn += rest;
				nr_scanned += rest;
				goto isolate_fail;
			}
			g_array_append_val(cc->migratepages, head);
			cc->nr_migratepages++;
			nr_isolated++;
			low_pfn += rest;
			nr_scanned += rest;
			if (cc->nr_migratepages >= COMPACT_CLUSTER_MAX) {
				++low_pfn;
				break;
			}
			continue;
		}
		if (!folio_test_lru(m, low_pfn))
			goto isolate_fail;
		/* A pinned anonymous page has references beyond its mappings:
		 * migration would fail, so it is not worth the lru lock. */
		if ((m->mm.flags[low_pfn].aux & PG_pinned) &&
		    owner_kind(page_owner(m, low_pfn)) == OWNER_KIND_ANON)
			goto isolate_fail;
		/* The first lru lock of the pageblock claims it for this run. */
		if (!skip_updated && valid_page != PFN_NONE) {
			skip_updated = true;
			if (test_and_set_skip(cc, valid_page) && !cc->finish_pageblock) {
				low_pfn = end_pfn;
				goto isolate_abort;
			}
		}
		if (!isolate_migratepage(ctx, m, low_pfn))
			goto isolate_fail;
		g_array_append_val(cc->migratepages, low_pfn);
		cc->nr_migratepages++;
		nr_isolated++;
		if (cc->nr_migratepages >= COMPACT_CLUSTER_MAX && !cc->finish_pageblock &&
		    !cc->contended) {
			++low_pfn;
			break;
		}
		continue;
isolate_fail:
		/* Every page not free and not isolated keeps PB_has_movable:
		 * per-CPU list pages, compound and kernel (non-LRU) pages,
		 * pinned pages. */
		movable_skipped = true;
		if (!skip_on_failure)
			continue;
		if (nr_isolated) {
			putback_isolated(ctx, cc);
			nr_isolated = 0;
		}
		if (low_pfn < next_skip_pfn) {
			low_pfn = next_skip_pfn - 1;
			next_skip_pfn += 1u << cc->order;
		}
	}
	if (low_pfn > end_pfn)
		low_pfn = end_pfn;
isolate_abort:
	/* A pageblock scanned to its end without isolating anything (or
	 * rescanned) is skipped next time. */
	if (low_pfn == end_pfn && (!nr_isolated || cc->finish_pageblock)) {
		if (!cc->no_set_skip_hint && valid_page != PFN_NONE && !skip_updated)
			set_pageblock_skip(m, valid_page);
		update_cached_migrate(cc, low_pfn);
		/* A pageblock of free pages only: no movable page left in it
		 * (valid_page: scanned from its start). */
		if (!nr_isolated && !movable_skipped && valid_page != PFN_NONE)
			superpageblock_clear_has_movable(cc->zone, valid_page);
	}
fatal_pending:
	mm_charge(ctx, COST_PB_SCAN, looked);
	cc->total_migrate_scanned += nr_scanned;
	m->vm_events[COMPACTISOLATED] += nr_isolated;
	cc->migrate_pfn = low_pfn;
	return ret;
}

void isolate_migratepages_range(struct mm_ctx *ctx, struct compact_control *cc, pfn_t start,
				pfn_t end)
{
	pfn_t pfn = start, block_end = MIN(pageblock_end_pfn(start), end);

	for (; pfn < end; pfn = block_end, block_end = MIN(block_end + pageblock_nr_pages, end)) {
		if (!pageblock_in_zone(cc, pageblock_start_pfn(pfn)))
			continue;
		if (isolate_migratepages_block(ctx, cc, pfn, block_end) ||
		    cc->nr_migratepages >= COMPACT_CLUSTER_MAX)
			return;
	}
	cc->migrate_pfn = end;
}

/* suitable_migration_source(): async direct compaction takes pages only
 * from pageblocks of the request's type; no one scans a pageblock a large
 * compound page fills. */
static bool suitable_migration_source(struct compact_control *cc, pfn_t pfn)
{
	struct memmap *mm = &cc->zone->machine->mm;
	int mt;

	if (page_kind(mm, pfn) == PG_KIND_ALLOC && page_order(mm, pfn) >= pageblock_order)
		return false;
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	mt = get_pfnblock_migratetype(mm, pfn);
	if (cc->migratetype == MIGRATE_MOVABLE)
		return mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA;
	return mt == cc->migratetype;
}

enum isolate_migrate { ISOLATE_ABORT, ISOLATE_NONE, ISOLATE_SUCCESS };

/* isolate_migratepages(): the first suitable pageblock from
 * cc->migrate_pfn up, never past the free scanner. */
static enum isolate_migrate isolate_migratepages(struct mm_ctx *ctx, struct compact_control *cc)
{
	pfn_t low_pfn = cc->migrate_pfn;
	pfn_t block_start_pfn = MAX(pageblock_start_pfn(low_pfn), cc->zone->zone_start_pfn);
	pfn_t block_end_pfn = pageblock_end_pfn(low_pfn);

	for (; block_end_pfn <= cc->free_pfn; cc->migrate_pfn = low_pfn = block_end_pfn,
	     block_start_pfn = block_end_pfn, block_end_pfn += pageblock_nr_pages) {
		if (!pageblock_in_zone(cc, block_start_pfn))
			continue;
		if ((pageblock_aligned(low_pfn) || low_pfn == cc->zone->zone_start_pfn) &&
		    !isolation_suitable(cc, block_start_pfn))
			continue;
		if (!suitable_migration_source(cc, block_start_pfn)) {
			update_cached_migrate(cc, block_end_pfn);
			continue;
		}
		if (isolate_migratepages_block(ctx, cc, low_pfn, block_end_pfn))
			return ISOLATE_ABORT;
		break;
	}
	return cc->nr_migratepages ? ISOLATE_SUCCESS : ISOLATE_NONE;
}

/* ---- the run ---- */

/* The free scanner has come down to the migrate scanner's pageblock. */
static bool compact_scanners_met(const struct compact_control *cc)
{
	return pfn_to_pb(cc->free_pfn) <= pfn_to_pb(cc->migrate_pfn);
}

static enum compact_result __compact_finished(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	struct machine *m = zone->machine;

	if (compact_scanners_met(cc)) {
		reset_cached_positions(zone);
		/* kswapd clears the skip hints when it next sleeps. */
		if (cc->direct_compaction)
			zone->compact_blockskip_flush = true;
		return cc->whole_zone ? COMPACT_COMPLETE : COMPACT_PARTIAL_SKIPPED;
	}
	if (cc->proactive_compaction) {
		if (kswapd_is_running(m, (int)zone->node))
			return COMPACT_PARTIAL_SKIPPED;
		if (fragmentation_score_zone(zone) > fragmentation_score_wmark(m, true))
			return cc->contended ? COMPACT_CONTENDED : COMPACT_CONTINUE;
		return cc->contended ? COMPACT_CONTENDED : COMPACT_SUCCESS;
	}
	if (is_via_compact_memory(cc->order))
		return COMPACT_CONTINUE;
	/* Finish the pageblock being scanned, so that a fallback taking it
	 * later finds it as free as possible. */
	if (!pageblock_aligned(cc->migrate_pfn))
		return COMPACT_CONTINUE;
	for (unsigned o = (unsigned)cc->order; o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &zone->free_area[o];

		if (!free_area_empty(area, cc->migratetype))
			return COMPACT_SUCCESS;
		if (cc->migratetype == MIGRATE_MOVABLE && !free_area_empty(area, MIGRATE_CMA))
			return COMPACT_SUCCESS;
		/* A fallback the allocation would take whole (find_suitable_
		 * fallback's claim rules, pageblock order and up always). */
		if (find_suitable_fallback(area, o, cc->migratetype, true) >= 0)
			return COMPACT_SUCCESS;
	}
	return cc->contended ? COMPACT_CONTENDED : COMPACT_NO_SUITABLE_PAGE;
}

static enum compact_result compact_finished(struct compact_control *cc)
{
	enum compact_result ret = __compact_finished(cc);

	return ret == COMPACT_NO_SUITABLE_PAGE ? COMPACT_CONTINUE : ret;
}

enum compact_result compact_zone(struct mm_ctx *ctx, struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	struct machine *m = zone->machine;
	pfn_t start_pfn = zone->zone_start_pfn, end_pfn = zone_end_pfn(zone);
	pfn_t last_migrated_pfn = 0;
	bool sync = cc->mode != MIGRATE_ASYNC, update_cached;
	enum compact_result ret;
	enum migrate_status *status = g_new(enum migrate_status, COMPACT_CLUSTER_MAX);
	unsigned status_len = COMPACT_CLUSTER_MAX;

	cc->total_migrate_scanned = cc->total_free_scanned = 0;
	compact_control_init_lists(cc);
	cc->migratetype = gfp_migratetype(cc->gfp_mask);
	if (!is_via_compact_memory(cc->order)) {
		ret = compaction_suit_allocation_order(zone, cc->order, cc->highest_zoneidx,
						       cc->alloc_flags, cc->mode == MIGRATE_ASYNC);
		if (ret != COMPACT_CONTINUE)
			goto out_free;
	}
	if (compaction_restarting(zone, cc->order))
		__reset_isolation_suitable(zone);

	/* Resume where the last run stopped, unless compacting the whole
	 * zone; positions outside the zone (the first run) start afresh. */
	if (cc->whole_zone) {
		cc->migrate_pfn = start_pfn;
		cc->free_pfn = pageblock_start_pfn(end_pfn - 1);
	} else {
		cc->migrate_pfn = zone->compact_cached_migrate_pfn[sync];
		cc->free_pfn = zone->compact_cached_free_pfn;
		if (cc->free_pfn < start_pfn || cc->free_pfn >= end_pfn) {
			cc->free_pfn = pageblock_start_pfn(end_pfn - 1);
			zone->compact_cached_free_pfn = cc->free_pfn;
			zone->compact_init_free_pfn = cc->free_pfn;
		}
		if (cc->migrate_pfn < start_pfn || cc->migrate_pfn >= end_pfn) {
			cc->migrate_pfn = start_pfn;
			zone->compact_cached_migrate_pfn[0] = cc->migrate_pfn;
			zone->compact_cached_migrate_pfn[1] = cc->migrate_pfn;
			zone->compact_init_migrate_pfn = start_pfn;
		}
		if (cc->migrate_pfn <= zone->compact_init_migrate_pfn)
			cc->whole_zone = true;
	}
	/* Until a pageblock yields pages, keep the async and sync positions
	 * together so neither rescans what the other skipped. */
	update_cached = !sync &&
			zone->compact_cached_migrate_pfn[0] == zone->compact_cached_migrate_pfn[1];

	while ((ret = compact_finished(cc)) == COMPACT_CONTINUE) {
		pfn_t iteration_start_pfn = cc->migrate_pfn;
		unsigned nr;
		int err;

		/* Back in the pageblock migrated last: scan it to its end. */
		cc->finish_pageblock = pageblock_start_pfn(last_migrated_pfn) ==
				       pageblock_start_pfn(iteration_start_pfn);
rescan:
		switch (isolate_migratepages(ctx, cc)) {
		case ISOLATE_ABORT:
			/* A fatal signal: what was isolated goes back. */
			ret = COMPACT_CONTENDED;
			putback_isolated(ctx, cc);
			goto out;
		case ISOLATE_NONE:
			if (update_cached)
				zone->compact_cached_migrate_pfn[1] = zone->compact_cached_migrate_pfn[0];
			goto check_drain;
		case ISOLATE_SUCCESS:
			break;
		}
		update_cached = false;
		last_migrated_pfn = MAX(start_pfn, pageblock_start_pfn(cc->migrate_pfn - 1));
		nr = cc->migratepages->len;
		if (nr > status_len) {
			status_len = nr;
			status = g_renew(enum migrate_status, status, status_len);
		}
		err = migrate_pages(ctx, m, (const pfn_t *)(void *)cc->migratepages->data, nr,
				    compaction_alloc, compaction_free, cc, cc->mode, MR_COMPACTION,
				    status, NULL);
		putback_movable_pages(ctx, status, nr);
		g_array_set_size(cc->migratepages, 0);
		cc->nr_migratepages = 0;
		if (err) {
			/* Out of destinations before the scanners met: stop. */
			if (err == -MM_ENOMEM && !compact_scanners_met(cc)) {
				ret = COMPACT_CONTENDED;
				goto out;
			}
			/* A failure in a pageblock half scanned: scan the rest
			 * of it, so it is marked skip and not revisited soon. */
			if (!pageblock_aligned(cc->migrate_pfn) && !cc->ignore_skip_hint &&
			    !cc->finish_pageblock && cc->mode < MIGRATE_SYNC) {
				cc->finish_pageblock = true;
				if (cc->order == COMPACTION_HPAGE_ORDER)
					last_migrated_pfn = 0;
				goto rescan;
			}
		}
check_drain:
		/* Leaving the order-aligned block migrated from: the pages
		 * freed by migration sit on this CPU's pageset, so drain it
		 * (lru_add_drain_cpu_zone; the model has no LRU add cache). */
		if (cc->order > 0 && last_migrated_pfn &&
		    last_migrated_pfn < block_start_pfn(cc->migrate_pfn, cc->order)) {
			drain_pages_zone(ctx, ctx->cpu, zone);
			last_migrated_pfn = 0;
		}
	}
out:
	release_free_list(ctx, cc);
	m->vm_events[COMPACTMIGRATE_SCANNED] += cc->total_migrate_scanned;
	m->vm_events[COMPACTFREE_SCANNED] += cc->total_free_scanned;
out_free:
	compact_control_free_lists(cc);
	g_free(status);
	return ret;
}

static enum compact_result compact_zone_order(struct mm_ctx *ctx, struct zone *zone, int order,
					      gfp_t gfp, enum compact_priority prio,
					      unsigned alloc_flags, int highest_zoneidx)
{
	struct compact_control cc = {
		.order = order,
		.gfp_mask = gfp,
		.zone = zone,
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.alloc_flags = alloc_flags,
		.highest_zoneidx = highest_zoneidx,
		.direct_compaction = true,
		.whole_zone = prio == MIN_COMPACT_PRIORITY,
		.ignore_skip_hint = prio == MIN_COMPACT_PRIORITY,
		.ignore_block_suitable = prio == MIN_COMPACT_PRIORITY,
	};

	return compact_zone(ctx, &cc);
}

enum compact_result try_to_compact_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
					 unsigned order, unsigned alloc_flags,
					 const struct alloc_context *ac,
					 enum compact_priority prio)
{
	enum compact_result rc = COMPACT_SKIPPED;

	(void)m;
	for (unsigned i = 0; i < ac->nr_zones; i++) {
		struct zone *zone = ac->zonelist[i];
		enum compact_result status;

		if ((int)zone->idx > ac->highest_zoneidx || !populated_zone(zone) ||
		    !zone_in_nodemask(ac, zone))
			continue;
		if (prio > MIN_COMPACT_PRIORITY && compaction_deferred(zone, (int)order)) {
			rc = MAX(rc, COMPACT_DEFERRED);
			continue;
		}
		status = compact_zone_order(ctx, zone, (int)order, gfp, prio, alloc_flags,
					    ac->highest_zoneidx);
		rc = MAX(rc, status);
		if (status == COMPACT_SUCCESS) {
			/* Only likely: the caller resets fully if it allocates. */
			compaction_defer_reset(zone, (int)order, false);
			break;
		}
		if (prio != COMPACT_PRIO_ASYNC &&
		    (status == COMPACT_COMPLETE || status == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(zone, (int)order);
	}
	return rc;
}

void compact_node(struct mm_ctx *ctx, struct machine *m, int nid, bool proactive)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &m->node_data[nid].node_zones[i];
		struct compact_control cc = {
			.order = -1,
			.mode = proactive ? MIGRATE_SYNC_LIGHT : MIGRATE_SYNC,
			.ignore_skip_hint = true,
			.whole_zone = true,
			.gfp_mask = GFP_KERNEL,
			.proactive_compaction = proactive,
			.zone = zone,
		};

		if (!populated_zone(zone))
			continue;
		compact_zone(ctx, &cc);
		if (proactive) {
			m->vm_events[KCOMPACTD_MIGRATE_SCANNED] += cc.total_migrate_scanned;
			m->vm_events[KCOMPACTD_FREE_SCANNED] += cc.total_free_scanned;
		}
	}
}

void compact_nodes(struct mm_ctx *ctx, struct machine *m)
{
	for (unsigned nid = 0; nid < m->nr_nodes; nid++)
		compact_node(ctx, m, (int)nid, false);
}

/* ---- kcompactd ---- */

static bool kcompactd_node_suitable(struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];

	for (int i = 0; i <= pgdat->kcompactd_highest_zoneidx; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (populated_zone(zone) &&
		    compaction_suit_allocation_order(zone, pgdat->kcompactd_max_order,
						     pgdat->kcompactd_highest_zoneidx,
						     ALLOC_WMARK_MIN, false) == COMPACT_CONTINUE)
			return true;
	}
	return false;
}

void compaction_proactiveness_sysctl_handler(struct machine *m, int proactiveness)
{
	m->compaction_proactiveness = proactiveness;
	if (!proactiveness)
		return;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		m->node_data[n].kcompactd_wake = true;
}

void wakeup_kcompactd(struct machine *m, int nid, int order, int highest_zoneidx)
{
	struct pglist_data *pgdat = &m->node_data[nid];

	if (!order)
		return;
	pgdat->kcompactd_max_order = MAX(pgdat->kcompactd_max_order, order);
	pgdat->kcompactd_highest_zoneidx = MIN(pgdat->kcompactd_highest_zoneidx, highest_zoneidx);
	/* Woken only if compaction can do something; the request stays
	 * recorded for the thread's next timeout either way. */
	if (kcompactd_node_suitable(m, nid))
		pgdat->kcompactd_wake = true;
}

static bool kcompactd_work_requested(struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];

	return pgdat->kcompactd_max_order > 0;
}

static void kcompactd_do_work(struct mm_ctx *ctx, struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	int order = pgdat->kcompactd_max_order, highest = pgdat->kcompactd_highest_zoneidx;

	m->vm_events[KCOMPACTD_WAKE]++;
	for (int i = 0; i <= highest; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		struct compact_control cc = {
			.order = order,
			.highest_zoneidx = highest,
			.mode = MIGRATE_SYNC_LIGHT,
			.gfp_mask = GFP_KERNEL,
			.alloc_flags = ALLOC_WMARK_MIN,
			.zone = zone,
		};
		enum compact_result status;

		if (!populated_zone(zone) || compaction_deferred(zone, order))
			continue;
		if (compaction_suit_allocation_order(zone, order, i, ALLOC_WMARK_MIN, false) !=
		    COMPACT_CONTINUE)
			continue;
		status = compact_zone(ctx, &cc);
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(zone, order, false);
		} else if (status == COMPACT_PARTIAL_SKIPPED || status == COMPACT_COMPLETE) {
			/* Free pages stranded on the pagesets could merge. */
			drain_all_pages(ctx, m, zone);
			defer_compaction(zone, order);
		}
		m->vm_events[KCOMPACTD_MIGRATE_SCANNED] += cc.total_migrate_scanned;
		m->vm_events[KCOMPACTD_FREE_SCANNED] += cc.total_free_scanned;
	}
	/* Done until woken again, keeping a larger request made meanwhile. */
	if (pgdat->kcompactd_max_order <= order)
		pgdat->kcompactd_max_order = 0;
	if (pgdat->kcompactd_highest_zoneidx >= highest)
		pgdat->kcompactd_highest_zoneidx = MAX_NR_ZONES - 1;
}

static bool kcompactd_proactive(struct mm_ctx *ctx, struct machine *m, int nid)
{
	unsigned prev_score, score;

	if (!m->compaction_proactiveness || kswapd_is_running(m, nid))
		return true;
	prev_score = fragmentation_score_node(m, nid);
	if (prev_score <= fragmentation_score_wmark(m, false))
		return true;
	compact_node(ctx, m, nid, true);
	score = fragmentation_score_node(m, nid);
	return score < prev_score;
}

/* The kcompactd thread of the node of the CPU it runs on: it waits for
 * wakeup_kcompactd or for its timeout, HPAGE_FRAG_CHECK_INTERVAL_MSEC
 * (none while vm.compaction_proactiveness is 0); work found then is done,
 * otherwise the timeout runs proactive compaction, and a pass that does
 * not lower the node's score stretches the next timeout 64 times.  The
 * wait is a check of the wake flag every kswapd interval, as kswapd's. */
void kcompactd(struct mm_ctx *ctx, void *arg)
{
	struct machine *m = arg;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	struct pglist_data *pgdat = &m->node_data[nid];
	const uint64_t default_timeout = machine_period_ns(m, HPAGE_FRAG_CHECK_INTERVAL_MSEC *
							       1000000ULL);
	uint64_t poll = m->kswapd_interval ? m->kswapd_interval : default_timeout;
	uint64_t timeout = default_timeout;

	for (;;) {
		uint64_t waited = 0;

		while (!pgdat->kcompactd_wake && (!m->compaction_proactiveness || waited < timeout)) {
			schedule_timeout(ctx, poll);
			waited += poll;
		}
		pgdat->kcompactd_wake = false;
		timeout = default_timeout;
		if (kcompactd_work_requested(m, nid)) {
			kcompactd_do_work(ctx, m, nid);
			continue;
		}
		if (!kcompactd_proactive(ctx, m, nid))
			timeout = default_timeout << COMPACT_MAX_DEFER_SHIFT;
	}
}
