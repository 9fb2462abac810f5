/* The page cache, reduced to what the page allocator sees: file pages
 * allocated as the workload reads, kept on a per-node LRU, and reclaimed
 * oldest first by a simple kswapd when a zone falls below its low
 * watermark (mm/filemap.c, mm/vmscan.c). */
#ifndef MMSIM_PAGE_CACHE_H
#define MMSIM_PAGE_CACHE_H

#include "mm_env.h"
#include "mmzone.h"

#define SWAP_CLUSTER_MAX 32

/* The structures are made on the first page cached. */
void page_cache_init(struct machine *m);
void page_cache_destroy(struct machine *m);

/* filemap_alloc_folio(): one order-0 page for page index of file, on nid
 * (GFP_HIGHUSER_MOVABLE, the mapping's gfp for regular files), added at
 * the LRU's tail.  PFN_NONE if the allocator refuses. */
pfn_t page_cache_add(struct mm_ctx *ctx, struct machine *m, int nid, uint32_t file,
		     uint32_t index);
unsigned long page_cache_pages(const struct machine *m, int nid);
/* Whether pfn is a file page on its node's LRU. */
bool page_cache_on_lru(struct machine *m, pfn_t pfn);
/* Migration's LRU side: new takes old's place on the LRU, the same slot
 * when both are on one node (reclaim order unchanged; the kernel's
 * folio_add_lru would make it the youngest), else the youngest slot of
 * new's node.  false if old is not on an LRU. */
bool page_cache_replace(struct machine *m, pfn_t old, pfn_t new);

/* shrink_inactive_list() reduced: free up to nr of the node's oldest file
 * pages (clean: no writeback), in batches through the per-CPU lists;
 * counted as kswapd's or as direct reclaim. */
unsigned long shrink_page_cache(struct mm_ctx *ctx, struct machine *m, int nid,
				unsigned long nr, bool direct);
/* balance_pgdat() reduced: while a populated zone of the node is below its
 * high watermark and the node has file pages, reclaim SWAP_CLUSTER_MAX at
 * a time.  Returns pages reclaimed. */
unsigned long kswapd_balance(struct mm_ctx *ctx, struct machine *m, int nid);
/* A zone of the node is below its low watermark, or an allocation woke
 * kswapd for a high order: kswapd should run. */
bool pgdat_needs_kswapd(struct machine *m, int nid);
/* wakeup_kswapd(): from the allocation slow path, record the order and
 * zone kswapd balances for, unless the node is balanced for them; then a
 * request that cannot reclaim wakes kcompactd instead (free memory that
 * is only fragmented). */
void wakeup_kswapd(struct machine *m, struct zone *zone, gfp_t gfp, int order,
		   int highest_zoneidx);
/* kswapd_try_to_sleep(): kswapd done balancing clears the compaction skip
 * hints of the node and wakes kcompactd for the order it was woken for. */
void kswapd_try_to_sleep(struct machine *m, int nid);

#endif
