/* The anonymous reverse map (mm/rmap.c): from a frame to the process and
 * address mapping it, and a migration's rewrite of those mappings. */
#include "mm_space_internal.h"
#include "page_alloc.h"

/* rmap_walk_anon: the owner record names the process and the virtual page;
 * the page table must map the frame there. */
bool rmap_walk_anon(struct machine *m, pfn_t pfn, struct mm_struct **mmp, uint64_t *addrp)
{
	struct mm_struct *mm;
	uint32_t owner;
	uint64_t addr;

	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
		return false;
	owner = page_owner(m, pfn);
	if (owner_kind(owner) != OWNER_KIND_ANON)
		return false;
	mm = mm_find(m, owner & OWNER_ID_MASK);
	addr = (uint64_t)page_owner_offset(m, pfn) << PAGE_SHIFT;
	if (!mm || follow_page(mm, addr) != pfn)
		return false;
	*mmp = mm;
	*addrp = addr;
	return true;
}

static bool replace_one(struct mm_struct *mm, uint64_t addr, pfn_t old, pfn_t new)
{
	struct pte_table *pt = mm ? pte_table_lookup(mm, addr) : NULL;
	unsigned i = level_index(addr, PGTABLE_PTE);

	if (!pt || pt->pte[i] != old)
		return false;
	pt->pte[i] = new;
	/* remove_migration_pte() maps the new page with the VMA's protection:
	 * a NUMA mark is gone, the last node goes with the folio. */
	if (pt->numa)
		pt->numa->protnone[i / 64] &= ~(1ULL << (i % 64));
	return true;
}

/* The page's other mappings (a fork shared it) move with it, and so does
 * its entry in the share table. */
bool rmap_replace_anon(struct mm_struct *mm, uint64_t addr, pfn_t old, pfn_t new)
{
	GHashTable *shared = mm->m->procs->shared;
	struct anon_share *sh;

	if (!replace_one(mm, addr, old, new))
		return false;
	sh = shared ? g_hash_table_lookup(shared, GUINT_TO_POINTER(old)) : NULL;
	if (!sh)
		return true;
	for (unsigned k = 0; k < sh->nr; k++) {
		bool moved = replace_one(mm_find(mm->m, sh->pid[k]), addr, old, new);

		g_assert(moved);
	}
	g_hash_table_steal(shared, GUINT_TO_POINTER(old));
	g_hash_table_insert(shared, GUINT_TO_POINTER(new), sh);
	return true;
}

