/* Gigantic hugetlb pages (mm/hugetlb.c): 1 GiB pages taken with
 * alloc_contig_pages, as hugetlb gets them without CMA, and given back
 * with free_contig_range.  A gigantic page is held as 256 allocated
 * MAX_PAGE_ORDER blocks owned by OWNER_KIND_HUGETLB, offsets 0..255;
 * not movable (htlb_alloc_mask has no __GFP_MOVABLE for gigantic pages),
 * so pbstat and the memory map count it unmovable. */
#ifndef MMSIM_HUGETLB_H
#define MMSIM_HUGETLB_H

#include "mm_env.h"
#include "mmzone.h"

#define GIGANTIC_ORDER 18
#define GIGANTIC_NR_PAGES (1UL << GIGANTIC_ORDER)

struct migrate_stats;
/* alloc_gigantic_folio(): a 1 GiB page on node nid (-1: each node in
 * turn), from the first range alloc_contig_pages can take; PFN_NONE if
 * none.  Migration counts are added to stats (may be NULL). */
pfn_t alloc_gigantic_folio(struct mm_ctx *ctx, struct machine *m, int nid,
			   struct migrate_stats *stats);
/* Whether pfn is the first page of a gigantic page. */
bool PageGigantic(struct machine *m, pfn_t pfn);
/* free_gigantic_folio(): 0, or -1 if pfn is not the first page of one. */
int free_gigantic_folio(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);

#endif
