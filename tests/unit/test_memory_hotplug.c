/* Memory hot-remove (offline_pages), hand-worked on two nodes, node 1 a
 * 512 MiB Normal zone above node 0's 4 GiB (DMA and DMA32):
 * a block holding only movable pages goes offline and leaves no page
 * behind, its pages moved to the other node; a block holding one
 * unmovable page or a pinned one stays online with its data; a page off
 * its LRU for a while is retried, not fatal, until the timeout; bad input is
 * refused with the numbers and changes nothing; offline then online gives
 * the memory back; under spb a superpageblock offlined whole leaves the
 * defrag worker's queue.  The checkers run after each. */
#include "helpers.h"
#include "models/buddy.h"
#include "models/memblock.h"
#include "models/memory_hotplug.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/pbstat.h"
#include "models/pcp.h"
#include "models/superpageblock_internal.h"

#include <string.h>

#define PG 4096ULL
#define BLOCK (128 * MiB)
#define BLOCK_PAGES (BLOCK / PG)

/* Node 0 of 4 GiB, node 1 of node1 bytes above it (the top movable1 of
 * them its ZONE_MOVABLE), CPUs 4-7 node 1's. */
static struct machine *nodes(enum mm_policy policy, uint64_t node1, uint64_t movable1,
			     double pinned)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct machine *m;

	topology_uniform(&t, 2, 1, 4, node1);
	t.node_mem[0] = 4 * GiB;
	t.movable_mem[1] = movable1;
	machine_params_default(&p);
	p.policy = policy;
	/* Offline takes the node's top blocks, where boot puts the memmap (never offlinable). */
	p.boot_reserve = false;
	p.thp = false;
	p.pinned_share = pinned;
	p.pin_seed = 1;
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	return m;
}

static struct machine *two_nodes(double pinned)
{
	return nodes(POLICY_UPSTREAM, 512 * MiB, 0, pinned);
}

static struct zone *normal(struct machine *m, unsigned nid)
{
	return &m->node_data[nid].node_zones[ZONE_NORMAL];
}

/* Allocated pages in [start, end). */
static unsigned long allocated_in(struct machine *m, pfn_t start, pfn_t end)
{
	unsigned long n = 0;

	for (pfn_t pfn = start; pfn < end; pfn++)
		n += page_kind(&m->mm, pfn) == PG_KIND_ALLOC;
	return n;
}

/* A process on node 1's first CPU fills 448 of node 1's 512 MiB, so its
 * top 128 MiB block holds some of its pages. */
static struct mm_struct *fill_node1(struct machine *m, struct mm_ctx *ctx, uint64_t *addr)
{
	struct mm_struct *mm = mm_alloc(ctx, m);
	int err;

	*addr = mmap_anon(mm, 448 * MiB, PROT_READ | PROT_WRITE, &err);
	g_assert_cmpint(touch_range(ctx, mm, *addr, 448 * MiB, NULL), ==, 0);
	return mm;
}

/* The movable-only top block of node 1 goes offline: every page it held
 * moved (to node 0, as do_migrate_range prefers other nodes), none is
 * left in it, the process still maps all its pages, and node 1's span,
 * present and managed pages are one block less. */
static void test_offline_movable(void)
{
	struct machine *m = two_nodes(0);
	struct mm_ctx ctx = mm_ctx_null(4);
	struct zone *z = normal(m, 1);
	pfn_t end = zone_end_pfn(z), start = end - BLOCK_PAGES;
	unsigned long managed = z->managed_pages, spanned = z->spanned_pages, in_block;
	struct offline_stats st;
	uint64_t addr;
	struct mm_struct *mm = fill_node1(m, &ctx, &addr);
	char *err = NULL;

	in_block = allocated_in(m, start, end);
	g_assert_cmpuint(in_block, >, 1000);
	g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, 0);
	g_assert_null(err);
	g_assert_cmpuint(st.start_pfn, ==, start);
	g_assert_cmpuint(st.migrated, ==, in_block);
	g_assert_cmpuint(allocated_in(m, start, end), ==, 0);
	for (pfn_t pfn = start; pfn < end; pfn++)
		g_assert_cmpint(page_kind(&m->mm, pfn), ==, PG_KIND_NONE);
	g_assert_cmpuint(zone_end_pfn(z), ==, start);
	g_assert_cmpuint(z->spanned_pages, ==, spanned - BLOCK_PAGES);
	g_assert_cmpuint(z->managed_pages, ==, managed - BLOCK_PAGES);
	g_assert_cmpuint(m->topo.node_mem[1], ==, 512 * MiB - BLOCK);
	g_assert_cmpuint(mm_rss(mm), ==, (448 * MiB) / PG);
	for (uint64_t a = addr; a < addr + 448 * MiB; a += PG)
		g_assert_cmpuint(follow_page(mm, a), <, start);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Allocate the first free page of [start, end) by hand, of type mt and
 * owner word owner. */
