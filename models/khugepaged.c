/* khugepaged's scan (mm/khugepaged.c: khugepaged_scan_mm_slot,
 * hpage_collapse_scan_pmd), 2 MiB only, see khugepaged.h; and the
 * collapse it and madvise(MADV_COLLAPSE) do, at 2 MiB and 1 GiB
 * (collapse_huge_page, madvise_collapse). */
#include "khugepaged.h"
#include "huge_memory.h"
#include "mm_space_internal.h"
#include "page_alloc.h"

/* The next process from pid on, in pid order, or NULL. */
static struct mm_struct *mm_from(struct machine *m, unsigned pid)
{
	struct mm_struct *found = NULL;
	GTreeNode *node;

	if (!m->procs)
		return NULL;
	node = g_tree_lower_bound(m->procs->by_pid, GUINT_TO_POINTER(pid));
	if (node)
		found = g_tree_node_value(node);
	return found;
}

/* hpage_collapse_scan_pmd(): whether the block at h is worth a collapse. */
static bool scan_pmd(struct mm_struct *mm, uint64_t h, unsigned max_ptes_none)
{
	struct pte_table *pt = pte_table_lookup(mm, h);
	struct machine *m = mm->m;
	unsigned shared = 0;

	if (!pt || pt->huge || !pt->nr_present ||
	    (unsigned)(PTRS_PER_TABLE - pt->nr_present) > max_ptes_none)
		return false;
	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		pfn_t p = pt->pte[i];

		if (p != PFN_NONE && (page_kind(&m->mm, p) != PG_KIND_ALLOC ||
				      page_order(&m->mm, p) != 0))
			return false;
		if (p != PFN_NONE && anon_mapped_shared(m, p) &&
		    ++shared > KHUGEPAGED_MAX_PTES_SHARED)
			return false;
	}
	return true;
}

void khugepaged_do_scan(struct mm_ctx *ctx, struct machine *m, unsigned long pages_to_scan,
			unsigned max_ptes_none, struct khugepaged_result *r)
{
	struct khugepaged_scan *scan = m->khugepaged;
	unsigned long left = pages_to_scan;
	unsigned laps = 0;

	if (!scan)
		scan = m->khugepaged = g_new0(struct khugepaged_scan, 1);
	while (left) {
		struct mm_struct *mm;
		struct vm_area_struct *vma;
		uint64_t h;

		/* At the head of the list (pass_through_head): a call that
		 * starts there makes one pass, one that starts inside the
		 * list finishes it and makes one more. */
		if (!scan->pid && !scan->entered && ++laps == 2)
			break;
		mm = mm_from(m, scan->pid);
		if (!mm) {
			/* The end of the list: back to its head. */
			scan->pid = 0;
			scan->entered = false;
			continue;
		}
		if (!scan->entered || mm->pid != scan->pid) {
			/* A new process: from its lowest address, once its
			 * mmap_lock lets a reader in. */
			scan->pid = mm->pid;
			scan->addr = 0;
			scan->entered = true;
			mmap_read_lock_entry(ctx, mm, SITE_LOCK_MM_AND_FIND_VMA);
			continue;
		}
		vma = NULL;
		for (unsigned i = vma_lower_bound(mm, scan->addr); i < mm->vmas->len; i++) {
			struct vm_area_struct *v = vma_at(mm, i);

			h = (MAX(scan->addr, v->vm_start) + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
			if (!v->dying && h + PMD_SIZE <= v->vm_end &&
			    thp_vma_allowable(m, v, THP_PMD)) {
				vma = v;
				break;
			}
		}
		if (!vma) {
			scan->pid = mm->pid + 1;
			scan->entered = false;
			continue;
		}
		scan->addr = h + PMD_SIZE;
		left -= MIN(left, HPAGE_PMD_NR);
		r->scanned += HPAGE_PMD_NR;
		mm_charge(ctx, COST_PTE, PTRS_PER_TABLE);
		if (!scan_pmd(mm, h, max_ptes_none))
			continue;
		if (collapse_huge_page(ctx, mm, h) == 0)
			r->collapsed++;
		else
			r->failed++;
	}
}

/* collapse_huge_page()'s install, with no engine call: the PTE table at
 * haddr, still the one snapshot was taken of and holding the same pages,
 * becomes the PMD mapping of folio (its frame the deposit, or given back
 * through *old_table).  false if anything changed meanwhile. */
static bool collapse_install(struct mm_struct *mm, uint64_t haddr, struct pte_table *pt,
			     const pfn_t *snapshot, pfn_t folio, pfn_t *old_table)
{
	struct vm_area_struct *vma = find_live_vma(mm, haddr);

	if (!vma || vma->vm_end < haddr + PMD_SIZE || pte_table_lookup(mm, haddr) != pt ||
	    pt->huge || memcmp(pt->pte, snapshot, sizeof(pt->pte)))
		return false;
	mm->nr_lazyfree -= lazyfree_count(pt);
	memset(pt->lazyfree, 0, sizeof(pt->lazyfree));
	memset(pt->wrprotect, 0, sizeof(pt->wrprotect));
	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		pt->pte[i] = folio + i;
		pte_numa_reset(pt, i);
	}
	mm->rss += PTRS_PER_TABLE - pt->nr_present;
	pt->nr_present = PTRS_PER_TABLE;
	pt->huge = true;
	*old_table = PFN_NONE;
	if (mm->m->thp_opts.deposit == THP_DEPOSIT_NONE) {
		*old_table = pt->page;
		pt->page = PFN_NONE;
		mm->nr_pgtables--;
	}
	mm->nr_thp_pmd++;
	thp_folio_mapped(mm, folio, HPAGE_PMD_ORDER, haddr);
	return true;
}

