/* Page migration, hand-worked on small machines: an anonymous page moves
 * to the destination the callback gave and its process maps it there; a
 * page-cache page keeps its file index and LRU slot; kernel pages refuse;
 * pinned pages stay and count in pgmigrate_fail; each step charges its
 * named cost the expected number of times.  The invariant checker and the
 * address-space checker run after every case. */
#include "helpers.h"
#include "models/huge_memory.h"
#include "models/kvmalloc.h"
#include "models/mempolicy.h"
#include "models/migrate.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/page_cache.h"
#include "models/pcp.h"

#include <string.h>

#define PG 4096ULL

/* An engine stand-in that takes no time and counts what was charged. */
static unsigned long cost[NR_MM_COSTS];

static void rec_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	(void)ctx;
	cost[kind] += n;
}

static struct mm_env recorder_env;

static struct mm_ctx cpu_ctx(unsigned cpu)
{
	recorder_env = mm_env_null;
	recorder_env.charge = rec_charge;
	return (struct mm_ctx){ .env = &recorder_env, .cpu = cpu };
}

static struct machine *machine_of(unsigned sockets, uint64_t mem_per_node, double pinned,
				  uint64_t seed)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct machine *m;

	topology_uniform(&t, sockets, 1, 4, mem_per_node);
	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	p.pinned_share = pinned;
	p.pin_seed = seed;
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	return m;
}

static void reset_costs(void)
{
	memset(cost, 0, sizeof(cost));
}

/* The callback of the tests: a movable page on node 0, remembered. */
struct target {
	int calls;
	int fail_after;         /* calls that succeed before PFN_NONE; -1: never fail */
	pfn_t last;
};

static pfn_t give_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	struct target *t = private;

	(void)src;
	if (t->fail_after >= 0 && t->calls >= t->fail_after)
		return PFN_NONE;
	t->calls++;
	t->last = __alloc_pages(ctx, m, GFP_HIGHUSER_MOVABLE, 0, 0, OWNER_NONE, 0);
	return t->last;
}

/* The order of the free buddy block holding pfn, or -1. */
static int free_block_order(struct machine *m, pfn_t pfn)
{
	for (unsigned o = 0; o <= MAX_PAGE_ORDER; o++) {
		pfn_t head = pfn & ~((1u << o) - 1);

		if (PageBuddy(&m->mm, head) && page_order(&m->mm, head) >= o)
			return (int)page_order(&m->mm, head);
	}
	return -1;
}

/* The largest aligned block around pfn, within its zone, holding no
 * allocated frame: where a free pfn must have merged to. */
static int expected_merge_order(struct machine *m, pfn_t pfn)
{
	struct zone *z = pfn_zone(m, pfn);
	int best = 0;

	for (unsigned o = 0; o <= MAX_PAGE_ORDER; o++) {
		pfn_t head = pfn & ~((1u << o) - 1);
		bool free = zone_spans_pfn(z, head) && zone_spans_pfn(z, head + (1u << o) - 1);

		for (pfn_t p = head; free && p < head + (1u << o); p++)
			free = page_kind(&m->mm, p) != PG_KIND_ALLOC;
		if (!free)
			break;
		best = (int)o;
	}
	return best;
}

/* The first allocated block with this owner, or PFN_NONE. */
static pfn_t find_owned(struct machine *m, uint32_t owner)
{
	for (pfn_t pfn = 0; pfn < m->mm.nr_frames; pfn++)
		if (page_kind(&m->mm, pfn) == PG_KIND_ALLOC && page_owner(m, pfn) == owner)
			return pfn;
	return PFN_NONE;
}

/* One anonymous page: isolated, moved to the callback's page, remapped;
 * the owner record moves, the old frame is freed and merges with its free
 * neighbours; the costs are one of each step and one flush. */
