/* Transparent huge pages (models/huge_memory.c), worked by hand on small
 * machines with every page free: what a THP fault allocates and charges,
 * the deposit each thp_deposit value takes, splits with and without a
 * deposit (and a split whose table allocation fails), the deferred split
 * and the whole-folio frees. */
#include "helpers.h"
#include "recorder.h"
#include "models/huge_memory.h"
#include "models/khugepaged.h"
#include "models/huge_memory_internal.h"
#include "models/invariants.h"
#include "models/mempolicy.h"
#include "models/page_alloc.h"

#include <string.h>

#define PG 4096ULL
#define RW (PROT_READ | PROT_WRITE)

static unsigned long cost[NR_MM_COSTS];

static void count_cost(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	(void)ctx;
	cost[kind] += n;
}

static struct machine *thp_machine(uint64_t mem, enum thp_enabled pmd, enum thp_enabled pud,
				   enum thp_deposit deposit, enum pud_split split)
{
	struct machine_params p;

	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = pmd;
	p.thp_opts.pud_enabled = pud;
	p.thp_opts.deposit = deposit;
	p.thp_opts.pud_split = split;
	memset(cost, 0, sizeof(cost));
	recorder_hooks.charged = count_cost;
	return params_machine(mem, &p);
}

/* Free pages, those cached on the per-CPU lists included. */
static unsigned long all_free(struct machine *m)
{
	return machine_free_pages(m) + machine_pcp_pages(m);
}

/* A region of len at a len-aligned address inside a mapping of twice it. */
static uint64_t aligned_region(struct mm_struct *mm, uint64_t len)
{
	int err;
	uint64_t a = mmap_anon(mm, 2 * len, RW, &err);

	g_assert_cmpint(err, ==, 0);
	return (a + len - 1) & ~(len - 1);
}

/* A 2 MiB THP fault: the upper tables, one order-9 folio zeroed as 512
 * pages of a 2 MiB folio (zero_pmd_page), one deposited PTE table; three entries written (the PGD's and
 * PUD's for the new tables, the huge PMD); freed whole at exit. */
static void test_pmd_fault_and_exit(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	unsigned long free0 = all_free(m);
	struct mm_struct *mm = mm_alloc(&c, m), *who;
	uint64_t a = aligned_region(mm, 2 * MiB), where, faulted;
	pfn_t head;

	memset(cost, 0, sizeof(cost));
	g_assert_cmpint(touch_range(&c, mm, a + 5 * PG, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	g_assert_cmpuint(mm_rss(mm), ==, 512);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 4);     /* PGD, PUD, PMD, deposit */
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 1);
	g_assert_cmpuint(cost[COST_FAULT], ==, 1);
	g_assert_cmpuint(cost[COST_PTE], ==, 3);
	/* The folio cleared whole at the 2 MiB rate, the three tables at
	 * the 4 KiB one. */
	g_assert_cmpuint(cost[COST_ZERO_PMD_PAGE], ==, 512);
	g_assert_cmpuint(cost[COST_ZERO_PAGE], ==, 3);
	g_assert_cmpuint(cost[COST_ZERO_PUD_PAGE], ==, 0);
	g_assert_cmpuint(m->vm_events[THP_FAULT_ALLOC], ==, 1);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_ANON_FAULT_ALLOC), ==, 1);
	g_assert_cmpuint(thp_nr_anon(m), ==, 1);
	head = follow_page(mm, a);
	g_assert_cmpuint(head % 512, ==, 0);
	g_assert_cmpuint(follow_page(mm, a + 511 * PG), ==, head + 511);
	g_assert_cmpuint(page_order(&m->mm, head), ==, 9);
	g_assert_true(rmap_walk_anon(m, head, &who, &where));
	g_assert_true(who == mm && where == a);
	/* Every page of it is present: no more faults. */
	g_assert_cmpint(touch_range(&c, mm, a, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 0);
	g_assert_cmpuint(cost[COST_FAULT], ==, 1);
	assert_all_ok(m);
	exit_mmap(&c, mm);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_FREE_WHOLE), ==, 1);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_NR_ANON), ==, 0);
	g_assert_cmpuint(thp_nr_anon(m), ==, 0);
	g_assert_cmpuint(all_free(m), ==, free0);
	assert_all_ok(m);
	machine_destroy(m);
}

