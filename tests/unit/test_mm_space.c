/* Address spaces: hand-worked faults, munmap, madvise, mprotect and exit
 * on small machines, checked against the allocator's owner records; and a
 * randomized run of several processes in which other calls on the same
 * process cut into every engine call, as simulated threads can. */
#include "helpers.h"
#include "recorder.h"
#include "models/mm_space.h"
#include "models/mm_space_internal.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
#include "models/swap.h"

#include <string.h>

#define PG 4096ULL

/* An engine stand-in that takes no time but counts what was charged, and
 * can run another call (cut_in) where a simulated thread could be switched
 * out: at any charge or before taking a lock, while holding no lock (the
 * engine would let another thread of the CPU run there). */
struct recorder {
	unsigned long cost[NR_MM_COSTS];
	int held;
	int depth;
	struct spinlock *site_lock[NR_LOCK_SITES];     /* the last taken at each site */
	void (*cut_in)(struct mm_ctx *ctx);
};

static struct recorder rec;

static void maybe_cut_in(struct mm_ctx *ctx)
{
	if (!rec.cut_in || rec.depth || rec.held)
		return;
	rec.depth++;
	rec.cut_in(ctx);
	rec.depth--;
}

static void rec_charged(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	rec.cost[kind] += n;
	maybe_cut_in(ctx);
}

static void rec_locked(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	(void)ctx;
	rec.site_lock[site] = l;
	rec.held++;
}

static void rec_unlocking(struct mm_ctx *ctx, struct spinlock *l)
{
	(void)ctx, (void)l;
	rec.held--;
}

/* min_free_kbytes -1: the kernel's own, computed from the memory. */
static struct machine *machine_of(uint64_t mem, enum mm_policy policy)
{
	memset(&rec, 0, sizeof(rec));
	return policy_machine(mem, policy, -1);
}

static void assert_mm_ok(struct machine *m)
{
	char *report = mm_check_all(m);

	if (report)
		g_error("address space invariants violated:\n%s", report);
	assert_invariants(m);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The offsets of the allocated blocks with this owner, sorted; how many. */
static unsigned owned(struct machine *m, uint32_t owner, uint32_t *offsets, unsigned max)
{
	unsigned n = 0;

	for (pfn_t pfn = 0; pfn < m->mm.nr_frames; pfn++) {
		if (page_kind(&m->mm, pfn) != PG_KIND_ALLOC || page_owner(m, pfn) != owner)
			continue;
		if (n < max)
			offsets[n] = page_owner_offset(m, pfn);
		n++;
	}
	qsort(offsets, MIN(n, max), sizeof(*offsets), cmp_u32);
	return n;
}

static unsigned long pgalloc(struct machine *m)
{
	unsigned long n = 0;

	for (int i = PGALLOC_DMA; i <= PGALLOC_DEVICE; i++)
		n += m->vm_events[i];
	return n;
}

/* First touch of one page: the PUD, PMD and PTE tables and the page
 * itself, with the owner records the reverse map reads; the PGD came with
 * the process. */
/* A page joins and leaves the LRU under its own node's lru_lock: node 1's
 * page on a machine of two nodes takes node 1's lock both ways. */
static void test_lru_lock_per_node(void)
{
	struct topology t;
	struct machine_params p;
	struct mm_ctx c = cpu_ctx(0);
	char *err = NULL;
	struct machine *m;
	pfn_t page;

	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	topology_uniform(&t, 2, 1, 2, 1 * GiB);
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	memset(&rec, 0, sizeof(rec));
	page = __alloc_pages(&c, m, GFP_KERNEL, 0, 1, 0, 0);
	g_assert_true(page != PFN_NONE);
	g_assert_cmpuint(pfn_zone(m, page)->node, ==, 1);
	folio_add_lru(&c, m, page);
	lru_add_drain(&c, m);
	g_assert_true(rec.site_lock[SITE_FOLIO_BATCH_MOVE_LRU] == &m->node_data[1].__lruvec.lru_lock);
	folios_put_refs(&c, m, &page, 1);
	g_assert_true(rec.site_lock[SITE_FOLIOS_PUT] == &m->node_data[1].__lruvec.lru_lock);
	machine_destroy(m);
}

/* The address-space checker reports the first MAX_REPORTS (20)
 * violations in full and counts the rest: 25 lazy-free marks on empty
 * entries of one PTE table give 20 lines and "... and 5 more violations". */
static void test_check_report_cap(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	struct pte_table *pt;
	unsigned lines = 0;
	uint64_t a;
	char *report;
	int err;

	a = mmap_anon(mm, 2 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(err, ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a, PAGE_SIZE, NULL), ==, 0);
	pt = pte_table_lookup(mm, a);
	g_assert_nonnull(pt);
	for (unsigned i = 1; i <= 25; i++)
		pte_set_lazyfree(pt, level_index(a + i * PAGE_SIZE, PGTABLE_PTE), true);
	report = mm_check_invariants(mm);
	g_assert_nonnull(report);
	for (const char *q = report; (q = strchr(q, '\n')); q++)
		lines++;
	g_assert_cmpuint(lines, ==, 21);
	g_assert_nonnull(strstr(report, "lazy-free mark on the empty entry"));
	g_assert_nonnull(strstr(report, "\n... and 5 more violations\n"));
	g_free(report);
	for (unsigned i = 1; i <= 25; i++)
		pte_set_lazyfree(pt, level_index(a + i * PAGE_SIZE, PGTABLE_PTE), false);
	exit_mmap(&c, mm);
	assert_invariants(m);
	machine_destroy(m);
}

static void test_first_touch(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(1);
	struct mm_struct *mm = mm_alloc(&c, m), *who;
	uint32_t off[8];
	uint64_t a, where;
	int err;

	g_assert_cmpuint(mm_pid(mm), ==, 1);
	g_assert_true(mm_find(m, 1) == mm);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 1);
	a = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(err, ==, 0);
	g_assert_cmphex(a, ==, MMAP_BASE - 4 * MiB);
	g_assert_cmpuint(pgalloc(m), ==, 1);
	memset(rec.cost, 0, sizeof(rec.cost));

	g_assert_cmpint(handle_mm_fault(&c, mm, a + 5 * PG + 123, true), ==, 0);
	g_assert_cmpuint(pgalloc(m), ==, 5);
	g_assert_cmpuint(mm_rss(mm), ==, 1);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 4);
	g_assert_cmpuint(rec.cost[COST_FAULT], ==, 1);
	g_assert_cmpuint(rec.cost[COST_PTE], ==, 4);      /* PGD, PUD, PMD entries and the PTE */
	g_assert_cmpuint(rec.cost[COST_ZERO_PAGE], ==, 4);
	g_assert_cmpuint(rec.cost[COST_ZERO_PMD_PAGE] + rec.cost[COST_ZERO_PUD_PAGE], ==, 0);

	g_assert_cmpuint(owned(m, make_owner(OWNER_KIND_PGTABLE, 1), off, 8), ==, 4);
	g_assert_cmphex(off[0], ==, 1u << 28 | (uint32_t)(a >> 21));
	g_assert_cmphex(off[1], ==, 2u << 28 | (uint32_t)(a >> 30));
	g_assert_cmphex(off[2], ==, 3u << 28 | (uint32_t)(a >> 39));
	g_assert_cmphex(off[3], ==, 4u << 28);
	g_assert_cmpuint(owned(m, make_owner(OWNER_KIND_ANON, 1), off, 8), ==, 1);
	g_assert_cmphex(off[0], ==, (a >> 12) + 5);

	pfn_t pfn = follow_page(mm, a + 5 * PG);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_cmpuint(follow_page(mm, a + 6 * PG), ==, PFN_NONE);
	g_assert_true(rmap_walk_anon(m, pfn, &who, &where));
	g_assert_true(who == mm);
	g_assert_cmphex(where, ==, a + 5 * PG);

	/* A present page takes no fault and costs nothing. */
	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 5 * PG, false), ==, 0);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 5 * PG, true), ==, 0);
	g_assert_cmpuint(pgalloc(m), ==, 5);
	for (int k = 0; k < NR_MM_COSTS; k++)
		g_assert_cmpuint(rec.cost[k], ==, 0);
	assert_mm_ok(m);
	exit_mmap(&c, mm);
	g_assert_null(mm_find(m, 1));
	g_assert_false(rmap_walk_anon(m, pfn, &who, &where));
	machine_destroy(m);
}