static pfn_t take_page_in(struct machine *m, struct zone *z, pfn_t start, pfn_t end, int mt,
			  uint32_t owner)
{
	for (pfn_t pfn = start; pfn < end; pfn++) {
		if (!PageBuddy(&m->mm, pfn))
			continue;
		page_del_and_expand(z, pfn, 0, page_order(&m->mm, pfn),
				    get_pfnblock_migratetype(&m->mm, pfn));
		page_set(&m->mm, pfn, PG_KIND_ALLOC, 0, mt);
		*block_word_a(&m->mm, pfn, 0) = owner;
		*block_word_b(&m->mm, pfn, 0) = 0;
		pbstat_alloc(m->pbstat, pfn, 0, mt);
		return pfn;
	}
	g_assert_not_reached();
}

/* Take the free page at the start of the block holding pfn's free buddy
 * and make it a kernel page: an unmovable page inside the block. */
static pfn_t kernel_page_in(struct machine *m, struct zone *z, pfn_t start, pfn_t end)
{
	return take_page_in(m, z, start, end, MIGRATE_UNMOVABLE, make_owner(OWNER_KIND_KERNEL, 1));
}

/* One unmovable page in the block: isolation fails at once with EBUSY on
 * that pfn; no page moved, nothing isolated, the process's pages all at
 * their frames, the zone unchanged.  Once the page is freed the block
 * goes offline. */
/* With boot's reservations, node 1's top block holds its per-CPU areas or
 * memmap (memblock allocates top-down): offline_pages cannot isolate it,
 * and the reason names the reservation rather than the kernel's generic
 * words. */
static void test_offline_boot_reserved(void)
{
	struct topology t;
	struct machine_params p;
	struct mm_ctx ctx = mm_ctx_null(4);
	struct offline_stats st;
	char *err = NULL, *want;
	struct machine *m;
	uint32_t owner;

	topology_uniform(&t, 2, 1, 4, 512 * MiB);
	t.node_mem[0] = 4 * GiB;        /* node 1 above 4 GiB: ZONE_NORMAL */
	machine_params_default(&p);
	p.thp = false;
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	pfn_t end = zone_end_pfn(normal(m, 1)), start = end - BLOCK_PAGES;

	g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EBUSY);
	g_assert_cmpuint(st.fail_pfn, >=, start);
	g_assert_cmpuint(st.fail_pfn, <, end);
	owner = page_owner(m, st.fail_pfn);
	g_assert_cmpint(owner_kind(owner), ==, OWNER_KIND_RESERVED);
	want = g_strdup_printf("block holds boot reservations (%s)",
			       memblock_use_names[owner & OWNER_ID_MASK]);
	g_assert_cmpstr(st.reason, ==, want);
	g_free(want);
	g_assert_cmpuint(st.migrated, ==, 0);
	machine_destroy(m);
}

