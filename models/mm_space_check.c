/* The address space checker (mm_check_invariants): VMAs, page tables,
 * owner records and counters agree with each other and with the memmap. */
#include "check_report.h"
#include "mm_space_internal.h"
#include "page_alloc.h"

struct check {
	struct mm_struct *mm;
	struct check_report r;
	unsigned long rss, lazy, tables, thp_pmd, thp_pud;
	/* For mm_check_all: shared order-0 page -> the mappings found, which
	 * anon_share_check compares with its sharers (looking each sharer's
	 * mapping up made the check quadratic in forked processes). */
	GHashTable *mappings;
};

static void G_GNUC_PRINTF(2, 3) fail(struct check *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	check_fail(&c->r, "pid %u: %s", c->mm->pid, msg);
	g_free(msg);
}

/* pfn must be an allocated order-0 block with this owner record. */
static void check_frame(struct check *c, pfn_t pfn, uint32_t owner, uint32_t offset,
			const char *what, uint64_t addr)
{
	struct machine *m = c->mm->m;

	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC ||
	    page_order(&m->mm, pfn) != 0) {
		fail(c, "%s at %#" G_GINT64_MODIFIER "x: pfn %u is not an allocated page", what,
		     addr, pfn);
		return;
	}
	if (page_owner(m, pfn) != owner || page_owner_offset(m, pfn) != offset)
		fail(c, "%s at %#" G_GINT64_MODIFIER "x: pfn %u owner %#x/%#x, expected %#x/%#x",
		     what, addr, pfn, page_owner(m, pfn), page_owner_offset(m, pfn), owner, offset);
}

static void check_vmas(struct check *c)
{
	struct mm_struct *mm = c->mm;
	unsigned live = 0;

	for (unsigned i = 0; i < mm->vmas->len; i++) {
		struct vm_area_struct *v = vma_at(mm, i);

		live += !v->dying;
		if (v->vm_start >= v->vm_end || ((v->vm_start | v->vm_end) & (PAGE_SIZE - 1)) ||
		    v->vm_start < MMAP_MIN_ADDR || v->vm_end > TASK_SIZE ||
		    (v->prot & ~(PROT_READ | PROT_WRITE)))
			fail(c, "bad VMA %u [%#" G_GINT64_MODIFIER "x, %#" G_GINT64_MODIFIER
			     "x) prot %d", i, v->vm_start, v->vm_end, v->prot);
		if (i && vma_at(mm, i - 1)->vm_end > v->vm_start)
			fail(c, "VMAs %u and %u overlap or are out of order", i - 1, i);
		else if (i && vma_at(mm, i - 1)->vm_end == v->vm_start &&
			 vma_at(mm, i - 1)->prot == v->prot && !vma_at(mm, i - 1)->dying && !v->dying &&
			 vma_at(mm, i - 1)->vm_flags == v->vm_flags &&
			 mpol_equal(&vma_at(mm, i - 1)->policy, &v->policy))
			fail(c, "VMAs %u and %u should have been merged", i - 1, i);
	}
	if (live != mm->map_count)
		fail(c, "map_count %u, %u live VMAs", mm->map_count, live);
}

static void check_pte_table(struct check *c, struct pte_table *pt, uint64_t base)
{
	struct mm_struct *mm = c->mm;
	unsigned present = 0;

	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		uint64_t addr = base + (uint64_t)i * PAGE_SIZE;

		if (pt->pte[i] == PFN_NONE) {
			if (pte_lazyfree(pt, i))
				fail(c, "lazy-free mark on the empty entry %#" G_GINT64_MODIFIER "x",
				     addr);
			continue;
		}
		present++;
		c->lazy += pte_lazyfree(pt, i);
		if (!range_has_vma(mm, addr, addr + PAGE_SIZE))
			fail(c, "page mapped at %#" G_GINT64_MODIFIER "x outside every VMA", addr);
		if (pt->pte[i] < mm->m->mm.nr_frames &&
		    (page_kind(&mm->m->mm, pt->pte[i]) != PG_KIND_ALLOC ||
		     page_order(&mm->m->mm, pt->pte[i]) != 0)) {
			const char *why = thp_check_page(mm->m, pt->pte[i], mm->pid, addr);

			if (why)
				fail(c, "page at %#" G_GINT64_MODIFIER "x: pfn %u is %s", addr,
				     pt->pte[i], why);
		} else {
			/* A page a fork shared may name another mapper. */
			uint32_t owner = anon_share_has(mm->m, pt->pte[i], mm->pid) ?
					 page_owner(mm->m, pt->pte[i]) :
					 make_owner(OWNER_KIND_ANON, mm->pid);

			if (c->mappings && anon_mapped_shared(mm->m, pt->pte[i])) {
				gpointer k = GUINT_TO_POINTER(pt->pte[i]);

				g_hash_table_insert(c->mappings, k, GUINT_TO_POINTER(
					GPOINTER_TO_UINT(g_hash_table_lookup(c->mappings, k)) + 1));
			}

			check_frame(c, pt->pte[i], owner, (uint32_t)(addr >> PAGE_SHIFT), "page",
				    addr);
		}
		if (!pte_wrprotected(pt, i) && anon_mapped_shared(mm->m, pt->pte[i]))
			fail(c, "page at %#" G_GINT64_MODIFIER "x is shared and writable", addr);
		if (pt->huge && pt->pte[i] != pt->pte[0] + i)
			fail(c, "PMD mapping at %#" G_GINT64_MODIFIER "x: entry %u is not its "
			     "folio's page", base, i);
	}
	for (unsigned w = 0; w < PTRS_PER_TABLE / 64; w++)
		if (pt->huge && pt->wrprotect[w] != pt->wrprotect[0])
			fail(c, "PMD mapping at %#" G_GINT64_MODIFIER "x is write-protected in part",
			     base);
	if (pt->huge && present != PTRS_PER_TABLE)
		fail(c, "PMD mapping at %#" G_GINT64_MODIFIER "x maps %u pages", base, present);
	if (present != pt->nr_present)
		fail(c, "PTE table at %#" G_GINT64_MODIFIER "x counts %u present, holds %u", base,
		     pt->nr_present, present);
	c->rss += present;
}