static void test_anon_page(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct target t = { .fail_after = -1 };
	enum migrate_status st;
	struct migrate_stats stats = { 0 };
	int err;
	uint64_t addr = mmap_anon(mm, 4 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(handle_mm_fault(&ctx, mm, addr + PG, true), ==, 0);
	pfn_t src = follow_page(mm, addr + PG);
	g_assert_cmpuint(src, !=, PFN_NONE);
	reset_costs();
	g_assert_true(isolate_migratepage(&ctx, m, src));
	g_assert_cmpint(migrate_pages(&ctx, m, &src, 1, give_target, NULL, &t, MIGRATE_ASYNC, MR_COMPACTION, &st,
				      &stats), ==, 0);
	putback_movable_pages(&ctx, &st, 1);
	g_assert_cmpint(st, ==, MIGRATE_MOVED);
	g_assert_cmpint(t.calls, ==, 1);
	g_assert_cmpuint(follow_page(mm, addr + PG), ==, t.last);
	g_assert_cmpuint(page_owner(m, t.last), ==, make_owner(OWNER_KIND_ANON, mm_pid(mm)));
	g_assert_cmpuint(page_owner_offset(m, t.last), ==, (addr + PG) / PG);
	g_assert_cmpuint(page_kind(&m->mm, src), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(mm_rss(mm), ==, 1);
	g_assert_cmpuint(stats.nr_succeeded, ==, 1);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 1);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 0);
	/* Isolation and the new page's LRU add; one unmap, copy and remap; the
	 * process ran on CPU 0 only: one CPU flushed. */
	g_assert_cmpuint(cost[COST_MIGRATE_ISOLATE], ==, 2);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY_REMOTE], ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_REMAP], ==, 1);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 1);
	/* The old frame sits on CPU 0's pageset; drained, it merges as far as
	 * its allocated neighbours (the new page among them) allow. */
	drain_all_pages(&ctx, m, NULL);
	g_assert_cmpint(free_block_order(m, src), ==, expected_merge_order(m, src));
	assert_all_ok(m);
	/* The moved page is an ordinary page of the process: exit frees it,
	 * and with the machine empty again the old frame is back in a
	 * MAX_PAGE_ORDER block. */
	exit_mmap(&ctx, mm);
	g_assert_cmpuint(page_kind(&m->mm, t.last), !=, PG_KIND_ALLOC);
	drain_all_pages(&ctx, m, NULL);
	g_assert_cmpint(free_block_order(m, src), ==, MAX_PAGE_ORDER);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Two processes, one of them run on two CPUs: one batch flushes each
 * address space once, on every CPU it ran on. */
static void test_tlb_flush_per_mm(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 0, 1);
	struct mm_ctx c0 = cpu_ctx(0), c2 = cpu_ctx(2);
	struct mm_struct *a = mm_alloc(&c0, m), *b = mm_alloc(&c0, m);
	struct target t = { .fail_after = -1 };
	pfn_t pfns[5];
	int err;
	uint64_t va = mmap_anon(a, 4 * PG, PROT_READ | PROT_WRITE, &err);
	uint64_t vb = mmap_anon(b, 4 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(touch_range(&c0, a, va, 2 * PG, NULL), ==, 0);
	g_assert_cmpint(touch_range(&c2, a, va + 2 * PG, 2 * PG, NULL), ==, 0);
	g_assert_cmpint(touch_range(&c0, b, vb, PG, NULL), ==, 0);
	for (unsigned i = 0; i < 4; i++)
		pfns[i] = follow_page(a, va + i * PG);
	pfns[4] = follow_page(b, vb);
	reset_costs();
	g_assert_cmpint(migrate_pages(&c0, m, pfns, 5, give_target, NULL, &t, MIGRATE_ASYNC, MR_COMPACTION, NULL,
				      NULL), ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 5);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 5);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 2 + 1);
	for (unsigned i = 0; i < 4; i++)
		g_assert_cmpuint(follow_page(a, va + i * PG), !=, pfns[i]);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A page-cache page keeps its file and index and its LRU slot: reclaim
 * still takes the three pages oldest first. */