/* MADV_FREE on a THP (madvise_free_huge_pmd): on the first half of one,
 * the folio is split now (thp_split_page 1, no THP left, its PMD mapping
 * now 512 PTEs) and only the 256 pages of the range are lazy-free; on a
 * whole one, nothing is split and its 512 pages are marked where they
 * are.  MADV_DONTNEED on half of a third splits the mapping only: the
 * folio waits on the deferred split queue with 256 pages mapped. */
static void test_madvise_free_part(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 2 * MiB), b = aligned_region(mm, 2 * MiB);
	uint64_t d = aligned_region(mm, 2 * MiB), faulted;

	g_assert_cmpint(touch_range(&c, mm, a, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, b, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, d, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(thp_nr_anon(m), ==, 3);

	g_assert_cmpint(do_madvise(&c, mm, a, 1 * MiB, MADV_FREE), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PAGE], ==, 1);
	g_assert_cmpuint(thp_nr_anon(m), ==, 2);
	g_assert_null(thp_folio_of(m, follow_page(mm, a)));
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 2);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 256);
	g_assert_cmpuint(mm_rss(mm), ==, 3 * 512);
	assert_all_ok(m);

	g_assert_cmpint(do_madvise(&c, mm, b, 2 * MiB, MADV_FREE), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PAGE], ==, 1);
	g_assert_nonnull(thp_folio_of(m, follow_page(mm, b)));
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 2);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 256 + 512);
	assert_all_ok(m);

	g_assert_cmpint(do_madvise(&c, mm, d, 1 * MiB, MADV_DONTNEED), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PAGE], ==, 1);
	/* The first folio's split split its PMD mapping too. */
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PMD], ==, 2);
	g_assert_cmpuint(thp_folio_of(m, follow_page(mm, d + 1 * MiB))->mapped, ==, 256);
	g_assert_cmpuint(deferred_split_count(m, 0), ==, 1);
	g_assert_cmpuint(mm_rss(mm), ==, 2 * 512 + 256);
	assert_all_ok(m);
	exit_mmap(&c, mm);
	machine_destroy(m);
}

/* The checker's view of THPs (huge_memory_check.c): a record that counts
 * one page fewer mapped than the PMD maps (512) is reported, and so is its
 * absence from the deferred split queue, which a partly mapped folio
 * would be on; the record put right, the machine checks clean. */
static void test_check_folios(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 2 * MiB), faulted;
	struct thp_folio *f;
	char *why;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	f = thp_folio_of(m, follow_page(mm, a));
	g_assert_nonnull(f);
	g_assert_cmpuint(f->mapped, ==, 512);
	assert_all_ok(m);
	f->mapped--;
	why = check_invariants(m);
	g_assert_nonnull(why);
	g_assert_nonnull(strstr(why, "512 pages mapped, counted 511"));
	g_assert_nonnull(strstr(why, "not on the deferred split queue with 511 of 512 pages mapped"));
	g_free(why);
	f->mapped++;
	assert_all_ok(m);
	exit_mmap(&c, mm);
	machine_destroy(m);
}

/* The knobs decide: never gives 4 KiB pages; madvise only where
 * MADV_HUGEPAGE was given; MADV_NOHUGEPAGE refuses under always; a VMA
 * that does not cover the aligned 2 MiB gets 4 KiB pages. */
