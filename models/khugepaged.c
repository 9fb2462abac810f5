/* khugepaged's scan (mm/khugepaged.c: khugepaged_scan_mm_slot,
 * hpage_collapse_scan_pmd), 2 MiB only; see khugepaged.h. */
#include "khugepaged.h"
#include "huge_memory.h"
#include "mm_space_internal.h"

#define PMD_BYTES (1ULL << (PAGE_SHIFT + HPAGE_PMD_ORDER))

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
	while (left && laps < 2) {
		struct mm_struct *mm = mm_from(m, scan->pid);
		struct vm_area_struct *vma;
		uint64_t h;

		if (!mm) {
			/* The end of the list: the next pass starts again. */
			scan->pid = 0;
			scan->entered = false;
			laps++;
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

			h = (MAX(scan->addr, v->vm_start) + PMD_BYTES - 1) & ~(PMD_BYTES - 1);
			if (!v->dying && h + PMD_BYTES <= v->vm_end &&
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
		scan->addr = h + PMD_BYTES;
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