static void test_page_cache_page(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(1);
	struct target t = { .fail_after = -1 };
	pfn_t p[3];
	enum migrate_status st;

	for (unsigned i = 0; i < 3; i++)
		p[i] = page_cache_add(&ctx, m, 0, 7, 41 + i);
	reset_costs();
	g_assert_true(isolate_migratepage(&ctx, m, p[1]));
	g_assert_cmpint(migrate_pages(&ctx, m, &p[1], 1, give_target, NULL, &t, MIGRATE_ASYNC, MR_COMPACTION, &st,
				      NULL), ==, 0);
	g_assert_cmpint(st, ==, MIGRATE_MOVED);
	g_assert_cmpuint(page_owner(m, t.last), ==, make_owner(OWNER_KIND_FILE, 7));
	g_assert_cmpuint(page_owner_offset(m, t.last), ==, 42);
	g_assert_cmpuint(page_kind(&m->mm, p[1]), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(page_cache_pages(m, 0), ==, 3);
	/* Not mapped: no unmap and no flush. */
	g_assert_cmpuint(cost[COST_MIGRATE_ISOLATE], ==, 2);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_REMAP], ==, 1);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 0);
	/* The two oldest go: index 41, then the moved index 42. */
	g_assert_cmpuint(shrink_page_cache(&ctx, m, 0, 2, false, DEF_PRIORITY), ==, 2);
	g_assert_cmpuint(page_kind(&m->mm, p[0]), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(page_kind(&m->mm, t.last), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(page_kind(&m->mm, p[2]), ==, PG_KIND_ALLOC);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Page tables, kvmalloc and other kernel pages, free frames and a pfn
 * listed twice fail isolation: not movable, nothing charged for them, not
 * in pgmigrate_fail. */
static void test_not_movable(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct kvmalloc_area area;
	struct migrate_stats stats = { 0 };
	enum migrate_status st[6];
	int err;
	uint64_t addr = mmap_anon(mm, PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(handle_mm_fault(&ctx, mm, addr, true), ==, 0);
	g_assert_cmpint(kvmalloc_node(&ctx, m, 64 * PG, 0, false, &area), ==, 0);
	pfn_t anon = follow_page(mm, addr);
	pfn_t pfns[6] = {
		find_owned(m, make_owner(OWNER_KIND_PGTABLE, mm_pid(mm))),
		area.block != PFN_NONE ? area.block : area.pages[0],
		__alloc_pages(&ctx, m, GFP_KERNEL, 0, 0, make_owner(OWNER_KIND_KERNEL, 3), 0),
		anon,
		anon,
		PFN_NONE,
	};
	/* A frame no one holds: the one after the kernel page's, drained. */
	drain_all_pages(&ctx, m, NULL);
	for (pfn_t p = pfns[2] + 1; pfns[5] == PFN_NONE; p++)
		if (PageBuddy(&m->mm, p))
			pfns[5] = p;
	g_assert_cmpuint(pfns[0], !=, PFN_NONE);
	reset_costs();
	g_assert_cmpint(migrate_pages_to_node(&ctx, m, pfns, 6, 0, st, &stats), ==, 5);
	g_assert_cmpint(st[0], ==, MIGRATE_NOT_MOVABLE);
	g_assert_cmpint(st[1], ==, MIGRATE_NOT_MOVABLE);
	g_assert_cmpint(st[2], ==, MIGRATE_NOT_MOVABLE);
	g_assert_cmpint(st[3], ==, MIGRATE_MOVED);
	g_assert_cmpint(st[4], ==, MIGRATE_NOT_MOVABLE);
	g_assert_cmpint(st[5], ==, MIGRATE_NOT_MOVABLE);
	g_assert_cmpuint(stats.nr_not_movable, ==, 5);
	g_assert_cmpuint(stats.nr_succeeded, ==, 1);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_ISOLATE], ==, 2);
	g_assert_cmpuint(page_kind(&m->mm, pfns[0]), ==, PG_KIND_ALLOC);
	g_assert_cmpuint(page_kind(&m->mm, pfns[2]), ==, PG_KIND_ALLOC);
	assert_all_ok(m);
	kvfree(&ctx, m, &area);
	machine_destroy(m);
}

/* pinned_share = 1: every anonymous page is pinned.  Migration unmaps,
 * fails and remaps each, frees the destination, and counts the page in
 * pgmigrate_fail; MIGRATE_SYNC tries it once more alone.  munmap drops
 * the pins. */
static void test_pinned(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 1.0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct target t = { .fail_after = -1 };
	struct migrate_stats stats = { 0 };
	enum migrate_status st[2];
	pfn_t pfns[2];
	int err;
	uint64_t addr = mmap_anon(mm, 2 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(touch_range(&ctx, mm, addr, 2 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 2; i++) {
		pfns[i] = follow_page(mm, addr + i * PG);
		g_assert_true(m->mm.flags[pfns[i]].aux & PG_pinned);
	}
	reset_costs();
	g_assert_cmpint(migrate_pages(&ctx, m, pfns, 2, give_target, NULL, &t, MIGRATE_ASYNC, MR_COMPACTION, st,
				      &stats), ==, 2);
	g_assert_cmpint(st[0], ==, MIGRATE_PINNED);
	g_assert_cmpint(st[1], ==, MIGRATE_PINNED);
	g_assert_cmpuint(stats.nr_pinned, ==, 2);
	g_assert_cmpuint(stats.nr_failed_pages, ==, 2);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 2);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 2);
	g_assert_cmpuint(cost[COST_MIGRATE_REMAP], ==, 2);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 0);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 1);
	g_assert_cmpuint(page_kind(&m->mm, t.last), !=, PG_KIND_ALLOC);
	for (unsigned i = 0; i < 2; i++)
		g_assert_cmpuint(follow_page(mm, addr + i * PG), ==, pfns[i]);
	assert_all_ok(m);

	/* The move_pages path: MIGRATE_SYNC retries each page alone (a
	 * second unmap, remap and flush), then puts both back. */
	reset_costs();
	memset(&stats, 0, sizeof(stats));
	g_assert_cmpint(migrate_pages_to_node(&ctx, m, pfns, 2, 0, st, &stats), ==, 2);
	g_assert_cmpuint(stats.nr_pinned, ==, 2);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 4);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 4);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 1 + 2);
	g_assert_cmpuint(cost[COST_MIGRATE_ISOLATE], ==, 2 + 2);
	assert_all_ok(m);
	g_assert_cmpint(do_munmap(&ctx, mm, addr, 2 * PG), ==, 0);
	for (unsigned i = 0; i < 2; i++)
		g_assert_false(m->mm.flags[pfns[i]].aux & PG_pinned);
	assert_all_ok(m);
	machine_destroy(m);
}