static void test_enabled_and_advice(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_MADVISE, THP_NEVER, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 4 * MiB), faulted;
	int err;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1);
	g_assert_cmpint(do_madvise(&c, mm, a + 2 * MiB, 2 * MiB, MADV_HUGEPAGE), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	g_assert_cmpint(touch_range(&c, mm, a + 2 * MiB, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	/* MADV_NOHUGEPAGE is a flag of its own: still three VMAs. */
	g_assert_cmpint(do_madvise(&c, mm, a + 2 * MiB, 2 * MiB, MADV_NOHUGEPAGE), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	assert_all_ok(m);
	machine_destroy(m);

	m = thp_machine(1 * GiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_FULL, PUD_SPLIT_PTE);
	mm = mm_alloc(&c, m);
	a = aligned_region(mm, 4 * MiB);
	g_assert_cmpint(do_madvise(&c, mm, a, 2 * MiB, MADV_NOHUGEPAGE), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1);
	g_assert_cmpint(touch_range(&c, mm, a + 2 * MiB, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	/* 3 MiB mapped at a 2 MiB boundary: the second 2 MiB is not covered. */
	uint64_t b = mmap_anon(mm, 3 * MiB, RW, &err);
	g_assert_cmpuint(b % (2 * MiB), ==, 1 * MiB);
	g_assert_cmpint(touch_range(&c, mm, b + 1 * MiB, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	g_assert_cmpint(touch_range(&c, mm, b, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1);
	assert_all_ok(m);
	machine_destroy(m);

	m = thp_machine(1 * GiB, THP_NEVER, THP_NEVER, THP_DEPOSIT_FULL, PUD_SPLIT_PTE);
	mm = mm_alloc(&c, m);
	a = aligned_region(mm, 4 * MiB);
	g_assert_cmpint(do_madvise(&c, mm, a, 4 * MiB, MADV_HUGEPAGE), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1);
	g_assert_null(m->thp_state);
	machine_destroy(m);
}

/* Take every page the allocator gives GFP_KERNEL; the pfns taken. */
static GArray *fill(struct mm_ctx *c, struct machine *m)
{
	GArray *taken = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	pfn_t pfn;

	while ((pfn = __alloc_pages(c, m, GFP_KERNEL, 0, 0, OWNER_NONE, 0)) != PFN_NONE)
		g_array_append_val(taken, pfn);
	return taken;
}

static void unfill(struct mm_ctx *c, struct machine *m, GArray *taken)
{
	for (guint i = 0; i < taken->len; i++)
		__free_pages(c, m, g_array_index(taken, pfn_t, i));
	g_array_free(taken, TRUE);
}

/* thp_deposit none: the split of a partial munmap must allocate its PTE
 * table.  With no memory it fails: -ENOMEM, the THP still mapped whole,
 * the failure counted, the checkers content.  With memory it splits; the
 * folio, 256 of its pages unmapped, waits on the deferred split queue
 * until the shrinker splits it: its 256 unmapped pages are freed as
 * order-0 pages, the other 256 stay mapped as order-0 pages; the split
 * charges a rewrite of each of the 511 tail pages. */
static void test_split_without_deposit(void)
{
	struct machine *m = thp_machine(256 * MiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_NONE,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m), *who;
	uint64_t a = aligned_region(mm, 2 * MiB), faulted, where;
	unsigned long free_before;
	pfn_t head;
	GArray *taken;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 3);     /* no deposit */
	head = follow_page(mm, a);
	taken = fill(&c, m);
	g_assert_cmpint(do_munmap(&c, mm, a + 1 * MiB, 1 * MiB), ==, -MM_ENOMEM);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PMD_FAILED], ==, 1);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PMD], ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 512);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 1);
	g_assert_cmpuint(follow_page(mm, a + 1 * MiB), ==, head + 256);
	g_assert_cmpuint(mm_map_count(mm), ==, 1);
	assert_all_ok(m);
	/* MADV_DONTNEED of part of it fails the same way. */
	g_assert_cmpint(do_madvise(&c, mm, a, 4 * PG, MADV_DONTNEED), ==, -MM_ENOMEM);
	g_assert_cmpuint(mm_rss(mm), ==, 512);
	unfill(&c, m, taken);

	g_assert_cmpint(do_munmap(&c, mm, a + 1 * MiB, 1 * MiB), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PMD], ==, 1);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 4);     /* the PTE table it allocated */
	g_assert_cmpuint(mm_rss(mm), ==, 256);
	g_assert_cmpuint(thp_nr_anon(m), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_DEFERRED_SPLIT_PAGE], ==, 1);
	g_assert_cmpuint(deferred_split_count(m, 0), ==, 1);
	/* Still one order-9 block until the shrinker runs. */
	g_assert_cmpuint(page_order(&m->mm, head), ==, 9);
	assert_all_ok(m);
	free_before = all_free(m);
	memset(cost, 0, sizeof(cost));
	g_assert_cmpuint(deferred_split_scan(&c, m, 0, 128), ==, 256);
	g_assert_cmpuint(all_free(m), ==, free_before + 256);
	/* The split rewrote the folio's 511 tail pages. */
	g_assert_cmpuint(cost[COST_SPLIT_TAIL], ==, 511);
	g_assert_cmpuint(deferred_split_count(m, 0), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PAGE], ==, 1);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_SPLIT), ==, 1);
	g_assert_cmpuint(page_order(&m->mm, head + 255), ==, 0);
	g_assert_true(rmap_walk_anon(m, head + 255, &who, &where));
	g_assert_cmphex(where, ==, a + 255 * PG);
	assert_all_ok(m);
	exit_mmap(&c, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A 1 GiB THP and its deposit per thp_deposit: full takes the PMD table
 * and 512 PTE tables, pmd_only the PMD table, none nothing.  It is zeroed
 * as 262,144 pages of a 1 GiB folio (zero_pud_page) and freed whole. */
static void test_pud_deposits(void)
{
	static const unsigned long tables[NR_THP_DEPOSIT] = { 2 + 513, 2 + 1, 2 };

	for (int d = 0; d < NR_THP_DEPOSIT; d++) {
		struct machine *m = thp_machine(4 * GiB, THP_ALWAYS, THP_ALWAYS,
						(enum thp_deposit)d, PUD_SPLIT_PTE);
		struct mm_ctx c = cpu_ctx(0);
		unsigned long free0 = all_free(m);
		struct mm_struct *mm = mm_alloc(&c, m);
		uint64_t a = aligned_region(mm, 1 * GiB), faulted;

		memset(cost, 0, sizeof(cost));
		g_assert_cmpint(touch_range(&c, mm, a + 77 * PG, PG, &faulted), ==, 0);
		g_assert_cmpuint(faulted, ==, HPAGE_PUD_NR);
		g_assert_cmpuint(mm_thp_mappings(mm, THP_PUD), ==, 1);
		g_assert_cmpuint(mm_pgtable_pages(mm), ==, tables[d]);     /* PGD, PUD, deposit */
		g_assert_cmpuint(cost[COST_ZERO_PUD_PAGE], ==, HPAGE_PUD_NR);
		g_assert_cmpuint(cost[COST_ZERO_PAGE], ==, tables[d] - 1);
		g_assert_cmpuint(cost[COST_ZERO_PMD_PAGE], ==, 0);
		g_assert_cmpuint(thp_nr_anon(m), ==, 512);
		g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_ANON_FAULT_ALLOC), ==, 1);
		g_assert_cmpuint(follow_page(mm, a + GiB - PG), ==, follow_page(mm, a) + HPAGE_PUD_NR - 1);
		assert_all_ok(m);
		exit_mmap(&c, mm);
		g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_FREE_WHOLE), ==, 1);
		g_assert_cmpuint(all_free(m), ==, free0);
		assert_all_ok(m);
		machine_destroy(m);
	}
}

