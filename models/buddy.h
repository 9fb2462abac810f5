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
pfn_t __rmqueue_smallest(struct zone *zone, unsigned order, int mt);
struct superpageblock;
/* __rmqueue_from_sb(): from one superpageblock's mt lists, order and up. */
pfn_t __rmqueue_from_sb(struct zone *zone, struct superpageblock *sb, unsigned order, int mt);
bool should_try_claim_block(unsigned order, int start_mt);
int find_suitable_fallback(const struct free_area *area, unsigned order, int mt, bool claimable);
pfn_t try_to_claim_block(struct zone *zone, pfn_t pfn, unsigned current_order, unsigned order,
			 int start_type, int block_type, unsigned alloc_flags);
pfn_t __rmqueue_claim(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags);
pfn_t __rmqueue_steal(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags);
pfn_t __rmqueue(struct zone *zone, unsigned order, int mt, unsigned alloc_flags,
		enum rmqueue_mode *mode);
/* move_freepages_block(): -1 if the pageblock straddles the zone. */
int move_freepages_block(struct zone *zone, pfn_t pfn, int old_mt, int new_mt);

static inline bool free_area_empty(const struct free_area *area, int mt)
{
	return area->free_list[mt].nr == 0;
}

#endif