/* 513 pages from a 2 MiB boundary need two PTE tables. */
static void test_513_pages(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted = 0;
	int err;
	uint64_t a = mmap_anon(mm, 8 * MiB, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpuint(a % (2 * MiB), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a, 513 * PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 513);
	g_assert_cmpuint(mm_rss(mm), ==, 513);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 5);
	/* Touching again faults nothing in. */
	g_assert_cmpint(touch_range(&c, mm, a, 513 * PG, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);     /* mm_free_all frees the live process */
}

/* munmap of a whole 2 MiB-aligned 4 MiB region frees its pages and its two
 * PTE tables, and the PMD and PUD tables when nothing else is under them. */
static void test_munmap_frees_tables(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	unsigned long free0 = machine_free_pages(m);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted, a, b;
	uint32_t off[8];
	int err;

	a = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 4 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1024);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 5);
	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(do_munmap(&c, mm, a, 4 * MiB), ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 0);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 1);
	g_assert_cmpuint(mm_map_count(mm), ==, 0);
	g_assert_cmpuint(rec.cost[COST_TLB_FLUSH], ==, 1);
	/* 1024 PTEs, then the PMD, PUD and PGD entries of the freed tables. */
	g_assert_cmpuint(rec.cost[COST_PTE], ==, 1024 + 4);
	g_assert_cmpuint(owned(m, make_owner(OWNER_KIND_ANON, 1), off, 8), ==, 0);
	g_assert_cmpuint(owned(m, make_owner(OWNER_KIND_PGTABLE, 1), off, 8), ==, 1);
	drain_all_pages(&c, m, NULL);
	g_assert_cmpuint(machine_free_pages(m), ==, free0 - 1);
	/* Unmapping nothing flushes nothing. */
	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(do_munmap(&c, mm, a, 4 * MiB), ==, 0);
	g_assert_cmpuint(rec.cost[COST_TLB_FLUSH], ==, 0);

	/* With another mapping under the same PMD table, only the PTE tables
	 * of the unmapped region go. */
	a = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	b = mmap_anon(mm, 4 * MiB, PROT_READ, &err);
	g_assert_cmphex(b, ==, a - 4 * MiB);
	g_assert_cmpuint(mm_map_count(mm), ==, 2);
	g_assert_cmpint(touch_range(&c, mm, a, 4 * MiB, &faulted), ==, 0);
	g_assert_cmpint(handle_mm_fault(&c, mm, b, false), ==, 0);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 6);
	g_assert_cmpint(do_munmap(&c, mm, a, 4 * MiB), ==, 0);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 4);
	g_assert_cmpuint(mm_rss(mm), ==, 1);

	/* A hole in the middle splits the VMA; the PTE table that still maps
	 * part of it stays. */
	g_assert_cmpint(do_munmap(&c, mm, b + 1 * MiB, 1 * MiB), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 2);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 4);
	g_assert_cmpint(handle_mm_fault(&c, mm, b + 1 * MiB, false), ==, -MM_EFAULT);
	g_assert_cmpint(handle_mm_fault(&c, mm, b + 2 * MiB, false), ==, 0);
	/* Errors. */
	g_assert_cmpint(do_munmap(&c, mm, b + 1, PG), ==, -MM_EINVAL);
	g_assert_cmpint(do_munmap(&c, mm, b, 0), ==, -MM_EINVAL);
	g_assert_cmpint(do_munmap(&c, mm, b, TASK_SIZE), ==, -MM_EINVAL);
	assert_mm_ok(m);
	exit_mmap(&c, mm);
	drain_all_pages(&c, m, NULL);
	g_assert_cmpuint(machine_free_pages(m), ==, free0);
	assert_invariants(m);
	machine_destroy(m);
}