/* No 1 GiB block to be had (on a 1 GiB machine the first gigabyte spans
 * the DMA and DMA32 zones): the fault falls back to 2 MiB, counted for the
 * 1 GiB size. */
static void test_pud_fallback(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_ALWAYS, THP_ALWAYS, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 1 * GiB), faulted;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_ANON_FAULT_FALLBACK), ==, 1);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_ANON_FAULT_ALLOC), ==, 1);
	g_assert_cmpuint(m->vm_events[THP_FAULT_FALLBACK], ==, 1);
	assert_all_ok(m);
	machine_destroy(m);
}

/* pud_split pmd: a 2 MiB munmap inside a 1 GiB THP leaves 511 PMD
 * mappings.  The deferred split makes the folio 512 order-9 folios: the
 * unmapped one freed whole, 511 THPs of 2 MiB left, each freed whole at
 * exit. */
static void test_pud_split_pmd(void)
{
	struct machine *m = thp_machine(4 * GiB, THP_ALWAYS, THP_ALWAYS, THP_DEPOSIT_FULL,
					PUD_SPLIT_PMD);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 1 * GiB), faulted;
	unsigned long free_before;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, HPAGE_PUD_NR);
	memset(cost, 0, sizeof(cost));
	g_assert_cmpint(do_munmap(&c, mm, a + 6 * MiB, 2 * MiB), ==, 0);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PUD], ==, 1);
	g_assert_cmpuint(m->vm_events[THP_SPLIT_PMD], ==, 0);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 511);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PUD), ==, 0);
	/* the split wrote 512 PMD entries, the unmap cleared one */
	g_assert_cmpuint(cost[COST_PTE], ==, 512 + 1);
	/* the unmapped piece's deposited PTE table is freed */
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 2 + 512);
	g_assert_cmpuint(thp_nr_anon(m), ==, 511);
	assert_all_ok(m);
	free_before = all_free(m);
	memset(cost, 0, sizeof(cost));
	g_assert_cmpuint(deferred_split_scan(&c, m, 0, 128), ==, 512);
	g_assert_cmpuint(all_free(m), ==, free_before + 512);
	/* Every page but the head was rewritten, 511 of them as new heads. */
	g_assert_cmpuint(cost[COST_SPLIT_TAIL], ==, HPAGE_PUD_NR - 1);
	g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_NR_ANON), ==, 0);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_NR_ANON), ==, 511);
	assert_all_ok(m);
	exit_mmap(&c, mm);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_FREE_WHOLE), ==, 511);
	assert_all_ok(m);
	machine_destroy(m);
}