static void test_offline_unmovable(void)
{
	struct machine *m = two_nodes(0);
	struct mm_ctx ctx = mm_ctx_null(4);
	struct zone *z = normal(m, 1);
	pfn_t end = zone_end_pfn(z), start = end - BLOCK_PAGES;
	unsigned long managed = z->managed_pages;
	struct offline_stats st;
	uint64_t addr;
	struct mm_struct *mm = fill_node1(m, &ctx, &addr);
	pfn_t *before = g_new(pfn_t, (448 * MiB) / PG);
	pfn_t kpage = kernel_page_in(m, z, start, end);
	char *err = NULL;

	for (uint64_t i = 0; i < (448 * MiB) / PG; i++)
		before[i] = follow_page(mm, addr + i * PG);
	g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EBUSY);
	g_assert_cmpuint(st.fail_pfn, ==, kpage);
	g_assert_cmpstr(st.reason, ==, "failure to isolate range");
	g_assert_cmpuint(st.migrated, ==, 0);
	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages)
		g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), !=, MIGRATE_ISOLATE);
	for (uint64_t i = 0; i < (448 * MiB) / PG; i++)
		g_assert_cmpuint(follow_page(mm, addr + i * PG), ==, before[i]);
	g_assert_cmpuint(z->managed_pages, ==, managed);
	g_assert_cmpuint(zone_end_pfn(z), ==, end);
	assert_all_ok(m);
	g_assert_cmpint(__free_pages(&ctx, m, kpage), ==, 0);
	g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, 0);
	g_assert_cmpuint(allocated_in(m, start, end), ==, 0);
	assert_all_ok(m);
	g_free(before);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* Every anonymous page pinned: isolation passes (a pinned page is on an
 * LRU), but migration fails on each; where no time passes (no engine),
 * after OFFLINE_MAX_IDLE_ROUNDS rounds that moved nothing the offline
 * gives up with EBUSY on a pinned page,
 * which is still mapped where it was, and the block is back online. */
static void test_offline_pinned(void)
{
	struct machine *m = two_nodes(1.0);
	struct mm_ctx ctx = mm_ctx_null(4);
	struct zone *z = normal(m, 1);
	pfn_t end = zone_end_pfn(z), start = end - BLOCK_PAGES;
	unsigned long in_block;
	struct offline_stats st;
	uint64_t addr;
	struct mm_struct *mm = fill_node1(m, &ctx, &addr);
	struct mm_struct *owner;
	uint64_t at;
	char *err = NULL;

	in_block = allocated_in(m, start, end);
	g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EBUSY);
	g_assert_cmpstr(st.reason, ==, "timeout");
	g_assert_cmpuint(st.rounds, ==, OFFLINE_MAX_IDLE_ROUNDS);
	g_assert_cmpuint(st.migrated, ==, 0);
	g_assert_true(m->mm.flags[st.fail_pfn].aux & PG_pinned);
	g_assert_true(rmap_walk_anon(m, st.fail_pfn, &owner, &at) && owner == mm);
	g_assert_cmpuint(allocated_in(m, start, end), ==, in_block);
	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages)
		g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), !=, MIGRATE_ISOLATE);
	g_assert_cmpuint(zone_end_pfn(z), ==, end);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* The node with the CPUs keeps memory: on a machine of one node its whole
 * memory is refused for that reason (node_has_cpus), before the size
 * check could refuse it as a whole zone. */
static void test_offline_cpu_node(void)
{
	struct machine *m = policy_machine(1 * GiB, POLICY_UPSTREAM, -1);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct offline_stats st;
	char *err = NULL;

	g_assert_cmpint(offline_pages(&ctx, m, 0, 1 * GiB, OFFLINE_TIMEOUT_NS, &st, &err), ==,
			-MM_EINVAL);
	g_assert_nonnull(strstr(err, "node 0 has CPUs: its last 1024 MiB cannot go offline"));
	g_free(err);
	machine_destroy(m);
}

/* Bad input is refused with a message naming the numbers, and nothing
 * changes; offline then online_memory_block gives the block back. */
static void test_offline_bad_input_and_online(void)
{
	struct machine *m = two_nodes(0);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = normal(m, 1);
	unsigned long managed = z->managed_pages, free = zone_page_state(z, NR_FREE_PAGES);
	struct offline_stats st;
	char *err = NULL;

	g_assert_cmpint(offline_pages(&ctx, m, 2, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EINVAL);
	g_assert_nonnull(strstr(err, "node 2 does not exist (the machine has nodes 0-1)"));
	g_free(err);
	g_assert_cmpint(offline_pages(&ctx, m, 1, 64 * MiB, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EINVAL);
	g_assert_nonnull(strstr(err, "67108864 bytes is not a whole number of 128 MiB sections"));
	g_free(err);
	g_assert_cmpint(offline_pages(&ctx, m, 1, 512 * MiB, OFFLINE_TIMEOUT_NS, &st, &err), ==, -MM_EINVAL);
	g_assert_nonnull(strstr(err, "node 1 has CPUs: its last 512 MiB cannot go offline"));
	g_free(err);
	g_assert_cmpuint(z->managed_pages, ==, managed);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, free);
	assert_all_ok(m);

	g_assert_cmpint(offline_pages(&ctx, m, 1, 2 * BLOCK, OFFLINE_TIMEOUT_NS, &st, &err), ==, 0);
	g_assert_cmpuint(z->managed_pages, ==, managed - 2 * BLOCK_PAGES);
	assert_all_ok(m);
	g_assert_cmpint(online_memory_block(&ctx, m, 1, 2 * BLOCK), ==, 0);
	g_assert_cmpuint(z->managed_pages, ==, managed);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES) + machine_pcp_pages(m), >=, free);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Under spb a superpageblock offlined whole leaves the array, its zone
 * list and its node's kevacuate queue.  Node 1 (2 GiB, superpageblocks at
 * 0x100000 and 0x140000) is filled by a process on its CPU 4, then three
 * of every four pages are unmapped, then the rest of the top
 * superpageblock's first pageblock: clean, with one free pageblock and
 * its other free pages scattered, the defrag worker's queue holds it.
 * Offlining the top GiB moves its pages to node 0 and drops it, its queue
 * entry included (the worker would look up a superpageblock that is gone);
 * the zone keeps one superpageblock and every checker passes. */