static void test_madv_dontneed(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_PCP_BUDDY);
	struct mm_ctx c = cpu_ctx(2);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted, a;
	uint32_t off[8];
	int err;

	a = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 4 * MiB, &faulted), ==, 0);
	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(do_madvise(&c, mm, a, 4 * MiB, MADV_DONTNEED), ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 0);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 5);
	g_assert_cmpuint(mm_map_count(mm), ==, 1);
	g_assert_cmpuint(rec.cost[COST_PTE], ==, 1024);
	g_assert_cmpuint(rec.cost[COST_TLB_FLUSH], ==, 1);
	g_assert_cmpuint(owned(m, make_owner(OWNER_KIND_ANON, 1), off, 8), ==, 0);
	/* The range faults in again without new tables. */
	g_assert_cmpint(touch_range(&c, mm, a, 4 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 1024);
	g_assert_cmpuint(mm_pgtable_pages(mm), ==, 5);
	/* Part of the range unmapped: the mapped part is zapped, then -ENOMEM. */
	g_assert_cmpint(do_madvise(&c, mm, a - 2 * MiB, 4 * MiB, MADV_DONTNEED), ==, -MM_ENOMEM);
	g_assert_cmpuint(mm_rss(mm), ==, 512);
	g_assert_cmpint(do_madvise(&c, mm, a + 1, PG, MADV_DONTNEED), ==, -MM_EINVAL);
	g_assert_cmpint(do_madvise(&c, mm, a, PG, 3), ==, -MM_EINVAL);
	g_assert_cmpint(do_madvise(&c, mm, a, 0, MADV_DONTNEED), ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);
}

static void test_madv_free(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted, a;
	int err;

	a = mmap_anon(mm, 64 * PG, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 16 * PG, &faulted), ==, 0);
	unsigned long allocated = pgalloc(m);

	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(do_madvise(&c, mm, a, 64 * PG, MADV_FREE), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 16);
	g_assert_cmpuint(mm_rss(mm), ==, 16);
	g_assert_cmpuint(rec.cost[COST_PTE], ==, 16);
	g_assert_cmpuint(rec.cost[COST_TLB_FLUSH], ==, 1);
	/* A write makes a page dirty again; a read does not. */
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 3 * PG, true), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 15);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 4 * PG, false), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 15);
	g_assert_cmpuint(pgalloc(m), ==, allocated);
	/* Marking again only counts the pages not marked yet. */
	g_assert_cmpint(do_madvise(&c, mm, a, 64 * PG, MADV_FREE), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 16);
	/* Zapped lazy-free pages stop counting. */
	g_assert_cmpint(do_madvise(&c, mm, a, 8 * PG, MADV_DONTNEED), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 8);
	g_assert_cmpuint(mm_rss(mm), ==, 8);
	g_assert_cmpint(do_madvise(&c, mm, a + 64 * PG, PG, MADV_FREE), ==, -MM_ENOMEM);
	assert_mm_ok(m);
	g_assert_cmpint(do_munmap(&c, mm, a, 64 * PG), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);
}

/* Fill a stretch of the stack with a pattern, so that a field of a later
 * call's stack variable left unset reads as garbage, not as zero. */
static void __attribute__((noinline)) poison_stack(void)
{
	volatile unsigned char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

/* MADV_FREE's flush takes the page-table lock of the range it marked, the
 * one the faults there took (its batch once named a lock from whatever
 * the stack held). */
static void test_madv_free_ptl(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted, a;
	int err;

	a = mmap_anon(mm, 64 * PG, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 16 * PG, &faulted), ==, 0);
	struct spinlock *fault_ptl = rec.site_lock[SITE_DO_ANONYMOUS_PAGE];
	g_assert_nonnull(fault_ptl);
	poison_stack();
	g_assert_cmpint(do_madvise(&c, mm, a, 64 * PG, MADV_FREE), ==, 0);
	g_assert_true(rec.site_lock[SITE_ZAP_PTE_RANGE] == fault_ptl);
	g_assert_cmpint(do_munmap(&c, mm, a, 64 * PG), ==, 0);
	machine_destroy(m);
}