/* A table of this level mapping from base, and everything below it;
 * under_pud: inside a PUD mapping. */
static void check_table(struct check *c, void *t, int level, uint64_t base, bool under_pud)
{
	struct mm_struct *mm = c->mm;
	uint64_t span = level_span(level);
	struct pt_dir *dir = t;
	pfn_t page = level == PGTABLE_PTE ? ((struct pte_table *)t)->page : dir->page;
	bool huge = level == PGTABLE_PTE ? ((struct pte_table *)t)->huge :
		    level == PGTABLE_PMD && dir->huge;
	unsigned nr = 0;

	if (under_pud && !huge)
		fail(c, "table at %#" G_GINT64_MODIFIER "x inside a PUD mapping is not huge", base);
	if (level == PGTABLE_PTE && huge && !under_pud)
		c->thp_pmd++;
	if (level == PGTABLE_PMD && huge)
		c->thp_pud++;
	/* A huge mapping lies inside one VMA: a VMA edge across it (an
	 * mbind, mprotect or madvise that did not split it) is caught here. */
	if (huge && !under_pud) {
		const struct vm_area_struct *v = find_live_vma(mm, base);

		if (!v || v->vm_start > base || v->vm_end < base + span)
			fail(c, "%s mapping at %#" G_GINT64_MODIFIER "x is not inside one VMA",
			     level == PGTABLE_PMD ? "PUD" : "PMD", base);
	}
	/* A THP's table without a deposit has no frame. */
	if (!(huge && page == PFN_NONE)) {
		c->tables++;
		check_frame(c, page, make_owner(OWNER_KIND_PGTABLE, mm->pid),
			    pgtable_offset(level, base), "page table", base);
	}
	if (level != PGTABLE_PGD && !range_has_vma(mm, base, base + span))
		fail(c, "level %d table at %#" G_GINT64_MODIFIER "x kept without a VMA", level,
		     base);
	if (level == PGTABLE_PTE) {
		check_pte_table(c, t, base);
		return;
	}
	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		if (!dir->entry[i])
			continue;
		nr++;
		check_table(c, dir->entry[i], level - 1, base + i * level_entry_size(level), huge);
	}
	if (nr != dir->nr)
		fail(c, "level %d table at %#" G_GINT64_MODIFIER "x counts %u entries, holds %u",
		     level, base, dir->nr, nr);
}

static char *check_space(struct mm_struct *mm, GHashTable *mappings)
{
	struct check c = { .mm = mm, .r = { .s = g_string_new(NULL) }, .mappings = mappings };

	check_vmas(&c);
	check_table(&c, mm->pgd, PGTABLE_PGD, 0, false);
	if (c.rss != mm->rss || c.lazy != mm->nr_lazyfree || c.tables != mm->nr_pgtables)
		fail(&c, "counters rss %lu lazyfree %lu pgtables %lu, tables hold %lu %lu %lu",
		     mm->rss, mm->nr_lazyfree, mm->nr_pgtables, c.rss, c.lazy, c.tables);
	if (c.thp_pmd != mm->nr_thp_pmd || c.thp_pud != mm->nr_thp_pud)
		fail(&c, "THP mappings counted %lu PMD %lu PUD, tables hold %lu %lu",
		     mm->nr_thp_pmd, mm->nr_thp_pud, c.thp_pmd, c.thp_pud);
	return check_report_finish(&c.r);
}

char *mm_check_invariants(struct mm_struct *mm)
{
	return check_space(mm, NULL);
}

struct check_all {
	GString *out;
	GHashTable *mappings;
};

static gboolean check_one(gpointer key, gpointer value, gpointer data)
{
	struct check_all *a = data;
	char *r;

	(void)key;
	if (fatal_signal_pending())
		return TRUE;
	r = check_space(value, a->mappings);
	if (r) {
		g_string_append(a->out, r);
		g_free(r);
	}
	return FALSE;
}

char *mm_check_all(struct machine *m)
{
	struct check_all a = { g_string_new(NULL), g_hash_table_new(g_direct_hash, g_direct_equal) };
	GString *out = a.out;

	if (m->procs)
		g_tree_foreach(m->procs->by_pid, check_one, &a);
	anon_share_check(m, a.mappings, out);
	g_hash_table_destroy(a.mappings);
	thp_check_folios(m, out);
	return g_string_free(out, out->len == 0);
}