/* The pinned pages follow from the seed alone: about pinned_share of
 * them, the same ones for the same seed, others for another seed. */
static unsigned pinned_mask(uint64_t seed, double share, uint8_t *mask, unsigned n)
{
	struct machine *m = machine_of(1, 1 * GiB, share, seed);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	unsigned pinned = 0;
	int err;
	uint64_t addr = mmap_anon(mm, n * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(touch_range(&ctx, mm, addr, n * PG, NULL), ==, 0);
	for (unsigned i = 0; i < n; i++) {
		mask[i] = m->mm.flags[follow_page(mm, addr + i * PG)].aux & PG_pinned ? 1 : 0;
		pinned += mask[i];
	}
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
	return pinned;
}

static void test_pinned_share(void)
{
	enum { N = 2000 };
	static uint8_t a[N], b[N], c[N];
	unsigned na = pinned_mask(1, 0.25, a, N), nb = pinned_mask(1, 0.25, b, N);
	unsigned nc = pinned_mask(2, 0.25, c, N);

	g_assert_cmpuint(na, ==, nb);
	g_assert_cmpmem(a, N, b, N);
	g_assert_cmpuint(na, >, N / 4 - N / 20);
	g_assert_cmpuint(na, <, N / 4 + N / 20);
	g_assert_cmpuint(nc, >, N / 4 - N / 20);
	g_assert_true(memcmp(a, c, N) != 0);
	g_assert_cmpuint(pinned_mask(1, 0, a, 64), ==, 0);
}

static void test_pinned_share_validated(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, 1 * GiB);
	machine_params_default(&p);
	g_assert_true(p.pinned_share == 0);
	p.pinned_share = 1.5;
	g_assert_null(machine_create(&t, &p, &err));
	g_assert_nonnull(strstr(err, "pinned_share"));
	g_free(err);
}

