/* The page cache, reduced to what the page allocator sees: file pages
 * allocated as the workload reads, kept on a per-node LRU, and reclaimed
 * oldest first by kswapd once the allocator wakes it and by direct
 * reclaim (mm/filemap.c, mm/vmscan.c). */
#ifndef MMSIM_PAGE_CACHE_H
#define MMSIM_PAGE_CACHE_H

#include "mm_env.h"
#include "mmzone.h"

#define SWAP_CLUSTER_MAX 32
/* Reclaim's first priority: a pass at priority p scans 1/2^p of the LRU. */
#define DEF_PRIORITY 12

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

/* reclaim_clean_pages_from_list(): of the nr pages at pfns, isolated for
 * migration, the clean page-cache ones (every file page of the model: no
 * dirty page, none mapped) are freed instead, as shrink_folio_list frees
 * them (COST_RECLAIM_UNMAP each, through the per-CPU lists); the others
 * stay at the front of pfns, in order.  Returns how many were freed. */
unsigned reclaim_clean_pages_from_list(struct mm_ctx *ctx, struct machine *m, pfn_t *pfns,
				       unsigned nr);

/* shrink_node() at priority, reduced to shrink_inactive_list(): free up
 * to nr of the node's oldest file pages (clean: no writeback), in batches
 * through the per-CPU lists, each page charged a scan and an unmap
 * (COST_RECLAIM_*); counted as kswapd's or as direct reclaim.  The
 * shrinkers run with it at the same priority (shrink_slab, the THP
 * deferred split); the pages their splits free count in the value
 * returned. */
unsigned long shrink_page_cache(struct mm_ctx *ctx, struct machine *m, int nid,
				unsigned long nr, bool direct, int priority);
/* try_to_free_pages() for an allocation of order from node nid's zones
 * up to highest_zoneidx: passes from DEF_PRIORITY down to 0, each
 * reclaiming the node's LRU >> priority pages or what is left of
 * SWAP_CLUSTER_MAX if less, until SWAP_CLUSTER_MAX are reclaimed.  A
 * costly order stops before a pass once a zone is compaction_ready, and
 * reclaim for compaction goes on within a pass until a zone could compact
 * (should_continue_reclaim).  Pages reclaimed. */
unsigned long do_try_to_free_pages(struct mm_ctx *ctx, struct machine *m, int nid, int order,
				   int highest_zoneidx);
/* drop_slab() (2 written to /proc/sys/vm/drop_caches): every node's
 * shrinkers asked for all their objects (the THP deferred split queue
 * split, unused dentries and inodes pruned), in rounds while a round frees
 * more than the last allows (mm/vmscan.c's `freed >> shift++ > 1`).
 * Objects and split folios' freed pages, summed. */
unsigned long drop_slab(struct mm_ctx *ctx, struct machine *m);
/* kswapd gives up on a node after this many passes that reclaimed nothing,
 * until reclaim makes progress there again; so does the allocator's slow
 * path after this many reclaim rounds. */
#define MAX_RECLAIM_RETRIES 16

/* wakeup_kswapd(): from the allocator (the slow path's wake_all_kswapds, or
 * rmqueue() finding a boosted watermark), record the order and zone kswapd
 * balances for and wake it (pgdat->kswapd_wake), unless the node is
 * balanced for them and not boosted, or hopeless; then a request that
 * cannot reclaim wakes kcompactd instead (free memory that is only
 * fragmented). */
void wakeup_kswapd(struct machine *m, struct zone *zone, gfp_t gfp, int order,
		   int highest_zoneidx);
/* balance_pgdat() reduced to the page cache: while no zone up to
 * highest_zoneidx meets its high watermark at order, or while a watermark
 * boost is still to be reclaimed, reclaim the LRU >> priority pages, from
 * DEF_PRIORITY down to 1, lowering the priority after a pass that fell
 * short of the zones' high watermarks; a balance_pgdat that reclaims
 * nothing counts as a failure.  Then the zones'
 * boosts (as they were when it started) are taken back and, if there were
 * any, kcompactd is woken for pageblock_order.  Returns the order it
 * finished at (0 once twice the request was reclaimed). */
int balance_pgdat(struct mm_ctx *ctx, struct machine *m, int nid, int order, int highest_zoneidx);
/* kswapd_try_to_sleep() reduced: if the node is balanced at reclaim_order
 * (or hopeless), clear compaction's skip hints, wake kcompactd for
 * alloc_order and return true (kswapd sleeps); false if it must go on. */
bool kswapd_try_to_sleep(struct machine *m, int nid, int alloc_order, int reclaim_order,
			 int highest_zoneidx);
/* One turn of the kswapd thread (mm/vmscan.c kswapd()) once woken: take
 * the order and zone the wakers recorded, balance_pgdat(), try to sleep;
 * a node it could not balance leaves it woken for another turn. */
void kswapd(struct mm_ctx *ctx, struct machine *m, int nid);
/* The kswapd thread of the node of the CPU it runs on (an engine's kernel
 * thread, machine_boot): it sleeps until wakeup_kswapd wakes it, then
 * does kswapd() turns.  The engine has no wait queues: the wait is a
 * check of the wake flag every m->kswapd_interval, which bounds how late
 * it wakes. */
void kswapd_thread(struct mm_ctx *ctx, void *arg);

#endif