static void test_offline_spb_queued(void)
{
	struct machine *m = nodes(POLICY_SPB, 2 * GiB, 0, 0);
	struct mm_ctx ctx = mm_ctx_null(4);
	struct zone *z = normal(m, 1);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct evacuate_wq *wq;
	struct offline_stats st;
	char *err = NULL;
	gpointer top;
	uint64_t addr;
	int e;

	pageblock_evacuate_init(m);
	wq = m->node_data[1].evacuate_wq;
	addr = mmap_anon(mm, 2 * GiB, PROT_READ | PROT_WRITE, &e);
	touch_range(&ctx, mm, addr, 2 * GiB, NULL);
	for (uint64_t a = addr; a < addr + 2 * GiB; a += 4 * PG)
		g_assert_cmpint(do_munmap(&ctx, mm, a + PG, 3 * PG), ==, 0);
	drain_all_pages(&ctx, m, NULL);
	/* Then the rest of the first pageblock: its coming free makes the
	 * superpageblock's state be looked at, with its free pages there. */
	for (uint64_t a = addr; a < addr + 2 * GiB; a += 4 * PG)
		if (follow_page(mm, a) / pageblock_nr_pages == 0x140000 / pageblock_nr_pages)
			g_assert_cmpint(do_munmap(&ctx, mm, a, PG), ==, 0);
	drain_all_pages(&ctx, m, NULL);
	g_assert_cmpuint(z->nr_superpageblocks, ==, 2);
	top = spb_queue_key(&z->superpageblocks[1]);
	g_assert_true(z->superpageblocks[1].defrag_active);
	g_assert_nonnull(g_queue_find(&wq->queue, top));
	assert_all_ok(m);

	g_assert_cmpint(offline_pages(&ctx, m, 1, GiB, OFFLINE_TIMEOUT_NS, &st, &err), ==, 0);
	g_assert_null(err);
	g_assert_cmpuint(st.migrated, >, 0);
	g_assert_cmpuint(z->nr_superpageblocks, ==, 1);
	g_assert_cmpuint(zone_end_pfn(z), ==, 0x140000);
	g_assert_null(g_queue_find(&wq->queue, top));
	/* What is left queued (the bottom superpageblock) still runs. */
	while (spb_defrag_run_one(&ctx, m, 1))
		;
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A CPU on which time passes: 1 ns per unit charged, and a hook after
 * each charge for what other CPUs do meanwhile. */
static uint64_t clock_ns;
static void (*after_charge)(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n);
static struct mm_env clock_env;

static void clock_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	clock_ns += n;
	if (after_charge)
		after_charge(ctx, kind, n);
}

static uint64_t clock_now(struct mm_ctx *ctx)
{
	(void)ctx;
	return clock_ns;
}

static struct mm_ctx clock_ctx(unsigned cpu)
{
	clock_env = mm_env_null;
	clock_env.charge = clock_charge;
	clock_env.now = clock_now;
	clock_ns = 0;
	after_charge = NULL;
	return (struct mm_ctx){ .env = &clock_env, .cpu = cpu };
}

/* A movable page in the block that no LRU holds (in a per-CPU folio batch,
 * taken off its LRU by another CPU, or unmapped and not yet freed): in
 * ZONE_MOVABLE isolation lets it pass, migration cannot take it. */
