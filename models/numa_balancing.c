/* Automatic NUMA balancing: the scanner (task_numa_work, change_prot_numa),
 * its period (task_scan_min, task_scan_max, update_task_scan_period), the
 * hinting fault (do_numa_page, should_numa_migrate_memory) and the move
 * (migrate_misplaced_folio). */
#include "numa_balancing.h"
#include "huge_memory.h"
#include "migrate.h"
#include "mm_space_internal.h"
#include "page_alloc.h"

#include <string.h>

#define NS_PER_MS 1000000ULL
/* The scan rate task_scan_min never exceeds, in MB/s (MAX_SCAN_WINDOW). */
#define MAX_SCAN_WINDOW 2560
/* update_task_scan_period(): the fault ratio is counted in tenths, and a
 * local share of 7 in 10 or more slows the scan down. */
#define NUMA_PERIOD_SLOTS 10
#define NUMA_PERIOD_THRESHOLD 7

void numab_params_default(struct numab_params *p)
{
	p->enabled = false;
	p->scan_delay_ms = 1000;
	p->scan_period_min_ms = 1000;
	p->scan_period_max_ms = 60000;
	p->scan_size_mb = 256;
	p->rate_limit_mbps = 65536;
}

static unsigned long scan_size_pages(const struct machine *m)
{
	return (unsigned long)m->numab.scan_size_mb << (20 - PAGE_SHIFT);
}

/* task_nr_scan_windows(): scan windows to cover the resident pages. */
static unsigned long task_nr_scan_windows(const struct mm_struct *mm)
{
	unsigned long size = scan_size_pages(mm->m);

	return MAX(1UL, (mm->rss + size - 1) / size);
}

/* task_scan_min(): the period (ns) that scans the whole address space once
 * per scan_period_min, but no faster than MAX_SCAN_WINDOW MB/s. */
static uint64_t task_scan_min(const struct mm_struct *mm)
{
	const struct numab_params *p = &mm->m->numab;
	unsigned windows = p->scan_size_mb < MAX_SCAN_WINDOW ? MAX_SCAN_WINDOW / p->scan_size_mb : 1;
	uint64_t floor = 1000 / windows, scan = p->scan_period_min_ms / task_nr_scan_windows(mm);

	return machine_period_ns(mm->m, MAX(floor, scan) * NS_PER_MS);
}

static uint64_t task_scan_max(const struct mm_struct *mm)
{
	uint64_t smax = machine_period_ns(mm->m, mm->m->numab.scan_period_max_ms /
					   task_nr_scan_windows(mm) * NS_PER_MS);

	return MAX(task_scan_min(mm), smax);
}

/* update_task_scan_period(), at the end of each pass over the address
 * space, from the hinting faults of the pass: none, or mostly local
 * (7 in 10 or more), slow the scan down; mostly remote speed it up, by a
 * tenth of the period per tenth of the ratio away from 7 in 10.  The
 * kernel weighs private and shared faults and numa groups as well. */
static void update_task_scan_period(struct mm_struct *mm)
{
	unsigned long local = mm->numa_faults_local, remote = mm->numa_faults_remote;
	uint64_t period = mm->numa_scan_period, slot = (period + NUMA_PERIOD_SLOTS - 1) / NUMA_PERIOD_SLOTS;
	uint64_t smin = task_scan_min(mm), smax = task_scan_max(mm);

	if (!local && !remote) {
		period *= 2;
	} else {
		unsigned ratio = (unsigned)(local * NUMA_PERIOD_SLOTS / (local + remote));

		if (ratio >= NUMA_PERIOD_THRESHOLD)
			period += (ratio - NUMA_PERIOD_THRESHOLD) * slot;
		else
			period -= MIN(period, (NUMA_PERIOD_THRESHOLD - ratio) * slot);
	}
	mm->numa_scan_period = MIN(smax, MAX(smin, period));
	mm->numa_faults_local = mm->numa_faults_remote = 0;
}

/* change_prot_numa() for [start, end), inside one PTE table: the present
 * entries not marked yet become PROT_NONE.  The number marked. */