/* thp_folio_of at the first page past an order-9 folio whose head is
 * 1 GiB-aligned: a 1 GiB folio split to PMDs, its second 2 MiB unmapped
 * and freed, leaves no folio there, though the lookup of the PUD-aligned
 * head finds the first piece (it ends one page before). */
static void test_folio_lookup_edge(void)
{
	struct machine *m = thp_machine(4 * GiB, THP_ALWAYS, THP_ALWAYS, THP_DEPOSIT_FULL,
					PUD_SPLIT_PMD);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 1 * GiB), faulted;
	pfn_t base;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	base = follow_page(mm, a);
	g_assert_cmpuint(base % HPAGE_PUD_NR, ==, 0);
	g_assert_cmpint(do_munmap(&c, mm, a + 2 * MiB, 2 * MiB), ==, 0);
	g_assert_cmpuint(deferred_split_scan(&c, m, 0, 128), ==, 512);
	g_assert_cmpuint(thp_folio_of(m, base)->order, ==, HPAGE_PMD_ORDER);
	g_assert_nonnull(thp_folio_of(m, base + HPAGE_PMD_NR - 1));
	g_assert_null(thp_folio_of(m, base + HPAGE_PMD_NR));
	assert_all_ok(m);
	exit_mmap(&c, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* khugepaged_do_scan's passes, as pass_through_head counts them: a call
 * that starts at the head of the process list makes one pass (a 4 MiB
 * area, 2 MiB-aligned: two blocks, 1024 pages' worth); one that starts
 * inside the list finishes it and makes one more (512 + 1024). */
static void test_khugepaged_passes(void)
{
	struct machine *m = thp_machine(1 * GiB, THP_ALWAYS, THP_NEVER, THP_DEPOSIT_FULL,
					PUD_SPLIT_PMD);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	struct khugepaged_result r = { 0 };
	uint64_t a;
	int err;

	a = mmap_anon(mm, 4 * MiB, RW, &err);
	g_assert_cmpint(err, ==, 0);
	g_assert_cmpuint(a % (2 * MiB), ==, 0);
	khugepaged_do_scan(&c, m, 1 << 20, KHUGEPAGED_MAX_PTES_NONE, &r);
	g_assert_cmpuint(r.scanned, ==, 1024);
	r.scanned = 0;
	khugepaged_do_scan(&c, m, 512, KHUGEPAGED_MAX_PTES_NONE, &r);
	g_assert_cmpuint(r.scanned, ==, 512);
	r.scanned = 0;
	khugepaged_do_scan(&c, m, 1 << 20, KHUGEPAGED_MAX_PTES_NONE, &r);
	g_assert_cmpuint(r.scanned, ==, 512 + 1024);
	g_assert_cmpuint(r.collapsed + r.failed, ==, 0);
	exit_mmap(&c, mm);
	machine_destroy(m);
}

/* MADV_COLLAPSE, whatever `thp` says: 100 pages touched in a 2 MiB block
 * become one THP, those 100 copied and 412 zeroed, the old pages freed;
 * the PTE table stays as the deposit (with thp_deposit none it is freed
 * too).  A block holding a THP's pages is left (EAGAIN). */
static void test_collapse(void)
{
	for (int d = 0; d < NR_THP_DEPOSIT; d += NR_THP_DEPOSIT - 1) {
		struct machine *m = thp_machine(1 * GiB, THP_NEVER, THP_NEVER,
						(enum thp_deposit)d, PUD_SPLIT_PTE);
		struct mm_ctx c = cpu_ctx(0);
		struct mm_struct *mm = mm_alloc(&c, m);
		uint64_t a = aligned_region(mm, 2 * MiB), faulted;
		unsigned long free_before, tables;

		g_assert_cmpint(touch_range(&c, mm, a + 64 * PG, 100 * PG, &faulted), ==, 0);
		g_assert_cmpuint(faulted, ==, 100);
		tables = mm_pgtable_pages(mm);
		free_before = all_free(m);
		memset(cost, 0, sizeof(cost));
		g_assert_cmpint(do_madvise(&c, mm, a, 2 * MiB, MADV_COLLAPSE), ==, 0);
		g_assert_cmpuint(m->vm_events[THP_COLLAPSE_ALLOC], ==, 1);
		g_assert_cmpuint(mm_rss(mm), ==, 512);
		g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 1);
		g_assert_cmpuint(page_order(&m->mm, follow_page(mm, a)), ==, 9);
		g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 100);
		g_assert_cmpuint(cost[COST_ZERO_PAGE], ==, 412);
		if (d == THP_DEPOSIT_FULL) {
			g_assert_cmpuint(mm_pgtable_pages(mm), ==, tables);
			g_assert_cmpuint(all_free(m), ==, free_before - 512 + 100);
		} else {
			g_assert_cmpuint(mm_pgtable_pages(mm), ==, tables - 1);
			g_assert_cmpuint(all_free(m), ==, free_before - 512 + 100 + 1);
		}
		assert_all_ok(m);
		/* Already a THP: nothing to do. */
		g_assert_cmpint(do_madvise(&c, mm, a, 2 * MiB, MADV_COLLAPSE), ==, 0);
		g_assert_cmpuint(m->vm_events[THP_COLLAPSE_ALLOC], ==, 1);
		/* Split and partly unmapped: its table holds a THP's pages. */
		g_assert_cmpint(do_madvise(&c, mm, a + 16 * PG, PG, MADV_DONTNEED), ==, 0);
		g_assert_cmpint(do_madvise(&c, mm, a, 2 * MiB, MADV_COLLAPSE), ==, -MM_EAGAIN);
		assert_all_ok(m);
		machine_destroy(m);
	}
}