/* The callback runs out on the second page: that page counts as failed,
 * the third is not tried, and migrate_pages says ENOMEM. */
static void test_no_target(void)
{
	struct machine *m = machine_of(1, 1 * GiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct target t = { .fail_after = 1 };
	struct migrate_stats stats = { 0 };
	enum migrate_status st[3];
	pfn_t pfns[3];
	int err;
	uint64_t addr = mmap_anon(mm, 3 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(touch_range(&ctx, mm, addr, 3 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 3; i++)
		pfns[i] = follow_page(mm, addr + i * PG);
	g_assert_cmpint(migrate_pages(&ctx, m, pfns, 3, give_target, NULL, &t, MIGRATE_ASYNC, MR_COMPACTION, st,
				      &stats), ==, -MM_ENOMEM);
	g_assert_cmpint(st[0], ==, MIGRATE_MOVED);
	g_assert_cmpint(st[1], ==, MIGRATE_NO_TARGET);
	g_assert_cmpint(st[2], ==, MIGRATE_UNTRIED);
	g_assert_cmpuint(stats.nr_failed_pages, ==, 1);
	g_assert_cmpuint(stats.nr_untried, ==, 1);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 1);
	g_assert_cmpuint(follow_page(mm, addr + PG), ==, pfns[1]);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Two sockets: moving a page to node 1 copies across the link, and the
 * destination is on node 1. */
static void test_remote_copy(void)
{
	struct machine *m = machine_of(2, 512 * MiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct migrate_stats stats = { 0 };
	int err;
	uint64_t addr = mmap_anon(mm, PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(handle_mm_fault(&ctx, mm, addr, true), ==, 0);
	pfn_t src = follow_page(mm, addr);
	g_assert_cmpuint(pfn_zone(m, src)->node, ==, 0);
	reset_costs();
	g_assert_cmpint(migrate_pages_to_node(&ctx, m, &src, 1, 1, NULL, &stats), ==, 0);
	g_assert_cmpuint(stats.nr_succeeded, ==, 1);
	g_assert_cmpuint(pfn_zone(m, follow_page(mm, addr))->node, ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY_REMOTE], ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 0);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A 2 MiB THP moved to node 1: one order-9 destination on node 1, the
 * PMD mapping kept over it, the copy charged for 512 pages across the
 * link, the unmap and remap once (one PMD entry), one TLB flush, and the
 * source freed as one order-9 block; thp_migration_success and
 * pgmigrate_success count it once and 512 times. */
static void test_thp_whole(void)
{
	struct machine *m = machine_of(2, 512 * MiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm;
	struct migrate_stats stats = { 0 };
	enum migrate_status st;
	uint64_t addr, haddr;
	pfn_t src, dst;
	int err;

	m->thp = THP_ALWAYS;
	mm = mm_alloc(&ctx, m);
	addr = mmap_anon(mm, 4 * MiB, PROT_READ | PROT_WRITE, &err);
	haddr = (addr + 2 * MiB - 1) & ~(2 * MiB - 1);
	g_assert_cmpint(handle_mm_fault(&ctx, mm, haddr, true), ==, 0);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 1);
	src = follow_page(mm, haddr);
	g_assert_cmpuint(page_order(&m->mm, src), ==, 9);
	g_assert_cmpuint(pfn_zone(m, src)->node, ==, 0);
	reset_costs();
	g_assert_cmpint(migrate_pages_to_node(&ctx, m, &src, 1, 1, &st, &stats), ==, 0);
	g_assert_cmpint(st, ==, MIGRATE_MOVED);
	dst = follow_page(mm, haddr);
	g_assert_cmpuint(pfn_zone(m, dst)->node, ==, 1);
	g_assert_cmpuint(page_order(&m->mm, dst), ==, 9);
	g_assert_cmpuint(follow_page(mm, haddr + 2 * MiB - PG), ==, dst + 511);
	g_assert_cmpuint(mm_thp_mappings(mm, THP_PMD), ==, 1);
	g_assert_cmpuint(page_owner(m, dst), ==, make_owner(OWNER_KIND_ANON, mm_pid(mm)));
	g_assert_cmpuint(page_owner_offset(m, dst), ==, haddr / PG);
	g_assert_cmpuint(page_kind(&m->mm, src), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(page_order(&m->mm, src), >=, 9);
	g_assert_cmpuint(stats.nr_succeeded, ==, 512);
	g_assert_cmpuint(stats.nr_thp_succeeded, ==, 1);
	g_assert_cmpuint(m->vm_events[THP_MIGRATION_SUCCESS], ==, 1);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 512);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY_REMOTE], ==, 512);
	g_assert_cmpuint(cost[COST_MIGRATE_COPY], ==, 0);
	g_assert_cmpuint(cost[COST_MIGRATE_UNMAP], ==, 1);
	g_assert_cmpuint(cost[COST_MIGRATE_REMAP], ==, 1);
	g_assert_cmpuint(cost[COST_TLB_SHOOTDOWN], ==, 1);
	assert_all_ok(m);
	machine_destroy(m);
}

/* The anonymous pages of pid on each node, counted from the memmap's owner
 * records (not from the page tables the calls walk). */
static void pages_per_node(struct machine *m, unsigned pid, unsigned long *per_node)
{
	for (unsigned n = 0; n < m->nr_nodes; n++)
		per_node[n] = 0;
	for (pfn_t pfn = 0; pfn < m->mm.nr_frames; pfn++)
		if (page_kind(&m->mm, pfn) == PG_KIND_ALLOC &&
		    page_owner(m, pfn) == make_owner(OWNER_KIND_ANON, pid))
			per_node[pfn_zone(m, pfn)->node]++;
}

/* move_pages(2) of 256 pages faulted on node 0, a quarter of them pinned
 * (pinned_share 0.25, seed 1): every unpinned page moves to node 1, every
 * pinned one is reported busy and stays at its frame; two pages of the
 * range never faulted are absent.  The reverse map of each page gives its
 * address back, the per-node counts from the memmap match, the checkers
 * agree.  A second call finds the moved pages already there. */
static void test_move_pages(void)
{
	struct machine *m = machine_of(2, 512 * MiB, 0.25, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct page_move_counts c = { 0 };
	unsigned long per_node[2], pinned = 0;
	pfn_t before[256];
	int err;
	uint64_t addr = mmap_anon(mm, 258 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(touch_range(&ctx, mm, addr, 256 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 256; i++) {
		before[i] = follow_page(mm, addr + i * PG);
		pinned += !!(m->mm.flags[before[i]].aux & PG_pinned);
	}
	g_assert_cmpuint(pinned, >, 32);
	g_assert_cmpuint(pinned, <, 96);
	g_assert_cmpint(do_pages_move(&ctx, m, mm, addr, 258 * PG, 1, &c), ==, 0);
	g_assert_cmpuint(c.moved, ==, 256 - pinned);
	g_assert_cmpuint(c.busy, ==, pinned);
	g_assert_cmpuint(c.pinned, ==, pinned);
	g_assert_cmpuint(c.absent, ==, 2);
	g_assert_cmpuint(c.already + c.enomem, ==, 0);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 256 - pinned);
	for (unsigned i = 0; i < 256; i++) {
		pfn_t pfn = follow_page(mm, addr + i * PG);
		struct mm_struct *owner;
		uint64_t at;
		bool pin = m->mm.flags[before[i]].aux & PG_pinned && pfn == before[i];

		g_assert_cmpuint(pfn_zone(m, pfn)->node, ==, pin ? 0 : 1);
		g_assert_true(pin || pfn != before[i]);
		g_assert_true(rmap_walk_anon(m, pfn, &owner, &at));
		g_assert_true(owner == mm && at == addr + i * PG);
	}
	pages_per_node(m, mm_pid(mm), per_node);
	g_assert_cmpuint(per_node[0], ==, pinned);
	g_assert_cmpuint(per_node[1], ==, 256 - pinned);
	g_assert_cmpuint(mm_rss(mm), ==, 256);
	assert_all_ok(m);

	memset(&c, 0, sizeof(c));
	g_assert_cmpint(do_pages_move(&ctx, m, mm, addr, 256 * PG, 1, &c), ==, 0);
	g_assert_cmpuint(c.already, ==, 256 - pinned);
	g_assert_cmpuint(c.busy, ==, pinned);
	g_assert_cmpuint(c.moved, ==, 0);
	g_assert_cmpint(do_pages_move(&ctx, m, mm, addr + 1, PG, 1, &c), ==, -MM_EINVAL);
	g_assert_cmpint(do_pages_move(&ctx, m, mm, addr, PG, 2, &c), ==, -MM_EINVAL);
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* migrate_pages(2) from {0, 1} to {1, 2} on three nodes: node_remap sends
 * 0 to 1 and 1 to 2; node 1 must be emptied before it is filled, so its
 * pages go to 2 first, then node 0's to 1.  Each page moves exactly once. */
static void test_migrate_pages_remap(void)
{
	struct machine *m = machine_of(3, 256 * MiB, 0, 1);
	struct mm_ctx ctx = cpu_ctx(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy il;
	struct page_move_counts c = { 0 };
	unsigned long per_node[3];
	int err;
	uint64_t addr = mmap_anon(mm, 64 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(mpol_new(m, MPOL_INTERLEAVE, 3, &il), ==, 0);
	do_set_mempolicy(mm, &il);
	g_assert_cmpint(touch_range(&ctx, mm, addr, 64 * PG, NULL), ==, 0);
	pages_per_node(m, mm_pid(mm), per_node);
	g_assert_cmpuint(per_node[0], ==, 32);
	g_assert_cmpuint(per_node[1], ==, 32);
	g_assert_cmpint(do_migrate_pages(&ctx, mm, 3, 6, &c), ==, 0);
	g_assert_cmpuint(c.moved, ==, 64);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 64);
	for (unsigned i = 0; i < 64; i++)
		g_assert_cmpuint(pfn_zone(m, follow_page(mm, addr + i * PG))->node, ==,
				 (addr / PG + i) % 2 + 1);
	pages_per_node(m, mm_pid(mm), per_node);
	g_assert_cmpuint(per_node[0], ==, 0);
	g_assert_cmpuint(per_node[1], ==, 32);
	g_assert_cmpuint(per_node[2], ==, 32);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/migrate/anon-page", test_anon_page);
	g_test_add_func("/migrate/tlb-flush-per-mm", test_tlb_flush_per_mm);
	g_test_add_func("/migrate/page-cache-page", test_page_cache_page);
	g_test_add_func("/migrate/not-movable", test_not_movable);
	g_test_add_func("/migrate/pinned", test_pinned);
	g_test_add_func("/migrate/pinned-share", test_pinned_share);
	g_test_add_func("/migrate/pinned-share-validated", test_pinned_share_validated);
	g_test_add_func("/migrate/no-target", test_no_target);
	g_test_add_func("/migrate/remote-copy", test_remote_copy);
	g_test_add_func("/migrate/thp-whole", test_thp_whole);
	g_test_add_func("/migrate/move-pages", test_move_pages);
	g_test_add_func("/migrate/migrate-pages-remap", test_migrate_pages_remap);
	return g_test_run();
}
