/* The zone buddy allocator (mm/page_alloc.c): free lists, merging on free,
 * splitting on allocation and the migratetype fallback paths.  Callers
 * hold the zone lock. */
#ifndef MMSIM_BUDDY_H
#define MMSIM_BUDDY_H

#include "mmzone.h"

/* enum rmqueue_mode: where __rmqueue resumes inside one rmqueue_bulk. */
enum rmqueue_mode { RMQUEUE_NORMAL, RMQUEUE_CMA, RMQUEUE_CLAIM, RMQUEUE_STEAL };

extern const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1];

void account_freepages(struct zone *zone, long nr_pages, int mt);
/* del_page_from_free_list(): unlink a free block, with accounting. */
void del_page_from_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt);
/* __free_one_page() */
void __free_one_page(struct zone *zone, pfn_t pfn, unsigned order, int mt, unsigned fpi);
/* split_large_buddy(): free a block that may span pageblocks, one pageblock
 * at a time with each pageblock's own migratetype. */
void split_large_buddy(struct zone *zone, pfn_t pfn, unsigned order, unsigned fpi);
/* expand(): queue the upper halves of a split at the list heads. */
unsigned expand(struct zone *zone, pfn_t pfn, unsigned low, unsigned high, int mt);
void page_del_and_expand(struct zone *zone, pfn_t pfn, unsigned low, unsigned high, int mt);
/* rmqueue_first_free(): the first block of order from..MAX_PAGE_ORDER on
 * the mt lists of areas (a zone's free_area[] or a superpageblock's),
 * taken and split down to order; PFN_NONE if there is none.  Inline: the
 * superpageblock passes run it once per superpageblock they visit. */
static inline pfn_t rmqueue_first_free(struct zone *zone, struct free_area *areas,
				       unsigned order, unsigned from, int mt)
{
	for (unsigned o = from; o < NR_PAGE_ORDERS; o++) {
		pfn_t pfn = areas[o].free_list[mt].head;

		if (pfn == PFN_NONE)
			continue;
		page_del_and_expand(zone, pfn, order, o, mt);
		return pfn;
	}
	return PFN_NONE;
}
pfn_t __rmqueue_smallest(struct zone *zone, unsigned order, int mt);
/* should_try_claim_block(): whether a fallback of this order, for start_mt,
 * should take the whole pageblock rather than steal one block. */
bool should_try_claim_block(unsigned order, int start_mt);

#define FALLBACK_NONE (-1)           /* no fallback type has a block of this order */
#define FALLBACK_NOT_CLAIMABLE (-2)  /* claimable search: no smaller order may claim either */
/* find_suitable_fallback(): the first of mt's fallback types with a block on
 * area's lists, or FALLBACK_NONE; with claimable, FALLBACK_NOT_CLAIMABLE
 * first if this order should not claim, which ends a largest-first search. */
int find_suitable_fallback(const struct free_area *area, unsigned order, int mt, bool claimable);
/* claim_whole_block(): the free block of current_order at pfn, pageblock
 * order or more, becomes new_mt whole (from old_mt's lists) and is split
 * down to order; returns pfn. */
pfn_t claim_whole_block(struct zone *zone, pfn_t pfn, unsigned current_order, unsigned order,
			int new_mt, int old_mt);
/* __try_to_claim_block(): relabels pfn's pageblock start_type, its free
 * blocks moving lists with it, when free pages and pages alike to
 * start_type make half of it; returns the pageblock's first pfn, PFN_NONE
 * if it stays block_type. */
pfn_t __try_to_claim_block(struct zone *zone, pfn_t pfn, int start_type, int block_type);
/* try_to_claim_block(): claim the pageblock of a fallback block of
 * current_order at pfn for start_type and allocate order from it; PFN_NONE
 * if the block is not claimed. */
pfn_t try_to_claim_block(struct zone *zone, pfn_t pfn, unsigned current_order, unsigned order,
			 int start_type, int block_type, unsigned alloc_flags);
pfn_t __rmqueue_claim(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags);
pfn_t __rmqueue_steal(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags);
pfn_t __rmqueue(struct zone *zone, unsigned order, int mt, unsigned alloc_flags,
		enum rmqueue_mode *mode);
/* move_to_free_list(): the free block of order at pfn moves from old_mt's
 * list to the tail of new_mt's, with the free counts. */
void move_to_free_list(struct zone *zone, pfn_t pfn, unsigned order, int old_mt, int new_mt);
/* move_freepages_block(): -1 if the pageblock straddles the zone. */
int move_freepages_block(struct zone *zone, pfn_t pfn, int old_mt, int new_mt);
/* The pageblock at pfn becomes MIGRATE_ISOLATE (its type kept beside the
 * isolate bit), its free blocks moving to the isolate lists and out of
 * NR_FREE_PAGES; the unisolate twin undoes it.  false if the pageblock
 * straddles the zone. */
bool pageblock_isolate_and_move_free_pages(struct zone *zone, pfn_t pfn);
bool pageblock_unisolate_and_move_free_pages(struct zone *zone, pfn_t pfn);

static inline bool free_area_empty(const struct free_area *area, int mt)
{
	return area->free_list[mt].nr == 0;
}

#endif