/* MADV_COLLAPSE of a gigabyte with the 1 GiB size not "never": 100 pages
 * in each of 10 PTE tables become one 1 GiB THP, 1,000 pages copied; the
 * full deposit keeps the 10 tables and the PMD table and allocates the
 * other 502 PTE tables. */
static void test_collapse_pud(void)
{
	struct machine *m = thp_machine(4 * GiB, THP_NEVER, THP_MADVISE, THP_DEPOSIT_FULL,
					PUD_SPLIT_PTE);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 1 * GiB), faulted;
	unsigned long free_before;

	for (int k = 0; k < 10; k++) {
		g_assert_cmpint(touch_range(&c, mm, a + k * 64 * MiB, 100 * PG, &faulted), ==, 0);
		g_assert_cmpuint(faulted, ==, 100);
	}
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 3 + 10);
	free_before = all_free(m);
	memset(cost, 0, sizeof(cost));
	g_assert_cmpint(do_madvise(&c, mm, a, 1 * GiB, MADV_COLLAPSE), ==, 0);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PUD), ==, 1);
	g_assert_cmpuint(m->vm_events[THP_COLLAPSE_ALLOC], ==, 1);
	g_assert_cmpuint(mm_rss(mm), ==, HPAGE_PUD_NR);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 3 + 512);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 1000);
	g_assert_cmpuint(cost[COST_ZERO_PAGE], ==, HPAGE_PUD_NR - 1000 + 502);
	g_assert_cmpuint(all_free(m), ==, free_before - HPAGE_PUD_NR + 1000 - 502);
	g_assert_cmpuint(follow_page(mm, a + GiB - PG), ==, follow_page(mm, a) + HPAGE_PUD_NR - 1);
	assert_all_ok(m);
	exit_mmap(&c, mm);
	g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_FREE_WHOLE), ==, 1);
	assert_all_ok(m);
	machine_destroy(m);
}

/* nodes nodes of mem bytes (4 CPUs each: CPU 4 is node 1's first), 2 MiB
 * THPs pmd, 1 GiB THPs always, defrag as given. */
static struct machine *defrag_machine(unsigned nodes, uint64_t mem, enum thp_enabled pmd,
				      enum thp_defrag defrag)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct machine *m;

	topology_uniform(&t, nodes, 1, 4, mem);
	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = pmd;
	p.thp_opts.pud_enabled = THP_ALWAYS;
	p.thp_opts.defrag = defrag;
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	memset(cost, 0, sizeof(cost));
	recorder_hooks.charged = count_cost;
	return m;
}

static unsigned node_of(struct machine *m, struct mm_struct *mm, uint64_t addr)
{
	pfn_t pfn = follow_page(mm, addr);

	g_assert_cmpuint(pfn, !=, PFN_NONE);
	return pfn_zone(m, pfn)->node;
}

/* A 3 GiB machine has two 1 GiB ranges (GiB 1 and 2; GiB 0 spans two
 * zones).  A process without THPs fills them from the bottom up, then
 * gives back all but one 2 MiB chunk in each range: neither range is
 * free, but what holds them can move.  defrag never (no direct reclaim)
 * may not migrate: the 1 GiB fault falls back, nothing migrated.  defrag
 * always migrates a chunk out and maps the gigabyte. */