static unsigned long change_prot_numa(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct pte_table *pt = pte_table_lookup(mm, start);
	unsigned long n = 0;

	if (!pt || !pt->nr_present)
		return 0;
	mmu_notifier_invalidate(mm, start, end);
	/* A THP mapping is marked whole (change_huge_pmd); a 1 GiB folio that
	 * may not move takes no hinting fault. */
	if (pt->huge && mm->m->thp_opts.gb_migration == GB_THP_MIGRATION_BLOCK &&
	    folio_order(mm->m, thp_head(mm->m, pt->pte[0])) == HPAGE_PUD_ORDER)
		return 0;
	if (!pt->numa) {
		pt->numa = g_new0(struct pte_numa, 1);
		memset(pt->numa->last_nid, NUMA_NO_LAST_NID, sizeof(pt->numa->last_nid));
	}
	for (uint64_t a = start; a < end; a += PAGE_SIZE) {
		unsigned i = level_index(a, PGTABLE_PTE);

		if (pt->pte[i] == PFN_NONE || pte_protnone(pt, i))
			continue;
		pt->numa->protnone[i / 64] |= 1ULL << (i % 64);
		n++;
	}
	return n;
}

/* task_numa_work(): mark the next scan_size MB of the address space from
 * where the last window stopped, in 2 MiB steps; a step that marked
 * nothing costs only a eighth of its size (virtpages).  VMAs under an
 * explicit memory policy and inaccessible ones are skipped, as the kernel
 * skips VMAs whose policy does not move on fault (MPOL_F_MOF).  At the end
 * of the address space the next pass starts from 0. */
static void task_numa_work(struct mm_ctx *ctx, struct mm_struct *mm)
{
	long pages = (long)scan_size_pages(mm->m), virtpages = pages * 8;
	uint64_t addr = mm->numa_scan_offset;
	unsigned long updated = 0;
	unsigned i;

	for (i = vma_lower_bound(mm, addr); i < mm->vmas->len && pages > 0 && virtpages > 0; i++) {
		struct vm_area_struct *vma = vma_at(mm, i);

		if (vma->dying || vma->prot == PROT_NONE || vma->policy.mode != MPOL_DEFAULT ||
		    mm->policy.mode != MPOL_DEFAULT) {
			addr = vma->vm_end;
			continue;
		}
		addr = MAX(addr, vma->vm_start);
		while (addr < vma->vm_end && pages > 0 && virtpages > 0) {
			uint64_t end = MIN(vma->vm_end, (addr | (level_span(PGTABLE_PTE) - 1)) + 1);
			unsigned long n = change_prot_numa(mm, addr, end);
			long step = (long)((end - addr) >> PAGE_SHIFT);

			updated += n;
			if (n)
				pages -= step;
			virtpages -= step;
			addr = end;
		}
		if (addr < vma->vm_end)
			break;
	}
	if (i >= mm->vmas->len) {
		mm->numa_scan_offset = 0;
		update_task_scan_period(mm);
	} else {
		mm->numa_scan_offset = addr;
	}
	mm->m->vm_events[NUMA_PTE_UPDATES] += updated;
	if (updated) {
		mm_charge(ctx, COST_PTE, updated);
		mm_charge(ctx, COST_TLB_FLUSH, 1);
	}
}

void task_tick_numa(struct mm_ctx *ctx, struct mm_struct *mm)
{
	const struct numab_params *p = &mm->m->numab;
	uint64_t now;

	if (!p->enabled)
		return;
	now = mm_now(ctx);
	if (!mm->numa_next_scan) {
		mm->numa_next_scan = MAX(1, now + machine_period_ns(mm->m, p->scan_delay_ms *
									    NS_PER_MS));
		mm->numa_scan_period = task_scan_min(mm);
		return;
	}
	if (now < mm->numa_next_scan)
		return;
	mm->numa_next_scan = now + mm->numa_scan_period;
	task_numa_work(ctx, mm);
}

/* should_numa_migrate_memory()'s two-fault filter: record this fault's
 * node as the page's last, and move the page only if the previous hinting
 * fault on it came from the same node (or there was none since it was
 * faulted in), so that one stray access does not move it. */
