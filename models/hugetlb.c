#include "hugetlb.h"
#include "mm_space.h"
#include "page_alloc.h"

pfn_t alloc_gigantic_folio(struct mm_ctx *ctx, struct machine *m, int nid,
			   struct migrate_stats *stats)
{
	uint32_t owner = make_owner(OWNER_KIND_HUGETLB, 0);

	for (unsigned n = 0; n < m->nr_nodes; n++) {
		pfn_t pfn;

		if (nid >= 0 && n != (unsigned)nid)
			continue;
		pfn = alloc_contig_pages(ctx, m, GIGANTIC_NR_PAGES, GFP_HIGHUSER, (int)n,
					 nodemask_of_node(n), owner, stats);
		if (pfn != PFN_NONE) {
			m->nr_gigantic++;
			return pfn;
		}
	}
	return PFN_NONE;
}

bool PageGigantic(struct machine *m, pfn_t pfn)
{
	return pfn < m->mm.nr_frames && !(pfn & (GIGANTIC_NR_PAGES - 1)) &&
	       page_kind(&m->mm, pfn) == PG_KIND_ALLOC && page_order(&m->mm, pfn) == MAX_PAGE_ORDER &&
	       page_owner(m, pfn) == make_owner(OWNER_KIND_HUGETLB, 0) &&
	       page_owner_offset(m, pfn) == 0;
}

int free_gigantic_folio(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	if (!PageGigantic(m, pfn))
		return -1;
	free_contig_range(ctx, m, pfn, GIGANTIC_NR_PAGES);
	m->nr_gigantic--;
	return 0;
}
