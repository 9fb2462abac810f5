#include "buddy.h"
#include "check_report.h"
#include "pcp.h"

const char *const migratetype_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
};

const char *const zone_names[MAX_NR_ZONES] = {
	"DMA", "DMA32", "Normal", "Movable", "Device",
};

const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

static inline struct memmap *zmm(struct zone *zone)
{
	return &zone->machine->mm;
}

void account_freepages(struct zone *zone, long nr_pages, int mt)
{
	if (mt == MIGRATE_ISOLATE)
		return;
	zone->vm_stat[NR_FREE_PAGES] += nr_pages;
	if (mt == MIGRATE_CMA)
		zone->vm_stat[NR_FREE_CMA_PAGES] += nr_pages;
	else if (mt == MIGRATE_HIGHATOMIC)
		zone->nr_free_highatomic += nr_pages;
}

/* The plain buddy's lists: the zone's own. */
static void buddy_add(struct zone *zone, pfn_t pfn, unsigned order, int mt, bool tail)
{
	pfn_list_add(zmm(zone), &zone->free_area[order].free_list[mt], pfn, tail);
}

static void buddy_del(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	pfn_list_del(zmm(zone), &zone->free_area[order].free_list[mt], pfn);
}

static void buddy_move(struct zone *zone, pfn_t pfn, unsigned order, int old_mt, int new_mt)
{
	struct free_area *area = &zone->free_area[order];

	pfn_list_del(zmm(zone), &area->free_list[old_mt], pfn);
	pfn_list_add(zmm(zone), &area->free_list[new_mt], pfn, true);
}

/* __add_to_free_list() + set_buddy_order(), on the zone variant's lists. */
static void add_to_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt, bool tail)
{
	struct free_area *area = &zone->free_area[order];

	page_set(zmm(zone), pfn, PG_KIND_BUDDY, order, 0);
	zone->ops->add_to_free_list(zone, pfn, order, mt, tail);
	area->nr_free++;
	zone->work.list_ops++;
}

/* __del_page_from_free_list(): the frame stops being a buddy head. */
static void del_from_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	struct free_area *area = &zone->free_area[order];

	zone->ops->del_from_free_list(zone, pfn, order, mt);
	page_clear(zmm(zone), pfn);
	area->nr_free--;
	zone->work.list_ops++;
}

void del_page_from_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	del_from_free_list(zone, pfn, order, mt);
	account_freepages(zone, -(1L << order), mt);
}

/* move_to_free_list(): to the tail of the new type's list. */
void move_to_free_list(struct zone *zone, pfn_t pfn, unsigned order, int old_mt, int new_mt)
{
	zone->ops->move_to_free_list(zone, pfn, order, old_mt, new_mt);
	zone->work.list_ops++;
	account_freepages(zone, -(1L << order), old_mt);
	account_freepages(zone, 1L << order, new_mt);
}

/* find_buddy_page_pfn(): the buddy is free at exactly this order, in this zone. */
static bool page_is_buddy(struct zone *zone, pfn_t buddy, unsigned order)
{
	struct memmap *mm = zmm(zone);

	if (!zone_spans_pfn(zone, buddy))
		return false;
	return PageBuddy(mm, buddy) && page_order(mm, buddy) == order;
}

/* buddy_merge_likely(): if the block one order up is free, queue at the
 * tail so the pair is less likely to be split before it can merge. */
static bool buddy_merge_likely(struct zone *zone, pfn_t pfn, pfn_t buddy_pfn, unsigned order)
{
	if (order >= MAX_PAGE_ORDER - 1)
		return false;
	pfn_t higher = buddy_pfn & pfn;
	return page_is_buddy(zone, higher ^ (1u << (order + 1)), order + 1);
}