static void test_pud_defrag(void)
{
	for (int always = 0; always <= 1; always++) {
		struct machine *m = defrag_machine(1, 3 * GiB, THP_NEVER,
						   always ? THP_DEFRAG_ALWAYS : THP_DEFRAG_NEVER);
		struct mm_ctx c = cpu_ctx(0);
		struct mm_struct *filler = mm_alloc(&c, m), *mm = mm_alloc(&c, m);
		uint64_t len = 2 * GiB + 256 * MiB, f = aligned_region(filler, len);
		uint64_t a = aligned_region(mm, 1 * GiB), faulted, kept = 0;

		g_assert_cmpint(do_madvise(&c, filler, f, len, MADV_NOHUGEPAGE), ==, 0);
		g_assert_cmpint(touch_range(&c, filler, f, len, &faulted), ==, 0);
		for (uint64_t x = f; x < f + len; x += 2 * MiB) {
			unsigned gib = (unsigned)(follow_page(filler, x) >> HPAGE_PUD_ORDER);

			if (gib && !(kept & (1u << gib)))
				kept |= 1u << gib;
			else
				g_assert_cmpint(do_madvise(&c, filler, x, 2 * MiB, MADV_DONTNEED), ==, 0);
		}
		g_assert_cmpuint(kept, ==, 6);
		g_assert_cmpuint(mm_rss(filler), ==, 2 * 512);
		g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
		g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_ANON_FAULT_FALLBACK), ==, !always);
		g_assert_cmpuint(mm_thp_mappings(mm, THP_PUD), ==, always);
		g_assert_cmpuint(faulted, ==, always ? HPAGE_PUD_NR : 1);
		g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, always ? 512 : 0);
		assert_all_ok(m);
		machine_destroy(m);
	}
}

/* Hold an unmovable block in every 1 GiB range of node nid: each range is
 * lost to any 1 GiB allocation, migrating or not. */
static void spoil_node(struct machine *m, unsigned nid)
{
	struct mm_ctx c = cpu_ctx(0);
	GArray *got = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	uint64_t held = 0;
	pfn_t pfn;

	while ((pfn = __alloc_pages_nodemask(&c, m, GFP_KERNEL & ~__GFP_DIRECT_RECLAIM,
					     MAX_PAGE_ORDER, (int)nid, nodemask_of_node(nid),
					     OWNER_NONE, 0)) != PFN_NONE)
		g_array_append_val(got, pfn);
	for (unsigned i = 0; i < got->len; i++) {
		pfn = g_array_index(got, pfn_t, i);
		if (held & (1ULL << (pfn >> HPAGE_PUD_ORDER)))
			g_assert_cmpint(__free_pages(&c, m, pfn), ==, 0);
		held |= 1ULL << (pfn >> HPAGE_PUD_ORDER);
	}
	g_array_free(got, TRUE);
}

/* Memory policy picks the 1 GiB folio's node, on two nodes of 2 GiB
 * (node 0's GiB 1, node 1's GiBs 2 and 3 are the ranges).  From CPU 0:
 * default is node 0, mbind to node 1 gives node 1, interleave over both
 * puts consecutive gigabytes on alternate nodes by the address's index. */
static void test_pud_mempolicy(void)
{
	struct machine *m = defrag_machine(2, 2 * GiB, THP_NEVER, THP_DEFRAG_NEVER);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 2 * GiB), faulted;
	struct mempolicy pol;

	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, HPAGE_PUD_NR);
	g_assert_cmpuint(node_of(m, mm, a), ==, 0);
	g_assert_cmpint(mpol_new(m, MPOL_BIND, nodemask_of_node(1), &pol), ==, 0);
	g_assert_cmpint(do_mbind(&c, mm, a + GiB, GiB, &pol), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a + GiB, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, HPAGE_PUD_NR);
	g_assert_cmpuint(node_of(m, mm, a + GiB), ==, 1);
	assert_all_ok(m);
	exit_mmap(&c, mm);

	mm = mm_alloc(&c, m);
	a = aligned_region(mm, 2 * GiB);
	g_assert_cmpint(mpol_new(m, MPOL_INTERLEAVE, nodemask_of_node(0) | nodemask_of_node(1),
				 &pol), ==, 0);
	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&c, mm, a, 2 * GiB, &faulted), ==, 0);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PUD), ==, 2);
	g_assert_cmpuint(node_of(m, mm, a), ==, (a >> 30) % 2);
	g_assert_cmpuint(node_of(m, mm, a + GiB), ==, ((a >> 30) + 1) % 2);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Bound to node 1, every range of which holds an unmovable block: the
 * 1 GiB fault falls back to 2 MiB on node 1, although node 0 has a free
 * gigabyte and defrag always may migrate. */