int collapse_huge_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t haddr)
{
	struct machine *m = mm->m;
	const gfp_t gfp = GFP_TRANSHUGE;
	struct pte_table *pt = pte_table_lookup(mm, haddr);
	pfn_t snapshot[PTRS_PER_TABLE], old[PTRS_PER_TABLE], folio, old_table;
	unsigned present = 0, to_free;

	if (!pt || pt->huge)
		return 1;
	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		pfn_t p = pt->pte[i];

		if (p != PFN_NONE && (page_kind(&m->mm, p) != PG_KIND_ALLOC ||
				      page_order(&m->mm, p) != 0))
			return -MM_EAGAIN;
		if (p != PFN_NONE)
			old[present++] = p;
	}
	memcpy(snapshot, pt->pte, sizeof(snapshot));
	folio = alloc_pages_mpol(ctx, mm, gfp, HPAGE_PMD_ORDER, haddr,
				 make_owner(OWNER_KIND_ANON, mm->pid),
				 (uint32_t)(haddr >> PAGE_SHIFT));
	if (folio == PFN_NONE)
		return -MM_ENOMEM;
	mm_charge(ctx, COST_MIGRATE_COPY, present);
	/* The holes, one 4 KiB page at a time (__collapse_huge_page_copy). */
	mm_charge(ctx, COST_ZERO_PAGE, PTRS_PER_TABLE - present);
	if (!collapse_install(mm, haddr, pte_table_lookup(mm, haddr), snapshot, folio,
			      &old_table)) {
		__free_pages(ctx, m, folio);
		return -MM_EAGAIN;
	}
	/* Pages a fork shared stay with the other processes. */
	to_free = anon_unshare_pages(m, mm->pid, old, present);
	m->vm_events[THP_COLLAPSE_ALLOC]++;
	mm_charge(ctx, COST_PTE, present + 1);
	mm_charge(ctx, COST_TLB_FLUSH, 1);
	for (unsigned i = 0; i < to_free; i += FOLIO_BATCH_SIZE)
		folios_put_refs(ctx, m, old + i, MIN(FOLIO_BATCH_SIZE, to_free - i));
	if (old_table != PFN_NONE)
		__free_pages(ctx, m, old_table);
	return 0;
}

/* The present pages of the gigabyte under pmd, into old (NULL: only
 * counted), or -1 if one is a THP's or a table is huge. */