static bool should_numa_migrate_memory(struct pte_table *pt, unsigned i, unsigned dst_nid)
{
	uint8_t last = pt->numa->last_nid[i];

	pt->numa->last_nid[i] = (uint8_t)dst_nid;
	return last == NUMA_NO_LAST_NID || last == dst_nid;
}

/* numa_promotion_rate_limit(): at most rate_limit_mbps of pages moved to
 * a node per second; nr pages are about to be.  The kernel limits only
 * promotions in memory-tiering mode with it; the model applies it to
 * every misplaced move. */
static bool numa_migrate_rate_limited(struct mm_ctx *ctx, struct machine *m, unsigned nid,
				      unsigned long nr)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	uint64_t now = mm_now(ctx);

	if (now - pgdat->numab_window_start >= 1000 * NS_PER_MS) {
		pgdat->numab_window_start = now;
		pgdat->numab_window_pages = 0;
	}
	if (pgdat->numab_window_pages + nr > (unsigned long)m->numab.rate_limit_mbps << (20 - PAGE_SHIFT))
		return true;
	pgdat->numab_window_pages += nr;
	return false;
}

/* migrate_balanced_pgdat(): the node has a zone above its high watermark
 * with room for the nr pages. */
static bool migrate_balanced_pgdat(struct machine *m, unsigned nid, unsigned long nr)
{
	for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
		struct zone *zone = &m->node_data[nid].node_zones[z];

		if (populated_zone(zone) &&
		    zone_page_state(zone, NR_FREE_PAGES) > wmark_pages(zone, WMARK_HIGH) + nr)
			return true;
	}
	return false;
}

/* alloc_misplaced_dst_folio(): a page on the node only, without reclaim;
 * a THP's destination with GFP_TRANSHUGE_LIGHT. */
static pfn_t alloc_misplaced_dst_folio(struct mm_ctx *ctx, struct machine *m, pfn_t src,
				       void *private)
{
	unsigned nid = *(const unsigned *)private;

	if (folio_order(m, src))
		return alloc_thp_migration_target(ctx, m, src, GFP_TRANSHUGE_LIGHT, (int)nid,
						  nodemask_of_node(nid));
	return __alloc_pages_nodemask(ctx, m,
				      (GFP_HIGHUSER_MOVABLE & ~__GFP_RECLAIM) | __GFP_NORETRY |
				      __GFP_NOWARN | __GFP_NOMEMALLOC,
				      0, (int)nid, nodemask_of_node(nid), OWNER_NONE, 0);
}

/* migrate_misplaced_folio(): move the folio at pfn (a page or a THP head)
 * of nr pages to node nid; whether it moved. */
static bool migrate_misplaced_folio(struct mm_ctx *ctx, struct machine *m, pfn_t pfn,
				    unsigned long nr, unsigned nid)
{
	enum migrate_status st;

	if (!migrate_balanced_pgdat(m, nid, nr) || !isolate_migratepage(ctx, m, pfn))
		return false;
	migrate_pages(ctx, m, &pfn, 1, alloc_misplaced_dst_folio, NULL, &nid, MIGRATE_ASYNC,
		      MR_NUMA_MISPLACED, &st, NULL);
	putback_movable_pages(ctx, &st, 1);
	if (st != MIGRATE_MOVED)
		return false;
	m->vm_events[NUMA_PAGES_MIGRATED] += nr;
	return true;
}

/* The hinting fault's end (task_numa_fault): it counts, by pages, where
 * the folio is now. */
static void task_numa_fault(struct mm_struct *mm, unsigned page_nid, unsigned this_nid,
			    unsigned long nr)
{
	if (page_nid == this_nid)
		mm->numa_faults_local += nr;
	else
		mm->numa_faults_remote += nr;
}

/* do_huge_pmd_numa_page() and its PUD twin: the hinting fault on a THP
 * mapping at addr.  The whole mapping is made accessible again, the
 * two-fault filter reads the folio's last node (kept at the mapping's
 * first entry) and the folio migrates whole, or not at all (no split on
 * this path).  A 1 GiB one under gb_thp_migration split is split first
 * and the fault goes on as a 4 KiB one. */