/* A re-touch of a PTE table that maps all its pages still acts on each
 * marked entry in the range, and on no other: lazy-free pages on either
 * side of a 64-entry word's edge, and copy-on-write after a fork. */
static void test_touch_full_table(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m), *child;
	uint64_t faulted, a;
	int err;

	a = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	a = (a + 2 * MiB - 1) & ~(2 * MiB - 1);
	g_assert_cmpint(touch_range(&c, mm, a, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(faulted, ==, 512);
	for (unsigned i = 63; i <= 128; i += i == 64 ? 63 : 1)
		g_assert_cmpint(do_madvise(&c, mm, a + i * PG, PG, MADV_FREE), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 4);
	unsigned long allocated = pgalloc(m);

	g_assert_cmpint(touch_range(&c, mm, a + 65 * PG, 62 * PG, &faulted), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 4);
	g_assert_cmpint(touch_range(&c, mm, a + 64 * PG, 63 * PG, &faulted), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 3);
	g_assert_cmpint(touch_range(&c, mm, a, 2 * MiB, &faulted), ==, 0);
	g_assert_cmpuint(mm_lazyfree_pages(mm), ==, 0);
	g_assert_cmpuint(faulted, ==, 0);
	g_assert_cmpuint(pgalloc(m), ==, allocated);
	/* The child's write to the shared pages copies each. */
	child = dup_mm(&c, mm);
	g_assert_nonnull(child);
	allocated = pgalloc(m);
	g_assert_cmpint(touch_range(&c, child, a + 100 * PG, 300 * PG, &faulted), ==, 0);
	g_assert_cmpuint(pgalloc(m) - allocated, >=, 300);
	assert_mm_ok(m);
	machine_destroy(m);
}

/* An mmu_notifier hears of each change a touch would act on, over the
 * range changed, and of nothing after it leaves. */
struct inval_rec {
	struct mmu_notifier n;  /* first */
	unsigned calls;
	uint64_t lo, hi;
};

static void rec_invalidate(struct mmu_notifier *sub, uint64_t start, uint64_t end)
{
	struct inval_rec *r = (struct inval_rec *)sub;

	r->calls++;
	r->lo = MIN(r->lo, start);
	r->hi = MAX(r->hi, end);
}

static void expect_invalidated(struct inval_rec *r, uint64_t start, uint64_t end)
{
	g_assert_cmpuint(r->calls, >, 0);
	g_assert_cmpuint(r->lo, <=, start);
	g_assert_cmpuint(r->hi, >=, end);
	*r = (struct inval_rec){ .n = r->n, .lo = UINT64_MAX };
}

static void test_mmu_notifier(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m), *child;
	struct inval_rec r = { .n.invalidate_range_start = rec_invalidate, .lo = UINT64_MAX };
	uint64_t faulted, a;
	int err;

	a = mmap_anon(mm, 64 * PG, PROT_READ | PROT_WRITE, &err);
	mmu_notifier_register(mm, &r.n);
	g_assert_cmpint(touch_range(&c, mm, a, 64 * PG, &faulted), ==, 0);
	g_assert_true(touch_range_resident(&c, mm));
	g_assert_cmpuint(r.calls, ==, 0);
	g_assert_cmpint(do_mprotect(&c, mm, a, 8 * PG, PROT_READ), ==, 0);
	expect_invalidated(&r, a, a + 8 * PG);
	g_assert_cmpint(do_mprotect(&c, mm, a, 8 * PG, PROT_READ | PROT_WRITE), ==, 0);
	r = (struct inval_rec){ .n = r.n, .lo = UINT64_MAX };
	g_assert_cmpint(do_madvise(&c, mm, a + 8 * PG, 8 * PG, MADV_FREE), ==, 0);
	expect_invalidated(&r, a + 8 * PG, a + 16 * PG);
	g_assert_cmpint(do_madvise(&c, mm, a + 16 * PG, 8 * PG, MADV_DONTNEED), ==, 0);
	expect_invalidated(&r, a + 16 * PG, a + 24 * PG);
	child = dup_mm(&c, mm);
	g_assert_nonnull(child);
	expect_invalidated(&r, a, a + 64 * PG);
	exit_mmap(&c, child);
	g_assert_cmpuint(r.calls, ==, 0);
	g_assert_cmpint(do_munmap(&c, mm, a + 32 * PG, 8 * PG), ==, 0);
	expect_invalidated(&r, a + 32 * PG, a + 40 * PG);
	mmu_notifier_unregister(mm, &r.n);
	g_assert_cmpint(do_munmap(&c, mm, a, 64 * PG), ==, 0);
	g_assert_cmpuint(r.calls, ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);
}