static long pud_present(struct machine *m, const struct pt_dir *pmd, pfn_t *old)
{
	long n = 0;

	for (unsigned j = 0; j < PTRS_PER_TABLE; j++) {
		const struct pte_table *pt = pmd->entry[j];

		for (unsigned i = 0; pt && i < PTRS_PER_TABLE; i++) {
			pfn_t p = pt->pte[i];

			if (pt->huge || (p != PFN_NONE && (page_kind(&m->mm, p) != PG_KIND_ALLOC ||
							   page_order(&m->mm, p) != 0)))
				return -1;
			if (p != PFN_NONE && old)
				old[n] = p;
			n += p != PFN_NONE;
		}
	}
	return n;
}

/* The gigabyte's install, with no engine call: the PMD table (the same
 * one, holding the same pages) becomes the PUD mapping of folio; the
 * tables the deposit keeps stay as deposits, missing PTE tables take the
 * frames of fresh (PFN_NONE if the deposit keeps none), the others' frames
 * go to *drop.  false if anything changed meanwhile. */
static bool collapse_pud_install(struct mm_struct *mm, uint64_t haddr, struct pt_dir *pmd,
				 const pfn_t *snapshot, pfn_t folio, const pfn_t *fresh,
				 GArray *drop)
{
	struct machine *m = mm->m;
	struct vm_area_struct *vma = find_live_vma(mm, haddr);
	enum thp_deposit deposit = m->thp_opts.deposit;
	long present = 0;

	if (!vma || vma->vm_end < haddr + PUD_SIZE || pud_entry(mm, haddr) != pmd || pmd->huge)
		return false;
	for (unsigned j = 0; j < PTRS_PER_TABLE; j++) {
		const struct pte_table *pt = pmd->entry[j];

		for (unsigned i = 0; i < PTRS_PER_TABLE; i++)
			if ((pt ? pt->pte[i] : PFN_NONE) != snapshot[j * PTRS_PER_TABLE + i])
				return false;
	}
	for (unsigned j = 0; j < PTRS_PER_TABLE; j++) {
		struct pte_table *pt = pmd->entry[j];

		if (!pt) {
			pt = pmd->entry[j] = pte_table_new(fresh[j]);
			pmd->nr++;
			mm->nr_pgtables += fresh[j] != PFN_NONE;
		} else if (deposit != THP_DEPOSIT_FULL) {
			g_array_append_val(drop, pt->page);
			pt->page = PFN_NONE;
			mm->nr_pgtables--;
		}
		present += pt->nr_present;
		mm->nr_lazyfree -= lazyfree_count(pt);
		memset(pt->lazyfree, 0, sizeof(pt->lazyfree));
		memset(pt->wrprotect, 0, sizeof(pt->wrprotect));
		for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
			pt->pte[i] = folio + j * PTRS_PER_TABLE + i;
			pte_numa_reset(pt, i);
		}
		pt->nr_present = PTRS_PER_TABLE;
		pt->huge = true;
	}
	if (deposit == THP_DEPOSIT_NONE) {
		g_array_append_val(drop, pmd->page);
		pmd->page = PFN_NONE;
		mm->nr_pgtables--;
	}
	pmd->huge = true;
	mm->rss += HPAGE_PUD_NR - (unsigned long)present;
	mm->nr_thp_pud++;
	thp_folio_mapped(mm, folio, HPAGE_PUD_ORDER, haddr);
	return true;
}

/* collapse to 1 GiB (the RFC's MADV_COLLAPSE for PUD THPs): the present
 * 4 KiB pages of the gigabyte copied into a new 1 GiB folio, the rest
 * zeroed; the PMD table becomes the PUD mapping.  0, 1 if there was
 * nothing to collapse, -MM_ENOMEM or -MM_EAGAIN. */