static pfn_t off_lru_page_in(struct machine *m, struct zone *z, pfn_t start, pfn_t end)
{
	return take_page_in(m, z, start, end, MIGRATE_MOVABLE, OWNER_NONE);
}

static struct machine *busy_machine;
static pfn_t busy_page;

/* The other CPU frees the page once the first round's scan is charged. */
static void free_busy_page(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	if (kind != COST_PB_SCAN || n != BLOCK_PAGES || busy_page == PFN_NONE)
		return;
	g_assert_cmpint(__free_pages(ctx, busy_machine, busy_page), ==, 0);
	busy_page = PFN_NONE;
}

/* In node 1's 256 MiB ZONE_MOVABLE, a page off its LRU at the first
 * round is skipped, not fatal: the
 * offline retries, and once the page is freed (by another CPU, after the
 * first round) the block goes offline in the second round, every other
 * page moved.  Left busy, the page keeps the block until the timeout
 * (10 ms of simulated time: the rounds after the first move nothing and
 * charge OFFLINE_IDLE_SCANS scans of the block each, 3.3 ms); then EBUSY
 * on that page, the block online again, the page where it was and the
 * pages moved in the first round staying moved. */
static void test_offline_transient(void)
{
	for (int freed = 1; freed >= 0; freed--) {
		struct machine *m = nodes(POLICY_UPSTREAM, 512 * MiB, 256 * MiB, 0);
		struct mm_ctx ctx = clock_ctx(4);
		struct zone *z = &m->node_data[1].node_zones[ZONE_MOVABLE];
		pfn_t end = zone_end_pfn(z), start = end - BLOCK_PAGES;
		struct offline_stats st;
		uint64_t addr;
		pfn_t page = off_lru_page_in(m, z, start, end);
		struct mm_struct *mm = fill_node1(m, &ctx, &addr);
		unsigned long in_block = allocated_in(m, start, end);
		char *err = NULL;

		busy_machine = m;
		busy_page = page;
		after_charge = freed ? free_busy_page : NULL;
		clock_ns = 0;
		if (freed) {
			g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, OFFLINE_TIMEOUT_NS, &st, &err),
					==, 0);
			g_assert_cmpuint(st.rounds, ==, 2);
			g_assert_cmpuint(allocated_in(m, start, end), ==, 0);
			g_assert_cmpuint(zone_end_pfn(z), ==, start);
		} else {
			g_assert_cmpint(offline_pages(&ctx, m, 1, BLOCK, 10000000, &st, &err), ==,
					-MM_EBUSY);
			g_assert_cmpstr(st.reason, ==, "timeout");
			g_assert_cmpuint(st.fail_pfn, ==, page);
			g_assert_cmpuint(clock_ns, >=, 10000000);
			g_assert_cmpuint(st.rounds, ==, 1 + 3);
			g_assert_cmpuint(allocated_in(m, start, end), ==, 1);
			g_assert_cmpint(page_kind(&m->mm, page), ==, PG_KIND_ALLOC);
			for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages)
				g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), !=,
						MIGRATE_ISOLATE);
			g_assert_cmpuint(zone_end_pfn(z), ==, end);
			g_assert_cmpint(__free_pages(&ctx, m, page), ==, 0);
		}
		g_assert_cmpuint(st.migrated, ==, in_block - 1);
		g_assert_cmpuint(mm_rss(mm), ==, (448 * MiB) / PG);
		assert_all_ok(m);
		after_charge = NULL;
		exit_mmap(&ctx, mm);
		machine_destroy(m);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/memory_hotplug/offline-movable", test_offline_movable);
	g_test_add_func("/memory_hotplug/offline-cpu-node", test_offline_cpu_node);
	g_test_add_func("/memory_hotplug/offline-unmovable", test_offline_unmovable);
	g_test_add_func("/memory_hotplug/offline-boot-reserved", test_offline_boot_reserved);
	g_test_add_func("/memory_hotplug/offline-pinned", test_offline_pinned);
	g_test_add_func("/memory_hotplug/offline-transient", test_offline_transient);
	g_test_add_func("/memory_hotplug/bad-input-and-online", test_offline_bad_input_and_online);
	g_test_add_func("/memory_hotplug/offline-spb-queued", test_offline_spb_queued);
	return g_test_run();
}
