/* Page isolation (mm/page_isolation.c): the pageblocks of a range taken
 * out of the allocator (MIGRATE_ISOLATE) while alloc_contig_range empties
 * them.  A free page in an isolated pageblock sits on the isolate lists,
 * out of NR_FREE_PAGES; a page freed into one goes there too, never to a
 * per-CPU list (buddy.c, pcp.c).
 *
 * Ranges start and end on MAX_PAGE_ORDER blocks, so no free block
 * straddles their edges (the kernel splits such blocks in
 * isolate_single_pageblock; the model's only caller, alloc_contig_pages,
 * asks for 1 GiB-aligned ranges). */
#ifndef MMSIM_PAGE_ISOLATION_H
#define MMSIM_PAGE_ISOLATION_H

#include "mm_env.h"
#include "mmzone.h"

/* has_unmovable_pages(): the first pfn of [start, end) (one pageblock)
 * holding a page that is neither free nor on an LRU, or in ZONE_MOVABLE a
 * reserved page, PFN_NONE if none.  As in the kernel a pinned LRU page
 * passes here: it fails later, at migration. */
pfn_t has_unmovable_pages(struct machine *m, pfn_t start, pfn_t end);
/* start_isolate_page_range(): isolate every pageblock of [start, end) in
 * its zone; 0, or -MM_EBUSY with nothing left isolated and *fail_pfn the
 * pfn that refused (an unmovable page, or an already isolated pageblock). */
int start_isolate_page_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
			     pfn_t *fail_pfn);
void undo_isolate_page_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end);
/* test_pages_isolated(): every page of [start, end) is free in an isolated
 * pageblock; 0, or -MM_EBUSY and *fail_pfn the first that is not. */
int test_pages_isolated(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
			pfn_t *fail_pfn);

#endif
