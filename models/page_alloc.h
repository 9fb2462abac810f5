/* The allocation entry points (mm/page_alloc.c: __alloc_pages,
 * get_page_from_freelist, rmqueue, __free_pages) and the owner record
 * every allocated block carries. */
#ifndef MMSIM_PAGE_ALLOC_H
#define MMSIM_PAGE_ALLOC_H

#include "mm_env.h"
#include "mmzone.h"

/* Owner ids name what holds an allocated block (an address space, or a
 * kernel allocation source); the offset is the owner's index for it, e.g.
 * a virtual page number.  OWNER_NONE marks anonymous test allocations. */
#define OWNER_NONE 0u

struct alloc_context {
	struct zone **zonelist;
	unsigned nr_zones;
	struct zone *preferred_zone;
	int highest_zoneidx;
	int migratetype;
};

unsigned alloc_flags_nofragment(struct machine *m, struct zone *zone, gfp_t gfp);
unsigned gfp_to_alloc_flags(gfp_t gfp, unsigned order);
pfn_t get_page_from_freelist(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
			     unsigned alloc_flags, const struct alloc_context *ac);
/* rmqueue(): the running CPU's pageset for pcp orders, else the buddy. */
pfn_t rmqueue(struct mm_ctx *ctx, struct zone *preferred, struct zone *zone, unsigned order,
	      unsigned alloc_flags, int mt);
/* __alloc_pages(): fast path at the low watermark, then the slow path's
 * second pass at the min watermark, then (for requests that may reclaim)
 * direct reclaim of the page cache.  Compaction is not modelled yet. */
pfn_t __alloc_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
		    int preferred_nid, uint32_t owner, uint32_t offset);
/* __free_pages(): 0, or -1 if pfn is not the head of an allocated block. */
int __free_pages(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
/* free_one_page(): straight to the zone buddy under zone->lock. */
void free_one_page(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn, unsigned order,
		   unsigned fpi);

/* The owner record of the allocated block starting at pfn. */
static inline uint32_t page_owner(struct machine *m, pfn_t pfn)
{
	return *block_word_a(&m->mm, pfn, page_order(&m->mm, pfn));
}

static inline uint32_t page_owner_offset(struct machine *m, pfn_t pfn)
{
	return *block_word_b(&m->mm, pfn, page_order(&m->mm, pfn));
}

#endif