static int do_huge_numa_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr)
{
	struct machine *m = mm->m;
	struct pt_dir *pmd = dir_lookup(mm, PGTABLE_PMD, addr);
	bool pud = pmd->huge;
	uint64_t base = addr & ~(level_span(pud ? PGTABLE_PMD : PGTABLE_PTE) - 1);
	struct pte_table *first = pte_table_lookup(mm, base);
	unsigned this_nid = topology_cpu_to_node(&m->topo, ctx->cpu);
	pfn_t head = thp_head(m, first->pte[0]);
	unsigned order = folio_order(m, head);
	unsigned long nr = 1UL << order;
	unsigned page_nid = pfn_zone(m, head)->node;
	int target;

	if (order == HPAGE_PUD_ORDER && m->thp_opts.gb_migration == GB_THP_MIGRATION_SPLIT &&
	    split_huge_page(ctx, m, head)) {
		struct pte_table *pt = pte_table_lookup(mm, addr);
		unsigned i = level_index(addr, PGTABLE_PTE);

		return pt && !pt->huge && pt->pte[i] != PFN_NONE && pte_protnone(pt, i) ?
		       do_numa_page(ctx, mm, addr) : 0;
	}
	/* Looked up again: a split that failed may have let others run. */
	pmd = dir_lookup(mm, PGTABLE_PMD, addr);
	first = pte_table_lookup(mm, base);
	if (!pmd || pmd->huge != pud || !first || !first->numa || thp_head(m, first->pte[0]) != head)
		return 0;
	for (unsigned j = 0; j < (pud ? PTRS_PER_TABLE : 1u); j++) {
		struct pte_table *pt = pud ? pmd->entry[j] : first;

		if (pt->numa)
			memset(pt->numa->protnone, 0, sizeof(pt->numa->protnone));
	}
	m->vm_events[NUMA_HINT_FAULTS]++;
	if (page_nid == this_nid)
		m->vm_events[NUMA_HINT_FAULTS_LOCAL]++;
	target = mpol_misplaced(mm, addr, this_nid);
	if (target >= 0 && !should_numa_migrate_memory(first, 0, (unsigned)target))
		target = -1;
	mm_charge(ctx, COST_FAULT, 1);
	mm_charge(ctx, COST_NUMA_HINT_FAULT, 1);
	if (target >= 0 && (unsigned)target != page_nid &&
	    !numa_migrate_rate_limited(ctx, m, (unsigned)target, nr) &&
	    migrate_misplaced_folio(ctx, m, head, nr, (unsigned)target))
		page_nid = (unsigned)target;
	task_numa_fault(mm, page_nid, this_nid, nr);
	return 0;
}

int do_numa_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr)
{
	struct machine *m = mm->m;
	struct pte_table *pt = pte_table_lookup(mm, addr);
	unsigned i = level_index(addr, PGTABLE_PTE);
	unsigned this_nid = topology_cpu_to_node(&m->topo, ctx->cpu);
	pfn_t pfn = pt->pte[i];
	unsigned page_nid = pfn_zone(m, pfn)->node;
	int target;

	if (pt->huge)
		return do_huge_numa_page(ctx, mm, addr);
	/* The entry is made accessible again, and the policy's node and the
	 * two-fault filter decided, before anything lets another thread run. */
	pt->numa->protnone[i / 64] &= ~(1ULL << (i % 64));
	m->vm_events[NUMA_HINT_FAULTS]++;
	if (page_nid == this_nid)
		m->vm_events[NUMA_HINT_FAULTS_LOCAL]++;
	target = mpol_misplaced(mm, addr, this_nid);
	if (target >= 0 && !should_numa_migrate_memory(pt, i, (unsigned)target))
		target = -1;
	mm_charge(ctx, COST_FAULT, 1);
	mm_charge(ctx, COST_NUMA_HINT_FAULT, 1);
	if (target >= 0 && (unsigned)target != page_nid &&
	    !numa_migrate_rate_limited(ctx, m, (unsigned)target, 1) &&
	    migrate_misplaced_folio(ctx, m, pfn, 1, (unsigned)target))
		page_nid = (unsigned)target;
	task_numa_fault(mm, page_nid, this_nid, 1);
	return 0;
}