static void test_pud_bind_full(void)
{
	struct machine *m = defrag_machine(2, 2 * GiB, THP_ALWAYS, THP_DEFRAG_ALWAYS);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = aligned_region(mm, 1 * GiB), faulted;
	struct mempolicy pol;

	spoil_node(m, 1);
	g_assert_cmpint(mpol_new(m, MPOL_BIND, nodemask_of_node(1), &pol), ==, 0);
	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, HPAGE_PMD_NR);
	g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_ANON_FAULT_FALLBACK), ==, 1);
	g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_ANON_FAULT_ALLOC), ==, 1);
	g_assert_cmpuint(node_of(m, mm, a), ==, 1);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A THP stays on the faulting CPU's node unless the fault may reclaim
 * directly (alloc_pages_mpol's node-alone first pass).  Node 0's range is
 * spoiled: under defrag never the 1 GiB fault from CPU 0 falls back
 * rather than take node 1's free gigabyte; under always it takes it.
 * The same for 2 MiB once node 0 has no order-9 block left to give. */
static void test_thp_local_first(void)
{
	for (int always = 0; always <= 1; always++) {
		struct machine *m = defrag_machine(2, 2 * GiB, THP_NEVER,
						   always ? THP_DEFRAG_ALWAYS : THP_DEFRAG_NEVER);
		struct mm_ctx c = cpu_ctx(0);
		struct mm_struct *mm = mm_alloc(&c, m);
		uint64_t a = aligned_region(mm, 1 * GiB), faulted;

		spoil_node(m, 0);
		g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
		g_assert_cmpuint(mthp_stat(m, THP_PUD, MTHP_STAT_ANON_FAULT_FALLBACK), ==, !always);
		g_assert_cmpuint(faulted, ==, always ? HPAGE_PUD_NR : 1);
		if (always)
			g_assert_cmpuint(node_of(m, mm, a), ==, 1);
		assert_all_ok(m);
		machine_destroy(m);

		m = defrag_machine(2, 2 * GiB, THP_ALWAYS,
				   always ? THP_DEFRAG_ALWAYS : THP_DEFRAG_NEVER);
		m->thp_opts.pud_enabled = THP_NEVER;
		mm = mm_alloc(&c, m);
		a = aligned_region(mm, 2 * MiB);
		while (__alloc_pages_nodemask(&c, m, GFP_KERNEL & ~__GFP_DIRECT_RECLAIM,
					      HPAGE_PMD_ORDER, 0, nodemask_of_node(0), OWNER_NONE,
					      0) != PFN_NONE)
			;
		g_assert_cmpint(touch_range(&c, mm, a, PG, &faulted), ==, 0);
		g_assert_cmpuint(mthp_stat(m, THP_PMD, MTHP_STAT_ANON_FAULT_FALLBACK), ==, !always);
		g_assert_cmpuint(faulted, ==, always ? HPAGE_PMD_NR : 1);
		if (always)
			g_assert_cmpuint(node_of(m, mm, a), ==, 1);
		assert_invariants(m);
		machine_destroy(m);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/huge_memory/pmd-fault-and-exit", test_pmd_fault_and_exit);
	g_test_add_func("/huge_memory/enabled-and-advice", test_enabled_and_advice);
	g_test_add_func("/huge_memory/split-without-deposit", test_split_without_deposit);
	g_test_add_func("/huge_memory/pud-deposits", test_pud_deposits);
	g_test_add_func("/huge_memory/pud-fallback", test_pud_fallback);
	g_test_add_func("/huge_memory/pud-split-pmd", test_pud_split_pmd);
	g_test_add_func("/huge_memory/folio-lookup-edge", test_folio_lookup_edge);
	g_test_add_func("/huge_memory/collapse", test_collapse);
	g_test_add_func("/huge_memory/khugepaged-passes", test_khugepaged_passes);
	g_test_add_func("/huge_memory/collapse-pud", test_collapse_pud);
	g_test_add_func("/huge_memory/pud-defrag", test_pud_defrag);
	g_test_add_func("/huge_memory/pud-mempolicy", test_pud_mempolicy);
	g_test_add_func("/huge_memory/pud-bind-full", test_pud_bind_full);
	g_test_add_func("/huge_memory/thp-local-first", test_thp_local_first);
	g_test_add_func("/huge_memory/check-folios", test_check_folios);
	g_test_add_func("/huge_memory/madvise-free-part", test_madvise_free_part);
	return g_test_run();
}