void __free_one_page(struct zone *zone, pfn_t pfn, unsigned order, int mt, unsigned fpi)
{
	struct memmap *mm = zmm(zone);
	pfn_t buddy_pfn = 0;
	bool to_tail;
	unsigned orig_order = order;

	/* A whole pageblock back in the zone buddy belongs to no CPU any more
	 * (the per-cpu pageblock buddy's rule), whether it came whole or
	 * merged up below; with superpageblocks it also drops its usage bits. */
	if (order >= pageblock_order)
		mt = zone->ops->free_pageblocks(zone, pfn, order, mt);
	account_freepages(zone, 1L << order, mt);

	while (order < MAX_PAGE_ORDER) {
		int buddy_mt = mt;

		buddy_pfn = pfn ^ (1u << order);
		if (!page_is_buddy(zone, buddy_pfn, order))
			break;
		if (order >= pageblock_order) {
			/* Keep blocks without fallbacks (highatomic, CMA,
			 * isolated) from merging with ordinary ones. */
			buddy_mt = get_pfnblock_migratetype(mm, buddy_pfn);
			if (mt != buddy_mt &&
			    (!migratetype_is_mergeable(mt) || !migratetype_is_mergeable(buddy_mt)))
				break;
		}
		del_from_free_list(zone, buddy_pfn, order, buddy_mt);
		if (buddy_mt != mt)
			change_pageblock_range(mm, buddy_pfn, order, mt);
		page_clear(mm, pfn);
		pfn &= buddy_pfn;
		order++;
		zone->work.merge_steps++;
		if (order == pageblock_order)
			mt = zone->ops->merged_pageblock(zone, pfn, mt, orig_order);
	}

	if (fpi & FPI_TO_TAIL)
		to_tail = true;
	else
		to_tail = buddy_merge_likely(zone, pfn, buddy_pfn, order);
	add_to_free_list(zone, pfn, order, mt, to_tail);
}

void split_large_buddy(struct zone *zone, pfn_t pfn, unsigned order, unsigned fpi)
{
	pfn_t end = pfn + (1u << order);
	unsigned step = order > pageblock_order ? pageblock_order : order;

	do {
		__free_one_page(zone, pfn, step, get_pfnblock_migratetype(zmm(zone), pfn), fpi);
		pfn += 1u << step;
	} while (pfn != end);
}

unsigned expand(struct zone *zone, pfn_t pfn, unsigned low, unsigned high, int mt)
{
	unsigned size = 1u << high;
	unsigned nr_added = 0;

	while (high > low) {
		high--;
		size >>= 1;
		zone->work.split_steps++;
		add_to_free_list(zone, pfn + size, high, mt, false);
		nr_added += size;
	}
	return nr_added;
}

void page_del_and_expand(struct zone *zone, pfn_t pfn, unsigned low, unsigned high, int mt)
{
	long nr_pages = 1L << high;

	zone_mark_taken(zone, pfn, high, mt);
	del_from_free_list(zone, pfn, high, mt);
	nr_pages -= expand(zone, pfn, low, high, mt);
	account_freepages(zone, -nr_pages, mt);
}

pfn_t claim_whole_block(struct zone *zone, pfn_t pfn, unsigned current_order, unsigned order,
			int new_mt, int old_mt)
{
	unsigned nr_added;

	del_page_from_free_list(zone, pfn, current_order, old_mt);
	change_pageblock_range(zmm(zone), pfn, current_order, new_mt);
	nr_added = expand(zone, pfn, order, current_order, new_mt);
	account_freepages(zone, nr_added, new_mt);
	return pfn;
}

static pfn_t buddy_rmqueue_smallest(struct zone *zone, unsigned order, int mt)
{
	return rmqueue_first_free(zone, zone->free_area, order, order, mt);
}

pfn_t __rmqueue_smallest(struct zone *zone, unsigned order, int mt)
{
	return zone->ops->rmqueue_smallest(zone, order, mt);
}

static pfn_t __rmqueue_cma_fallback(struct zone *zone, unsigned order)
{
	return __rmqueue_smallest(zone, order, MIGRATE_CMA);
}