static int collapse_pud(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t haddr)
{
	struct machine *m = mm->m;
	struct pt_dir *pmd = pud_entry(mm, haddr);
	pfn_t *snapshot, *old, fresh[PTRS_PER_TABLE], folio;
	GArray *drop;
	long present;
	int ret = 0;

	if (!pmd || pmd->huge)
		return 1;
	present = pud_present(m, pmd, NULL);
	if (present < 0)
		return -MM_EAGAIN;
	snapshot = g_new(pfn_t, HPAGE_PUD_NR);
	old = g_new(pfn_t, present ? present : 1);
	pud_present(m, pmd, old);
	for (unsigned j = 0; j < PTRS_PER_TABLE; j++) {
		const struct pte_table *pt = pmd->entry[j];

		for (unsigned i = 0; i < PTRS_PER_TABLE; i++)
			snapshot[j * PTRS_PER_TABLE + i] = pt ? pt->pte[i] : PFN_NONE;
		fresh[j] = PFN_NONE;
	}
	drop = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	folio = alloc_pud_folio(ctx, mm, haddr, GFP_TRANSHUGE,
				HPAGE_PUD_NR - (unsigned long)present);
	for (unsigned j = 0; folio != PFN_NONE && m->thp_opts.deposit == THP_DEPOSIT_FULL &&
			     j < PTRS_PER_TABLE; j++) {
		if (pud_entry(mm, haddr) != pmd || pmd->entry[j])
			continue;
		fresh[j] = fault_alloc(ctx, mm, PGTABLE_PTE, haddr + j * PMD_SIZE);
		if (fresh[j] == PFN_NONE)
			ret = -MM_ENOMEM;
	}
	if (folio == PFN_NONE) {
		ret = -MM_ENOMEM;
	} else if (!ret && !collapse_pud_install(mm, haddr, pud_entry(mm, haddr), snapshot, folio,
						  fresh, drop)) {
		ret = -MM_EAGAIN;
	}
	if (ret) {
		for (unsigned j = 0; j < PTRS_PER_TABLE; j++)
			if (fresh[j] != PFN_NONE)
				__free_pages(ctx, m, fresh[j]);
		if (folio != PFN_NONE)
			free_contig_range(ctx, m, folio, HPAGE_PUD_NR);
	} else {
		long to_free = anon_unshare_pages(m, mm->pid, old, (unsigned)present);

		m->vm_events[THP_COLLAPSE_ALLOC]++;
		mm_charge(ctx, COST_MIGRATE_COPY, (unsigned long)present);
		mm_charge(ctx, COST_PTE, (unsigned long)present + 1);
		mm_charge(ctx, COST_TLB_FLUSH, 1);
		for (long i = 0; i < to_free; i += FOLIO_BATCH_SIZE)
			folios_put_refs(ctx, m, old + i, (unsigned)MIN(FOLIO_BATCH_SIZE, to_free - i));
		for (guint i = 0; i < drop->len; i++)
			__free_pages(ctx, m, g_array_index(drop, pfn_t, i));
	}
	g_array_free(drop, TRUE);
	g_free(old);
	g_free(snapshot);
	return ret;
}

int madvise_collapse(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	int ret = 0;

	/* 1 GiB first where that size is not "never": a gigabyte that
	 * cannot have one is collapsed in 2 MiB blocks below. */
	for (uint64_t h = (start + PUD_SIZE - 1) & ~(PUD_SIZE - 1);
	     mm->m->thp_opts.pud_enabled != THP_NEVER && h + PUD_SIZE <= end; h += PUD_SIZE) {
		struct vm_area_struct *vma = find_live_vma(mm, h);

		if (vma && vma->vm_end >= h + PUD_SIZE && !(vma->vm_flags & VM_NOHUGEPAGE))
			collapse_pud(ctx, mm, h);
	}
	for (uint64_t h = (start + PMD_SIZE - 1) & ~(PMD_SIZE - 1); h + PMD_SIZE <= end;
	     h += PMD_SIZE) {
		struct vm_area_struct *vma = find_live_vma(mm, h);
		int r;

		if (!vma || vma->vm_end < h + PMD_SIZE || (vma->vm_flags & VM_NOHUGEPAGE))
			continue;
		r = collapse_huge_page(ctx, mm, h);
		if (r < 0)
			ret = r;
	}
	return ret;
}