static void test_mprotect(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t faulted, a, s, e;
	int err, prot;

	a = mmap_anon(mm, 16 * PG, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 6 * PG, &faulted), ==, 0);
	memset(rec.cost, 0, sizeof(rec.cost));
	g_assert_cmpint(do_mprotect(&c, mm, a + 4 * PG, 4 * PG, PROT_NONE), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	/* Pages 4 and 5 were present: their entries are rewritten. */
	g_assert_cmpuint(rec.cost[COST_PTE], ==, 2);
	g_assert_cmpuint(rec.cost[COST_TLB_FLUSH], ==, 1);
	g_assert_cmpuint(mm_rss(mm), ==, 6);
	g_assert_true(mm_find_vma(mm, a + 4 * PG, &s, &e, &prot));
	g_assert_cmphex(s, ==, a + 4 * PG);
	g_assert_cmphex(e, ==, a + 8 * PG);
	g_assert_cmpint(prot, ==, PROT_NONE);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 5 * PG, false), ==, -MM_EACCES);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 7 * PG, true), ==, -MM_EACCES);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 8 * PG, true), ==, 0);
	g_assert_cmpint(handle_mm_fault(&c, mm, a - PG, false), ==, -MM_EFAULT);
	g_assert_cmpint(handle_mm_fault(&c, mm, 0, false), ==, -MM_EFAULT);
	g_assert_cmpint(handle_mm_fault(&c, mm, TASK_SIZE + PG, false), ==, -MM_EFAULT);
	assert_mm_ok(m);

	/* Read-only: reads fault in, writes are refused. */
	g_assert_cmpint(do_mprotect(&c, mm, a + 4 * PG, 4 * PG, PROT_READ), ==, 0);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 6 * PG, false), ==, 0);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + 7 * PG, true), ==, -MM_EACCES);
	/* Back to read-write, the three VMAs merge again. */
	g_assert_cmpint(do_mprotect(&c, mm, a + 4 * PG, 4 * PG, PROT_READ | PROT_WRITE), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 1);
	/* The range must be mapped; the part before the hole is changed. */
	g_assert_cmpint(do_mprotect(&c, mm, a + 8 * PG, 16 * PG, PROT_READ), ==, -MM_ENOMEM);
	g_assert_cmpuint(mm_map_count(mm), ==, 2);
	g_assert_cmpint(do_mprotect(&c, mm, a - PG, 2 * PG, PROT_READ), ==, -MM_ENOMEM);
	g_assert_cmpint(do_mprotect(&c, mm, a + 1, PG, PROT_READ), ==, -MM_EINVAL);
	g_assert_cmpint(do_mprotect(&c, mm, a, PG, 0x40), ==, -MM_EINVAL);
	g_assert_cmpint(do_mprotect(&c, mm, a, 0, PROT_READ), ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 8);
	assert_mm_ok(m);
	machine_destroy(m);
}

/* MAP_FIXED: the range's old VMAs and pages go, the new VMA merges with
 * neighbours of its protection, and the edges are checked. */
static void test_mmap_fixed(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a = 1ULL << 32, faulted, s, e;
	int prot;

	g_assert_cmpint(vm_mmap_fixed(&c, mm, a, 16 * PG, PROT_READ | PROT_WRITE), ==, 0);
	g_assert_cmpint(touch_range(&c, mm, a, 16 * PG, &faulted), ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 16);
	/* Over the middle: its 4 pages freed, the VMA split in three. */
	g_assert_cmpint(vm_mmap_fixed(&c, mm, a + 4 * PG, 4 * PG, PROT_READ), ==, 0);
	g_assert_cmpuint(mm_rss(mm), ==, 12);
	g_assert_cmpuint(follow_page(mm, a + 5 * PG), ==, PFN_NONE);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	/* The same protection again: one VMA. */
	g_assert_cmpint(vm_mmap_fixed(&c, mm, a + 4 * PG, 4 * PG, PROT_READ | PROT_WRITE), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 1);
	g_assert_true(mm_find_vma(mm, a, &s, &e, &prot));
	g_assert_cmphex(s, ==, a);
	g_assert_cmphex(e, ==, a + 16 * PG);
	g_assert_cmpint(vm_mmap_fixed(&c, mm, a + 1, PG, PROT_READ), ==, -MM_EINVAL);
	g_assert_cmpint(vm_mmap_fixed(&c, mm, 0, PG, PROT_READ), ==, -MM_ENOMEM);
	g_assert_cmpint(vm_mmap_fixed(&c, mm, TASK_SIZE - PG, 2 * PG, PROT_READ), ==, -MM_ENOMEM);
	g_assert_cmpint(vm_mmap_fixed(&c, mm, TASK_SIZE - PG, PG, PROT_READ), ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);
}