/* __move_freepages_block(): caller relabels the block. */
static int __move_freepages_block(struct zone *zone, pfn_t start, int old_mt, int new_mt)
{
	struct memmap *mm = zmm(zone);
	pfn_t end = start + pageblock_nr_pages;
	int moved = 0;

	for (pfn_t pfn = start; pfn < end;) {
		zone->work.pb_scan++;
		if (!PageBuddy(mm, pfn)) {
			pfn++;
			continue;
		}
		unsigned order = page_order(mm, pfn);
		move_to_free_list(zone, pfn, order, old_mt, new_mt);
		pfn += 1u << order;
		moved += 1 << order;
	}
	return moved;
}

/* prep_move_freepages_block(): refuse blocks straddling the zone; count
 * free pages and pages that could be migrated (the model's LRU pages are
 * the ones allocated as movable). */
static bool prep_move_freepages_block(struct zone *zone, pfn_t pfn, pfn_t *start_pfn,
				      int *num_free, int *num_movable)
{
	struct memmap *mm = zmm(zone);
	pfn_t start = pfn & ~(pageblock_nr_pages - 1);
	pfn_t end = start + pageblock_nr_pages;

	if (!zone_spans_pfn(zone, start) || !zone_spans_pfn(zone, end - 1))
		return false;
	*start_pfn = start;
	if (!num_free)
		return true;
	*num_free = 0;
	*num_movable = 0;
	for (pfn_t p = start; p < end;) {
		zone->work.pb_scan++;
		if (PageBuddy(mm, p)) {
			int nr = 1 << page_order(mm, p);

			*num_free += nr;
			p += nr;
			continue;
		}
		if (page_kind(mm, p) == PG_KIND_ALLOC && page_extra(mm, p) == MIGRATE_MOVABLE) {
			/* Every page of a movable folio is on the LRU. */
			int nr = 1 << page_order(mm, p);

			*num_movable += nr;
			p += nr;
			continue;
		}
		p++;
	}
	return true;
}

int move_freepages_block(struct zone *zone, pfn_t pfn, int old_mt, int new_mt)
{
	pfn_t start;
	int res;

	if (!prep_move_freepages_block(zone, pfn, &start, NULL, NULL))
		return -1;
	res = __move_freepages_block(zone, start, old_mt, new_mt);
	set_pageblock_migratetype(zmm(zone), start, new_mt);
	return res;
}

/* The pageblock's free blocks go to the MIGRATE_ISOLATE lists (isolate) or
 * back to the lists of its type; the type bits stay, only the isolate bit
 * changes.  false if the pageblock straddles the zone. */
static bool move_freepages_block_isolate(struct zone *zone, pfn_t pfn, bool isolate)
{
	uint16_t *f;
	pfn_t start;
	int mt;

	if (!prep_move_freepages_block(zone, pfn, &start, NULL, NULL))
		return false;
	f = &zmm(zone)->pb_flags[pfn_to_pb(start)];
	mt = *f & PB_MIGRATETYPE_MASK;
	if (isolate) {
		__move_freepages_block(zone, start, mt, MIGRATE_ISOLATE);
		*f |= PB_migrate_isolate;
	} else {
		__move_freepages_block(zone, start, MIGRATE_ISOLATE, mt);
		*f &= (uint16_t)~PB_migrate_isolate;
	}
	return true;
}

bool pageblock_isolate_and_move_free_pages(struct zone *zone, pfn_t pfn)
{
	return move_freepages_block_isolate(zone, pfn, true);
}

bool pageblock_unisolate_and_move_free_pages(struct zone *zone, pfn_t pfn)
{
	return move_freepages_block_isolate(zone, pfn, false);
}

/* boost_watermark(): upstream raises the watermark on every sub-pageblock
 * fallback so kswapd reclaims towards fewer future fallbacks. */
