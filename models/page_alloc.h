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
	nodemask_t nodemask;    /* the nodes allowed; NODE_MASK_NONE: all (the kernel's NULL) */
};

/* zref_in_nodemask(): whether the request may take pages from zone. */
static inline bool zone_in_nodemask(const struct alloc_context *ac, const struct zone *zone)
{
	return !ac->nodemask || node_isset(zone->node, ac->nodemask);
}

unsigned alloc_flags_nofragment(struct machine *m, struct zone *zone, gfp_t gfp);
unsigned gfp_to_alloc_flags(gfp_t gfp, unsigned order);
pfn_t get_page_from_freelist(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
			     unsigned alloc_flags, const struct alloc_context *ac);
/* unreserve_highatomic_pageblock(): in the request's zones, the first
 * free MIGRATE_HIGHATOMIC block (lowest order first) has its pageblock (or
 * itself, if larger) turned to the request's migratetype, the zone's
 * reserve shrinking by as much; a zone keeps its last reserved pageblock
 * unless force.  true if a block changed type. */
bool unreserve_highatomic_pageblock(struct mm_ctx *ctx, const struct alloc_context *ac,
				    bool force);
/* rmqueue(): the running CPU's pageset for pcp orders, else the buddy. */
pfn_t rmqueue(struct mm_ctx *ctx, struct zone *preferred, struct zone *zone, unsigned order,
	      unsigned alloc_flags, int mt);
/* __alloc_pages(): fast path at the low watermark, then the slow path:
 * kswapd woken and a pass at the min watermark, then (for requests that
 * may reclaim) direct reclaim of the page cache and direct compaction, in
 * the kernel's order, retried while they make progress. */
pfn_t __alloc_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
		    int preferred_nid, uint32_t owner, uint32_t offset);
/* __alloc_pages() restricted to the nodes of nodemask (NODE_MASK_NONE: all),
 * as a bind memory policy asks: preferred_nid's zonelist, the zones of
 * other nodes skipped; no fallback beyond them. */
pfn_t __alloc_pages_nodemask(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned order,
			     int preferred_nid, nodemask_t nodemask, uint32_t owner,
			     uint32_t offset);
/* prep_new_page(): the head of a block taken off the free lists records
 * its size, type and owner. */
void prep_new_page(struct machine *m, pfn_t pfn, unsigned order, int mt, uint32_t owner,
		   uint32_t offset);
/* split_page(): the allocated block of order at pfn becomes blocks of
 * new_order with its type and owner, each owner offset advanced by the
 * pages before it (the virtual page number, for an anonymous page). */
void split_page(struct machine *m, pfn_t pfn, unsigned order, unsigned new_order);
/* __free_pages(): 0, or -1 if pfn is not the head of an allocated block
 * or was reserved at boot. */
int __free_pages(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
/* __isolate_free_page(): take the free block of order at pfn off its list
 * for a migration target or a contiguous range, zone->lock held: the
 * caller marks it allocated.  Outside isolated pageblocks only if the zone
 * stays above its min watermark.  Returns the pages taken, 0 if refused. */
unsigned long __isolate_free_page(struct zone *zone, pfn_t pfn, unsigned order);
/* free_one_page(): straight to the zone buddy under zone->lock. */
void free_one_page(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn, unsigned order,
		   unsigned fpi);

struct migrate_stats;
/* alloc_contig_range(): [start, end), MAX_PAGE_ORDER-aligned and inside one
 * zone, taken whole: its pageblocks isolated, its movable pages migrated
 * out (stats added to), its free pages taken; it becomes MAX_PAGE_ORDER
 * blocks of type mt owned by owner, offset = block index.  0, or
 * -MM_EBUSY with *fail_pfn (may be NULL) the pfn that could not be
 * isolated or freed (an unmovable or pinned page), -MM_ENOMEM if the
 * migration targets ran out, -MM_EINVAL for a bad range. */
int alloc_contig_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end, int mt,
		       uint32_t owner, struct migrate_stats *stats, pfn_t *fail_pfn);
void free_contig_range(struct mm_ctx *ctx, struct machine *m, pfn_t pfn, unsigned long nr_pages);
/* alloc_contig_pages(): with superpageblocks, first the ranges
 * spb_try_alloc_contig picks in each allowed zone; then the first
 * naturally aligned range of nr_pages (a power of two, MAX_PAGE_ORDER
 * blocks or more) that alloc_contig_range can take, zone by zone in node
 * nid's zonelist (nearest node first, highest zone first), lowest address
 * first.  The zones allowed: those gfp allows on the nodes of nodemask
 * (NODE_MASK_NONE: all).  A gfp without __GFP_DIRECT_RECLAIM may not
 * migrate (alloc_contig_range sleeps): only a range with no page
 * allocated is taken, and superpageblocks are not consulted.  PFN_NONE if
 * none. */
pfn_t alloc_contig_pages(struct mm_ctx *ctx, struct machine *m, unsigned long nr_pages, gfp_t gfp,
			 int nid, nodemask_t nodemask, uint32_t owner, struct migrate_stats *stats);

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
