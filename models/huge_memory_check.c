/* The invariant checker's view of THPs (mm_space_check.c calls it): each
 * THP page where its record puts it, each record's mapped counts as the
 * page tables have them, and the deferred split queue holding exactly the
 * partly mapped ones. */
#include "huge_memory_internal.h"
#include "page_alloc.h"

const char *thp_check_page(struct machine *m, pfn_t pfn, unsigned pid, uint64_t addr)
{
	struct thp_folio *f = thp_folio_of(m, pfn);
	pfn_t block;

	if (!f)
		return "not a page of a THP";
	if (!mapper_count(f, pid) || f->haddr + ((uint64_t)(pfn - f->head) << PAGE_SHIFT) != addr)
		return "a page of another process's or another address's THP";
	block = pfn & ~((1u << MIN(f->order, (unsigned)MAX_PAGE_ORDER)) - 1);
	if (page_kind(&m->mm, block) != PG_KIND_ALLOC ||
	    page_owner(m, block) != make_owner(OWNER_KIND_ANON, f->pid) ||
	    page_owner_offset(m, block) != (uint32_t)((addr >> PAGE_SHIFT) - (pfn - block)))
		return "a THP page whose block's owner record is wrong";
	return NULL;
}

void thp_check_folios(struct machine *m, GString *out)
{
	GHashTableIter it;
	gpointer v;

	if (!m->thp_state)
		return;
	g_hash_table_iter_init(&it, m->thp_state->folios);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct thp_folio *f = v;
		guint nr = f->sharers ? f->sharers->len : 0;

		for (guint k = 0; k <= nr; k++) {
			unsigned pid = k ? g_array_index(f->sharers, struct thp_sharer, k - 1).pid :
				       f->pid;
			unsigned long c = *mapper_count(f, pid);
			struct mm_struct *mm = mm_find(m, pid);
			unsigned long n = mm ? piece_mapped(mm, f->head, f->order, f->haddr) : 0;

			if (n != c || !c)
				g_string_append_printf(out, "THP at pfn %u (pid %u): %lu pages mapped, "
						       "counted %lu\n", f->head, pid, n, c);
		}
		if (((f->mapped < (1UL << f->order)) && !f->sharers) != f->queued)
			g_string_append_printf(out, "THP at pfn %u (pid %u): %s the deferred split "
					       "queue with %lu of %lu pages mapped\n", f->head,
					       f->pid, f->queued ? "on" : "not on", f->mapped,
					       1UL << f->order);
	}
}