static bool boost_watermark(struct zone *zone)
{
	unsigned long max_boost;
	unsigned long factor = (unsigned long)zone->machine->watermark_boost_factor;
	unsigned long high = zone->_watermark[WMARK_HIGH];

	if (!factor)
		return false;
	if (pageblock_nr_pages * 4 > zone->managed_pages)
		return false;
	/* mult_frac(high, factor, 10000) */
	max_boost = (high / 10000) * factor + ((high % 10000) * factor) / 10000;
	if (!max_boost)
		return false;
	if (max_boost < pageblock_nr_pages)
		max_boost = pageblock_nr_pages;
	zone->watermark_boost += pageblock_nr_pages;
	if (zone->watermark_boost > max_boost)
		zone->watermark_boost = max_boost;
	return true;
}

bool should_try_claim_block(unsigned order, int start_mt)
{
	if (order >= pageblock_order)
		return true;
	if (order >= pageblock_order / 2)
		return true;
	/* Non-movable allocations would pollute a movable block for good, so
	 * they always try to take the whole block. */
	return start_mt == MIGRATE_RECLAIMABLE || start_mt == MIGRATE_UNMOVABLE;
}

int find_suitable_fallback(const struct free_area *area, unsigned order, int mt, bool claimable)
{
	if (claimable && !should_try_claim_block(order, mt))
		return FALLBACK_NOT_CLAIMABLE;
	if (area->nr_free == 0)
		return FALLBACK_NONE;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int fmt = fallbacks[mt][i];

		if (!free_area_empty(area, fmt))
			return fmt;
	}
	return FALLBACK_NONE;
}