/* Top-down placement from mmap_base, reusing holes from the top. */
static void test_mmap_placement(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&c, m);
	uint64_t a, b, d, s, e;
	int err, prot;

	a = mmap_anon(mm, 1, PROT_READ, &err);
	g_assert_cmphex(a, ==, MMAP_BASE - PG);
	b = mmap_anon(mm, 3 * PG, PROT_READ | PROT_WRITE, &err);
	g_assert_cmphex(b, ==, a - 3 * PG);
	d = mmap_anon(mm, 2 * PG, PROT_READ | PROT_WRITE, &err);
	g_assert_cmphex(d, ==, b - 2 * PG);
	/* Same protection and adjacent: one VMA, as the kernel merges them. */
	g_assert_cmpuint(mm_map_count(mm), ==, 2);
	g_assert_true(mm_find_vma(mm, 0, &s, &e, &prot));
	g_assert_cmphex(s, ==, d);
	g_assert_cmphex(e, ==, a);
	g_assert_cmpint(do_munmap(&c, mm, b, PG), ==, 0);
	/* The hole is the highest gap that fits one page... */
	g_assert_cmphex(mmap_anon(mm, PG, PROT_NONE, &err), ==, b);
	/* ...but not two. */
	g_assert_cmphex(mmap_anon(mm, 2 * PG, PROT_NONE, &err), ==, d - 2 * PG);
	g_assert_false(mm_find_vma(mm, MMAP_BASE, &s, &e, &prot));

	g_assert_cmpuint(mmap_anon(mm, 0, PROT_READ, &err), ==, 0);
	g_assert_cmpint(err, ==, -MM_EINVAL);
	mmap_anon(mm, PG, 0x40, &err);
	g_assert_cmpint(err, ==, -MM_EINVAL);
	mmap_anon(mm, TASK_SIZE, PROT_READ, &err);
	g_assert_cmpint(err, ==, -MM_ENOMEM);
	/* Everything below the lowest mapping fits, one page more does not. */
	uint64_t room = d - 2 * PG - MMAP_MIN_ADDR;

	mmap_anon(mm, room + PG, PROT_READ, &err);
	g_assert_cmpint(err, ==, -MM_ENOMEM);
	g_assert_cmphex(mmap_anon(mm, room, PROT_READ, &err), ==, MMAP_MIN_ADDR);
	g_assert_cmpint(err, ==, 0);
	assert_mm_ok(m);
	machine_destroy(m);
}

/* Two processes at the same virtual addresses: the reverse map tells their
 * pages apart; exit gives every page back. */