pfn_t __try_to_claim_block(struct zone *zone, pfn_t pfn, int start_type, int block_type)
{
	int free_pages, movable_pages, alike_pages;
	pfn_t start_pfn;

	if (!prep_move_freepages_block(zone, pfn, &start_pfn, &free_pages, &movable_pages))
		return PFN_NONE;

	if (start_type == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (block_type == MIGRATE_MOVABLE)
		alike_pages = (int)pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;

	if (free_pages + alike_pages < (1 << (pageblock_order - 1)))
		return PFN_NONE;
	__move_freepages_block(zone, start_pfn, block_type, start_type);
	set_pageblock_migratetype(zmm(zone), start_pfn, start_type);
	return start_pfn;
}

pfn_t try_to_claim_block(struct zone *zone, pfn_t pfn, unsigned current_order, unsigned order,
			 int start_type, int block_type, unsigned alloc_flags)
{
	return zone->ops->try_to_claim_block(zone, pfn, current_order, order, start_type,
					     block_type, alloc_flags);
}

static pfn_t buddy_try_to_claim_block(struct zone *zone, pfn_t pfn, unsigned current_order,
				      unsigned order, int start_type, int block_type,
				      unsigned alloc_flags)
{
	if (current_order >= pageblock_order)
		return claim_whole_block(zone, pfn, current_order, order, start_type, block_type);
	if (boost_watermark(zone) && (alloc_flags & ALLOC_KSWAPD))
		zone->flags |= ZONE_BOOSTED_WATERMARK;
	if (__try_to_claim_block(zone, pfn, start_type, block_type) == PFN_NONE)
		return PFN_NONE;
	return __rmqueue_smallest(zone, order, start_type);
}

pfn_t __rmqueue_claim(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	return zone->ops->rmqueue_claim(zone, order, start_mt, alloc_flags);
}

static pfn_t buddy_rmqueue_claim(struct zone *zone, unsigned order, int start_mt,
				 unsigned alloc_flags)
{
	int min_order = (int)order;

	/* Under NOFRAGMENT only whole pageblocks may change hands; the caller
	 * retries the zonelist without it before fragmenting. */
	if (order < pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = pageblock_order;

	/* Largest first: approximates the block with the most free pages. */
	for (int o = MAX_PAGE_ORDER; o >= min_order; o--) {
		struct free_area *area = &zone->free_area[o];
		int fmt = find_suitable_fallback(area, (unsigned)o, start_mt, true);

		if (fmt == FALLBACK_NONE)
			continue;
		if (fmt == FALLBACK_NOT_CLAIMABLE)
			break;
		pfn_t pfn = area->free_list[fmt].head;
		pfn = try_to_claim_block(zone, pfn, (unsigned)o, order, start_mt, fmt, alloc_flags);
		if (pfn != PFN_NONE)
			return pfn;
	}
	return PFN_NONE;
}

pfn_t __rmqueue_steal(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	return zone->ops->rmqueue_steal(zone, order, start_mt, alloc_flags);
}

static pfn_t buddy_rmqueue_steal(struct zone *zone, unsigned order, int start_mt,
				 unsigned alloc_flags)
{
	(void)alloc_flags;
	for (unsigned o = order; o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &zone->free_area[o];
		int fmt = find_suitable_fallback(area, o, start_mt, false);

		if (fmt == FALLBACK_NONE)
			continue;
		pfn_t pfn = area->free_list[fmt].head;
		page_del_and_expand(zone, pfn, order, o, fmt);
		return pfn;
	}
	return PFN_NONE;
}

pfn_t __rmqueue(struct zone *zone, unsigned order, int mt, unsigned alloc_flags,
		enum rmqueue_mode *mode)
{
	pfn_t pfn;

	if ((alloc_flags & ALLOC_CMA) &&
	    zone_page_state(zone, NR_FREE_CMA_PAGES) > zone_page_state(zone, NR_FREE_PAGES) / 2) {
		pfn = __rmqueue_cma_fallback(zone, order);
		if (pfn != PFN_NONE)
			return pfn;
	}

	switch (*mode) {
	case RMQUEUE_NORMAL:
		pfn = __rmqueue_smallest(zone, order, mt);
		if (pfn != PFN_NONE)
			return pfn;
		/* fall through */
	case RMQUEUE_CMA:
		if (alloc_flags & ALLOC_CMA) {
			pfn = __rmqueue_cma_fallback(zone, order);
			if (pfn != PFN_NONE) {
				*mode = RMQUEUE_CMA;
				return pfn;
			}
		}
		/* fall through */
	case RMQUEUE_CLAIM:
		pfn = __rmqueue_claim(zone, order, mt, alloc_flags);
		if (pfn != PFN_NONE) {
			/* Claimed a block: later requests find it on their own list. */
			*mode = RMQUEUE_NORMAL;
			return pfn;
		}
		/* fall through */
	case RMQUEUE_STEAL:
		if (!(alloc_flags & ALLOC_NOFRAGMENT)) {
			pfn = __rmqueue_steal(zone, order, mt, alloc_flags);
			if (pfn != PFN_NONE) {
				*mode = RMQUEUE_STEAL;
				return pfn;
			}
		}
	}
	return PFN_NONE;
}

/* The plain buddy's pageblock steps: a pageblock freed whole, or merged
 * whole, belongs to no CPU any more (the per-cpu pageblock buddy's rule);
 * larger blocks are no CPU's either way. */
static int buddy_free_pageblocks(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	if (order == pageblock_order)
		clear_pcpblock_owner(zone->machine, pfn);
	return mt;
}

static int buddy_merged_pageblock(struct zone *zone, pfn_t pfn, int mt, unsigned orig_order)
{
	(void)orig_order;
	clear_pcpblock_owner(zone->machine, pfn);
	return mt;
}

static pfn_t buddy_first_free(struct zone *zone, unsigned order, int mt)
{
	return zone->free_area[order].free_list[mt].head;
}

const struct zone_ops buddy_zone_ops = {
	.add_to_free_list = buddy_add,
	.del_from_free_list = buddy_del,
	.move_to_free_list = buddy_move,
	.free_pageblocks = buddy_free_pageblocks,
	.merged_pageblock = buddy_merged_pageblock,
	.rmqueue_smallest = buddy_rmqueue_smallest,
	.try_to_claim_block = buddy_try_to_claim_block,
	.rmqueue_claim = buddy_rmqueue_claim,
	.rmqueue_steal = buddy_rmqueue_steal,
	.first_free = buddy_first_free,
	.check_free_list = check_zone_free_list,
};