static void test_rmap_and_exit(void)
{
	struct machine *m = machine_of(1 * GiB, POLICY_PCP_BUDDY);
	struct mm_ctx c0 = cpu_ctx(0), c3 = cpu_ctx(3);
	unsigned long free0 = machine_free_pages(m);
	struct mm_struct *p = mm_alloc(&c0, m), *q = mm_alloc(&c3, m), *who;
	uint64_t a, b, faulted, where;
	int err;

	g_assert_cmpuint(mm_pid(q), ==, 2);
	a = mmap_anon(p, 3 * MiB, PROT_READ | PROT_WRITE, &err);
	b = mmap_anon(q, 3 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmphex(a, ==, b);
	g_assert_cmpint(touch_range(&c0, p, a, 3 * MiB, &faulted), ==, 0);
	g_assert_cmpint(touch_range(&c3, q, b, 3 * MiB, &faulted), ==, 0);
	for (uint64_t off = 0; off < 3 * MiB; off += 97 * PG) {
		pfn_t pp = follow_page(p, a + off), pq = follow_page(q, b + off);

		g_assert_cmpuint(pp, !=, pq);
		g_assert_true(rmap_walk_anon(m, pp, &who, &where));
		g_assert_true(who == p);
		g_assert_cmphex(where, ==, a + off);
		g_assert_true(rmap_walk_anon(m, pq, &who, &where));
		g_assert_true(who == q);
	}
	/* Not anonymous pages: a page table, a free frame, a frame past the end. */
	uint32_t owner;
	pfn_t pgtable = PFN_NONE;

	for (pfn_t pfn = 0; pfn < m->mm.nr_frames && pgtable == PFN_NONE; pfn++) {
		if (page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
			continue;
		owner = page_owner(m, pfn);
		if (owner_kind(owner) == OWNER_KIND_PGTABLE)
			pgtable = pfn;
	}
	g_assert_false(rmap_walk_anon(m, pgtable, &who, &where));
	g_assert_false(rmap_walk_anon(m, m->mm.nr_frames, &who, &where));
	/* A migration's rewrite of a mapping needs the page it names there:
	 * q's page at b is not p's, so nothing changes. */
	pfn_t pa = follow_page(p, a), qb = follow_page(q, b);

	g_assert_false(rmap_replace_anon(p, a, qb, pgtable));
	g_assert_cmpuint(follow_page(p, a), ==, pa);
	assert_mm_ok(m);

	exit_mmap(&c0, p);
	g_assert_null(mm_find(m, 1));
	g_assert_true(mm_find(m, 2) == q);
	assert_mm_ok(m);
	exit_mmap(&c3, q);
	drain_all_pages(&c0, m, NULL);
	g_assert_cmpuint(machine_pcp_pages(m), ==, 0);
	g_assert_cmpuint(machine_free_pages(m), ==, free0);
	assert_invariants(m);
	/* Pids are not reused. */
	p = mm_alloc(&c0, m);
	g_assert_cmpuint(mm_pid(p), ==, 3);
	machine_destroy(m);
}

/* Filling a small machine: -ENOMEM, a consistent process, and exit still
 * gives everything back. */
static void test_enomem(void)
{
	struct machine *m = machine_of(128 * MiB, POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	unsigned long free0 = machine_free_pages(m);
	struct mm_struct *mm = mm_alloc(&c, m), *other = mm_alloc(&c, m);
	uint64_t a, faulted = 0, b;
	int err;

	a = mmap_anon(mm, 256 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(&c, mm, a, 256 * MiB, &faulted), ==, -MM_ENOMEM);
	g_assert_cmpuint(faulted, >, 0);
	g_assert_cmpuint(faulted, <, 32768);
	g_assert_cmpuint(mm_rss(mm), ==, faulted);
	g_assert_cmpint(handle_mm_fault(&c, mm, a + faulted * PG, true), ==, -MM_ENOMEM);
	/* A fault that needs new tables fails as well, leaving no half walk. */
	b = mmap_anon(other, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(handle_mm_fault(&c, other, b, true), ==, -MM_ENOMEM);
	g_assert_cmpuint(mm_rss(other), ==, 0);
	assert_mm_ok(m);
	g_test_message("%" G_GUINT64_FORMAT " pages faulted before ENOMEM, %lu page tables",
		       faulted, mm_pgtable_pages(mm));
	exit_mmap(&c, mm);
	/* Memory is back: the other process can fault now. */
	g_assert_cmpint(handle_mm_fault(&c, other, b, true), ==, 0);
	exit_mmap(&c, other);
	drain_all_pages(&c, m, NULL);
	g_assert_cmpuint(machine_free_pages(m), ==, free0);
	assert_invariants(m);
	machine_destroy(m);
}

/* Randomized: processes doing random mmap, touch, munmap, madvise and
 * mprotect calls, while a random call on a random process cuts into a
 * third of the places where a simulated thread could be switched out. */
#define NR_PROCS 4
#define RANDOM_OPS 20000

static struct {
	struct machine *m;
	struct mm_struct *procs[NR_PROCS];
	GRand *rand;
	unsigned long cut_ins;
	unsigned long results[6][MM_EINVAL + 1];
	bool fork;              /* forks too (random-fork) */
	unsigned long forks, shared_seen, thp_shared;
} rs;

/* An address in or next to a mapping, and a length mostly within it. */
static uint64_t random_range(struct mm_struct *mm, uint64_t *len)
{
	uint64_t probe = MMAP_BASE - (uint64_t)g_rand_int_range(rs.rand, 0, 32768) * PG;
	uint64_t s, e, addr;
	int prot;

	*len = (uint64_t)g_rand_int_range(rs.rand, 1, 1100) * PG;
	if (!mm_find_vma(mm, probe, &s, &e, &prot))
		return probe;
	addr = s + (uint64_t)g_rand_int_range(rs.rand, -4, (gint32)((e - s) / PG)) * PG;
	if (addr >= s && addr < e && g_rand_int_range(rs.rand, 0, 4))
		*len = MIN(*len, e - addr);
	return addr;
}

/* fork at the top level (not in a cut-in, which could be inside a call on
 * the process it would end): the child takes the place of another process,
 * which exits. */
static int random_fork(struct mm_ctx *ctx, unsigned parent)
{
	unsigned victim = (parent + 1 + (unsigned)g_rand_int_range(rs.rand, 0, NR_PROCS - 1)) %
			  NR_PROCS;
	struct mm_struct *child, *old;

	if (rec.depth)
		return 0;
	child = dup_mm(ctx, rs.procs[parent]);
	if (!child)
		return -MM_ENOMEM;
	rs.forks++;
	rs.shared_seen += mm_shared_pages(child) != 0;
	rs.thp_shared += mm_thp_mappings(child, THP_PMD) != 0;
	/* Replaced first: no cut-in may pick a process that is exiting. */
	old = rs.procs[victim];
	rs.procs[victim] = child;
	exit_mmap(ctx, old);
	return 0;
}

static void random_op(struct mm_ctx *ctx)
{
	/* mmap, touch, munmap, madvise, mprotect, fork */
	static const int weights[] = { 15, 40, 12, 15, 18, 0 };
	static const int fork_weights[] = { 15, 40, 12, 15, 16, 2 };
	static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
				     PROT_READ | PROT_WRITE };
	unsigned who = (unsigned)g_rand_int_range(rs.rand, 0, NR_PROCS);
	struct mm_struct *mm = rs.procs[who];
	uint64_t len, addr = random_range(mm, &len), faulted;
	int op = 0, err, w = g_rand_int_range(rs.rand, 0, 100);
	const int *wt = rs.fork ? fork_weights : weights;

	while (w >= wt[op])
		w -= wt[op++];
	ctx->cpu = (unsigned)g_rand_int_range(rs.rand, 0, 4);
	switch (op) {
	case 0:
		/* With forks, half the mappings 2 MiB multiples, which THPs fill. */
		if (rs.fork && g_rand_boolean(rs.rand))
			len = (len + (2 * MiB - 1)) & ~(2 * MiB - 1);
		mmap_anon(mm, len, prots[g_rand_int_range(rs.rand, 1, 4)], &err);
		break;
	case 1:
		err = touch_range(ctx, mm, addr, len, &faulted);
		break;
	case 2:
		err = do_munmap(ctx, mm, addr, len);
		break;
	case 3:
		err = do_madvise(ctx, mm, addr, len,
				 g_rand_boolean(rs.rand) ? MADV_DONTNEED : MADV_FREE);
		break;
	case 5:
		err = random_fork(ctx, who);
		break;
	default:
		err = do_mprotect(ctx, mm, addr, len, prots[g_rand_int_range(rs.rand, 0, 4)]);
		break;
	}
	rs.results[op][-err]++;
}

static void random_cut_in(struct mm_ctx *ctx)
{
	struct mm_ctx other = *ctx;

	if (g_rand_int_range(rs.rand, 0, 3))
		return;
	rs.cut_ins++;
	random_op(&other);
}

static void random_run(enum mm_policy policy, bool fork, enum thp_enabled thp)
{
	struct mm_ctx c = cpu_ctx(0);
	unsigned long free0;

	rs.m = machine_of(128 * MiB, policy);
	if (fork)
		rs.m->thp = thp;
	rs.rand = g_rand_new_with_seed(7);
	rs.cut_ins = 0;
	rs.fork = fork;
	rs.forks = rs.shared_seen = rs.thp_shared = 0;
	memset(rs.results, 0, sizeof(rs.results));
	free0 = machine_free_pages(rs.m);
	for (int i = 0; i < NR_PROCS; i++)
		rs.procs[i] = mm_alloc(&c, rs.m);
	rec.cut_in = random_cut_in;
	for (int op = 1; op <= RANDOM_OPS; op++) {
		random_op(&c);
		if (op % 500 == 0) {
			rec.cut_in = NULL;
			assert_mm_ok(rs.m);
			rec.cut_in = random_cut_in;
		}
	}
	rec.cut_in = NULL;
	assert_mm_ok(rs.m);
	g_test_message("%lu cut-ins; touch ok %lu, ENOMEM %lu, EFAULT %lu, EACCES %lu",
		       rs.cut_ins, rs.results[1][0], rs.results[1][MM_ENOMEM],
		       rs.results[1][MM_EFAULT], rs.results[1][MM_EACCES]);
	/* Every kind of call must have succeeded and failed somewhere. */
	g_assert_cmpuint(rs.cut_ins, >, 1000);
	g_assert_cmpuint(rs.results[1][0], >, 0);
	g_assert_cmpuint(rs.results[1][MM_ENOMEM], >, 0);
	g_assert_cmpuint(rs.results[1][MM_EACCES], >, 0);
	g_assert_cmpuint(rs.results[3][MM_ENOMEM], >, 0);
	g_assert_cmpuint(rs.results[4][0], >, 0);
	if (fork) {
		g_test_message("%lu forks, %lu sharing pages, %lu sharing THPs; THP faults %lu, "
			       "PMD splits %lu", rs.forks, rs.shared_seen, rs.thp_shared,
			       rs.m->vm_events[THP_FAULT_ALLOC], rs.m->vm_events[THP_SPLIT_PMD]);
		g_assert_cmpuint(rs.forks, >, 50);
		g_assert_cmpuint(rs.shared_seen, >, 10);
		if (thp == THP_ALWAYS)
			g_assert_cmpuint(rs.thp_shared, >, 10);
	}
	for (int i = 0; i < NR_PROCS; i++)
		exit_mmap(&c, rs.procs[i]);
	drain_all_pages(&c, rs.m, NULL);
	g_assert_cmpuint(machine_free_pages(rs.m), ==, free0);
	assert_invariants(rs.m);
	g_rand_free(rs.rand);
	machine_destroy(rs.m);
}

static void test_random(gconstpointer data)
{
	random_run((enum mm_policy)GPOINTER_TO_INT(data), false, THP_MADVISE);
}

/* The same with forks: pages and THPs shared between processes, written
 * (copy-on-write), unmapped and exited in any order, and cut into. */
static void test_random_fork(gconstpointer data)
{
	random_run(POLICY_UPSTREAM, true, (enum thp_enabled)GPOINTER_TO_INT(data));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	recorder_hooks = (struct recorder_hooks){
		.charged = rec_charged, .before_lock = maybe_cut_in,
		.locked = rec_locked, .unlocking = rec_unlocking,
	};
	g_test_add_func("/mm_space/first-touch", test_first_touch);
	g_test_add_func("/mm_space/check-report-cap", test_check_report_cap);
	g_test_add_func("/mm_space/lru-lock-per-node", test_lru_lock_per_node);
	g_test_add_func("/mm_space/513-pages-two-pte-tables", test_513_pages);
	g_test_add_func("/mm_space/munmap-frees-tables", test_munmap_frees_tables);
	g_test_add_func("/mm_space/madv-dontneed", test_madv_dontneed);
	g_test_add_func("/mm_space/madv-free", test_madv_free);
	g_test_add_func("/mm_space/madv-free-ptl", test_madv_free_ptl);
	g_test_add_func("/mm_space/touch-full-table", test_touch_full_table);
	g_test_add_func("/mm_space/mmu-notifier", test_mmu_notifier);
	g_test_add_func("/mm_space/mprotect", test_mprotect);
	g_test_add_func("/mm_space/mmap-placement", test_mmap_placement);
	g_test_add_func("/mm_space/mmap-fixed", test_mmap_fixed);
	g_test_add_func("/mm_space/rmap-and-exit", test_rmap_and_exit);
	g_test_add_func("/mm_space/enomem", test_enomem);
	g_test_add_data_func("/mm_space/random/upstream", GINT_TO_POINTER(POLICY_UPSTREAM),
			     test_random);
	g_test_add_data_func("/mm_space/random/pcp_buddy", GINT_TO_POINTER(POLICY_PCP_BUDDY),
			     test_random);
	g_test_add_data_func("/mm_space/random-fork/4k", GINT_TO_POINTER(THP_NEVER),
			     test_random_fork);
	g_test_add_data_func("/mm_space/random-fork/thp", GINT_TO_POINTER(THP_ALWAYS),
			     test_random_fork);
	return g_test_run();
}
