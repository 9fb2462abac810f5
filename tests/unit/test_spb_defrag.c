/* The superpageblock defrag worker (seed 004) and the contiguous
 * shortcuts (seed 005), hand-worked on one node of 6 GiB (7 GiB for
 * contiguous allocation) under policy spb: ZONE_NORMAL starts at pfn
 * 0x100000, sb0 at 0x100000, sb1 at 0x140000 (sb2 at 0x180000).  Every free block is taken first as a movable filler with no
 * owner (not migratable), so only the pages a case frees or reads into
 * the page cache move; the watermarks are zeroed so the page cache fills
 * exactly the blocks freed for it.  The invariant and address-space
 * checkers run after every case. */
#include "helpers.h"
#include "models/compaction.h"
#include "models/hugetlb.h"
#include "models/migrate.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/page_cache.h"
#include "models/pbstat.h"
#include "models/pcp.h"
#include "models/procfs.h"
#include "models/superpageblock.h"

#include <string.h>

#define SB0 0x100000u
#define SB1 0x140000u
#define SB2 0x180000u
#define PB(i) (SB0 + (i) * pageblock_nr_pages)
#define FILE_ID 3u

static struct machine *defrag_machine(uint64_t mem, enum mm_policy policy)
{
	struct machine *m = policy_machine(mem, policy, 128);

	for_each_populated_zone(m, z) {
		for (int w = 0; w < NR_WMARK; w++)
			z->_watermark[w] = 0;
		for (int i = 0; i < MAX_NR_ZONES; i++)
			z->lowmem_reserve[i] = 0;
	}
	return m;
}

static struct zone *normal(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_NORMAL];
}

/* __rmqueue() with its fallbacks, as a filler with no owner. */
static pfn_t take(struct machine *m, struct zone *z, unsigned order, int mt)
{
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	pfn_t pfn = __rmqueue(z, order, mt, 0, &mode);

	if (pfn != PFN_NONE)
		prep_new_page(m, pfn, order, mt, OWNER_NONE, 0);
	return pfn;
}

/* Every free block of every zone, as movable fillers. */
static void take_all(struct machine *m)
{
	for_each_populated_zone(m, z)
		for (int o = MAX_PAGE_ORDER; o >= 0; o--)
			while (take(m, z, (unsigned)o, MIGRATE_MOVABLE) != PFN_NONE)
				;
}

/* Read n pages of FILE_ID (indices from first) into the only free memory,
 * then drain the pagesets. */
static void read_file(struct mm_ctx *ctx, struct machine *m, unsigned first, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		g_assert_cmpuint(page_cache_add(ctx, m, 0, FILE_ID, first + i), !=, PFN_NONE);
	drain_all_pages(ctx, m, NULL);
}

/* How many pages of FILE_ID lie in [lo, hi). */
static unsigned file_pages_in(struct machine *m, pfn_t lo, pfn_t hi)
{
	unsigned n = 0;

	for (pfn_t pfn = lo; pfn < hi; pfn++)
		n += page_kind(&m->mm, pfn) == PG_KIND_ALLOC &&
		     page_owner(m, pfn) == make_owner(OWNER_KIND_FILE, FILE_ID);
	return n;
}

/* The two pageblocks of [lo, hi) holding FILE_ID pages, each wholly. */
static void file_pageblocks(struct machine *m, pfn_t lo, pfn_t hi, pfn_t src[2])
{
	unsigned k = 0;

	for (pfn_t pfn = lo; pfn < hi; pfn += pageblock_nr_pages) {
		unsigned n = file_pages_in(m, pfn, pfn + pageblock_nr_pages);

		g_assert_true(n == 0 || n == pageblock_nr_pages);
		if (n) {
			g_assert_cmpuint(k, <, 2);
			src[k++] = pfn;
		}
	}
	g_assert_cmpuint(k, ==, 2);
}

static bool on_list(const struct superpageblock *sb, const struct spb_list *l)
{
	return sb->on_list == l;
}

static uint16_t pbf(struct machine *m, pfn_t pfn)
{
	return m->mm.pb_flags[pfn_to_pb(pfn)];
}

/* The cond_resched() calls of a context that counts them. */
static unsigned nr_resched;

static void count_resched(struct mm_ctx *ctx)
{
	(void)ctx;
	nr_resched++;
}

/* sb0 tainted below its reserve: its first order-10 block is unmovable,
 * the rest movable fillers except PB 2-3, which hold 1024 page-cache
 * pages read while PB 2-7 were free; sb1 has PB 0-3 free.  An unmovable allocation in sb0 queues it
 * (nr_free 0 < 4, movable pageblocks).  The worker walks sb0 from its
 * start: PB 0-1 have no movable bit; every filler pageblock isolates
 * nothing (the fillers are not on an LRU) and is skip-marked; PB 2-3 have
 * their 1024 pages isolated and, clean page cache, dropped
 * (reclaim_clean_pages_from_list) rather than moved to sb1, the only
 * clean superpageblock with free memory, which keeps it.  The pages go
 * to CPU 0's pageset, so sb0 gains no free
 * pageblock in this pass: the back-off is armed, and the walk went round
 * once, visiting its first pageblock twice, to stop at the second.
 * Draining the pageset frees both pageblocks whole, and the pages freed
 * lift the back-off: sb0, still below its reserve, is queued again.  The
 * pass is one long call of the kevacuate thread: it offers the engine a
 * cond_resched() after every pageblock it evacuated. */
static void test_tainted_evacuated(void)
{
	struct machine *m = defrag_machine(6 * GiB, POLICY_SPB);
	struct mm_ctx ctx = mm_ctx_null(0), resched_ctx = ctx;
	struct mm_env resched_env = *ctx.env;
	struct zone *z = normal(m);
	struct superpageblock *sb0 = &z->superpageblocks[0];
	unsigned long sb1_free;
	pfn_t u, src[2];

	g_assert_cmpuint(take(m, z, MAX_PAGE_ORDER, MIGRATE_UNMOVABLE), ==, PB(0));
	take_all(m);
	g_assert_cmpint(spb_get_category(sb0), ==, SB_TAINTED);
	/* take_all leaves sb0 its reserve; movable work enters a tainted
	 * superpageblock only above it: six more free pageblocks for the
	 * reads, the rest retaken, the reserve as unmovable fillers. */
	g_assert_cmpuint(sb0->nr_free, ==, SPB_TAINTED_RESERVE);
	for (pfn_t pfn = PB(2); pfn < PB(8); pfn += 1u << MAX_PAGE_ORDER)
		__free_pages(&ctx, m, pfn);
	read_file(&ctx, m, 0, 1024);
	take_all(m);
	while (take(m, z, 0, MIGRATE_UNMOVABLE) != PFN_NONE)
		;
	g_assert_cmpuint(sb0->nr_free, ==, 0);
	/* The reads took two whole pageblocks (pcp_buddy's Phase 1). */
	file_pageblocks(m, SB0, SB1, src);
	/* Labelled unmovable, as a claim by kernel work relabels a
	 * pageblock: the freed old pages then go to the pageset's unmovable
	 * list, not under the movable destinations (it is last in, first
	 * out). */
	set_pageblock_migratetype(&m->mm, src[0], MIGRATE_UNMOVABLE);
	set_pageblock_migratetype(&m->mm, src[1], MIGRATE_UNMOVABLE);
	__free_pages(&ctx, m, SB1);
	__free_pages(&ctx, m, SB1 + 1024);
	assert_all_ok(m);

	pageblock_evacuate_init(m);
	g_assert_false(spb_defrag_pending(m, 0));
	/* Room for one unmovable page: PB 0's block, given back and retaken. */
	__free_pages(&ctx, m, PB(0));
	u = take(m, z, 0, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(u, >=, PB(0));
	g_assert_cmpuint(u, <, PB(2));
	g_assert_cmpuint(sb0->nr_free, <, SPB_TAINTED_RESERVE);
	g_assert_true(sb0->defrag_active);
	g_assert_true(spb_defrag_pending(m, 0));

	sb1_free = z->superpageblocks[1].nr_free_pages;
	resched_env.cond_resched = count_resched;
	resched_ctx.env = &resched_env;
	g_assert_true(spb_defrag_run_one(&resched_ctx, m, 0));
	/* A cond_resched() after each of the 506 pageblocks evacuated: 512
	 * but PB 0-1 (the unmovable block) and the 4 of the reserve (taken
	 * as unmovable, never movable); the walk's second visit to PB 0
	 * evacuates nothing. */
	g_assert_cmpuint(nr_resched, ==, 506);
	g_assert_false(spb_defrag_pending(m, 0));
	g_assert_false(sb0->defrag_active);
	/* Isolated, then dropped: nothing migrated, nothing in sb1. */
	g_assert_cmpuint(m->vm_events[COMPACTISOLATED], ==, 1024);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 0);
	g_assert_cmpuint(file_pages_in(m, SB0, SB1), ==, 0);
	g_assert_cmpuint(file_pages_in(m, SB1, SB1 + 2048), ==, 0);
	g_assert_cmpuint(z->superpageblocks[1].nr_free_pages, ==, sb1_free);
	g_assert_cmpuint(page_cache_pages(m, 0), ==, 0);
	assert_all_ok(m);
	/* No free pageblock yet: backed off, from here. */
	g_assert_cmpuint(sb0->defrag_last_no_progress_ns, !=, 0);
	g_assert_cmpuint(sb0->defrag_cursor, ==, SB0 + pageblock_nr_pages);
	g_assert_false(spb_needs_defrag(sb0));
	drain_all_pages(&ctx, m, NULL);
	g_assert_true(pbf(m, src[0]) & PB_all_free);
	g_assert_true(pbf(m, src[1]) & PB_all_free);
	g_assert_cmpuint(sb0->nr_free, ==, 2);
	g_assert_true(spb_needs_defrag(sb0));
	g_assert_true(spb_defrag_pending(m, 0));
	assert_all_ok(m);
	machine_destroy(m);
}

/* sb0 clean and full but for scattered free space: 1024 page-cache pages
 * in two of PB 0-3 (read while the four were free: an allocation with no
 * free page left in the buddy fails its watermark), movable fillers in
 * the first half of PB 4-263 and everywhere else, the second halves of
 * PB 4-263 free (260 order-8 blocks, 66560 pages).  A movable page taken
 * in sb0 (splitting one of the halves) queues it: fewer than 2 free
 * pageblocks, 66559 free pages, a quarter of the superpageblock or more.
 * The worker walks sb0: the two page-cache pageblocks have their 1024
 * pages isolated and, clean, dropped (reclaim_clean_pages_from_list)
 * rather than moved into the halves; the pages wait on CPU 0's pageset,
 * so sb0 still has 66559 free pages and no free pageblock, and the walk
 * goes on (the fillers isolate nothing) round to PB 1.  No pageblock came
 * free during the pass (back-off armed); draining the pageset frees both
 * whole, two free pageblocks: sb0 is not queued again. */
static void test_clean_compacted(void)
{
	struct machine *m = defrag_machine(6 * GiB, POLICY_SPB);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = normal(m);
	struct superpageblock *sb0 = &z->superpageblocks[0];
	pfn_t pfn, src[2];

	take_all(m);
	__free_pages(&ctx, m, PB(0));
	__free_pages(&ctx, m, PB(2));
	read_file(&ctx, m, 0, 1024);
	take_all(m);
	file_pageblocks(m, PB(0), PB(4), src);
	for (pfn = PB(4); pfn < PB(264); pfn += 1u << MAX_PAGE_ORDER)
		__free_pages(&ctx, m, pfn);
	while ((pfn = take(m, z, 8, MIGRATE_MOVABLE)) != PFN_NONE)
		g_assert_true(pfn >= PB(4) && pfn < PB(264));
	for (pfn = PB(4) + 256; pfn < PB(264); pfn += pageblock_nr_pages)
		__free_pages(&ctx, m, pfn);
	drain_all_pages(&ctx, m, NULL);
	g_assert_cmpint(spb_get_category(sb0), ==, SB_CLEAN);
	g_assert_cmpuint(sb0->nr_free, ==, 0);
	g_assert_cmpuint(sb0->nr_free_pages, ==, 260 * 256);
	assert_all_ok(m);

	pageblock_evacuate_init(m);
	pfn = take(m, z, 0, MIGRATE_MOVABLE);
	g_assert_true(pfn >= PB(4) && pfn < PB(264));
	g_assert_true(spb_defrag_pending(m, 0));
	g_assert_true(spb_defrag_run_one(&ctx, m, 0));
	g_assert_cmpuint(m->vm_events[COMPACTISOLATED], ==, 1024);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 0);
	g_assert_cmpuint(file_pages_in(m, PB(0), PB(264)), ==, 0);
	g_assert_cmpuint(page_cache_pages(m, 0), ==, 0);
	g_assert_cmpint(spb_get_category(sb0), ==, SB_CLEAN);
	g_assert_cmpuint(sb0->nr_free_pages, ==, 260 * 256 - 1);
	g_assert_cmpuint(sb0->defrag_cursor, ==, PB(1));
	g_assert_cmpuint(sb0->defrag_last_no_progress_ns, !=, 0);
	g_assert_false(sb0->defrag_active);
	assert_all_ok(m);
	drain_all_pages(&ctx, m, NULL);
	g_assert_true(pbf(m, src[0]) & PB_all_free);
	g_assert_true(pbf(m, src[1]) & PB_all_free);
	g_assert_cmpuint(sb0->nr_free, ==, 2);
	g_assert_true(spb_defrag_done(sb0));
	g_assert_false(spb_defrag_pending(m, 0));
	assert_all_ok(m);
	machine_destroy(m);
}

/* A clock the back-off test moves. */
static uint64_t clock_ns;

static uint64_t clock_now(struct mm_ctx *ctx)
{
	(void)ctx;
	return clock_ns;
}

/* The back-off: sb0 tainted with nothing movable to move (fillers only)
 * and no free pageblock.  A pass frees nothing and arms the back-off at
 * the pass's time: an allocation in sb0 then queues nothing, until either
 * 5 s have passed or a pageblock's worth of pages was freed in sb0; a
 * pass that frees a pageblock disarms it; and reaching the reserve (4
 * free pageblocks) ends the need. */
static void test_backoff(void)
{
	struct machine *m = defrag_machine(6 * GiB, POLICY_SPB);
	struct mm_env env = mm_env_null;
	struct mm_ctx ctx = { .env = &env, .cpu = 0 };
	struct zone *z = normal(m);
	struct superpageblock *sb0 = &z->superpageblocks[0];
	pfn_t pfn, blocks[4];

	env.now = clock_now;
	clock_ns = m->now_ns = 1000;
	g_assert_cmpuint(take(m, z, MAX_PAGE_ORDER, MIGRATE_UNMOVABLE), ==, PB(0));
	take_all(m);
	while (take(m, z, 0, MIGRATE_UNMOVABLE) != PFN_NONE)
		;
	g_assert_cmpuint(sb0->nr_free, ==, 0);
	pageblock_evacuate_init(m);
	/* An allocation in sb0 (a page of PB 0's block given back, retaken). */
	__free_pages(&ctx, m, PB(0));
	g_assert_cmpuint(take(m, z, 0, MIGRATE_UNMOVABLE), <, PB(2));
	g_assert_true(spb_defrag_run_one(&ctx, m, 0));
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 0);
	g_assert_cmpuint(sb0->defrag_last_no_progress_ns, ==, 1001);
	g_assert_false(spb_needs_defrag(sb0));
	g_assert_cmpuint(take(m, z, 0, MIGRATE_UNMOVABLE), <, PB(2));
	g_assert_false(spb_defrag_pending(m, 0));
	/* 5 s later the next update queues it again (the allocator reads the
	 * time taking zone->lock, which these direct takes skip). */
	clock_ns = 1001 + SPB_DEFRAG_NOOP_COOLDOWN_NS;
	m->now_ns = clock_ns;
	g_assert_cmpuint(take(m, z, 0, MIGRATE_UNMOVABLE), <, PB(2));
	g_assert_true(spb_defrag_pending(m, 0));
	g_assert_true(spb_defrag_run_one(&ctx, m, 0));
	g_assert_cmpuint(sb0->defrag_last_no_progress_ns, ==, clock_ns | 1);
	/* Within the cooldown, a pageblock freed in sb0 is reason enough. */
	pfn = PB(4);
	g_assert_cmpuint(page_kind(&m->mm, pfn), ==, PG_KIND_ALLOC);
	g_assert_cmpuint(page_order(&m->mm, pfn), ==, MAX_PAGE_ORDER);
	__free_pages(&ctx, m, pfn);
	g_assert_true(spb_needs_defrag(sb0));
	g_assert_true(spb_defrag_pending(m, 0));
	g_assert_true(sb0->defrag_active);
	/* Reaching the reserve ends it: the queued pass stops at once. */
	for (unsigned i = 0; i < 2; i++) {
		blocks[i] = PB(6) + i * (1u << MAX_PAGE_ORDER);
		__free_pages(&ctx, m, blocks[i]);
	}
	g_assert_cmpuint(sb0->nr_free, >=, SPB_TAINTED_RESERVE);
	g_assert_true(spb_defrag_done(sb0));
	g_assert_false(spb_needs_defrag(sb0));
	g_assert_true(spb_defrag_run_one(&ctx, m, 0));
	g_assert_cmpuint(sb0->defrag_last_no_progress_ns, !=, 0);
	g_assert_false(spb_defrag_pending(m, 0));
	assert_all_ok(m);
	machine_destroy(m);
}

/* The debugfs superpageblocks file. */
static bool debugfs_has(struct machine *m, const char *line)
{
	GString *out = g_string_new(NULL);
	bool has;

	proc_superpageblocks(m, out);
	has = strstr(out->str, line) != NULL;
	g_string_free(out, TRUE);
	return has;
}

/* 1 GiB contiguous requests on 7 GiB (Normal: sb0 at 0x100000, sb1 at
 * 0x140000, sb2 at 0x180000), the only content 1024 page-cache pages read
 * into sb0.  Under spb, alloc_contig_pages asks the superpageblock lists
 * first: the empty ones in list order (sb1, then sb2), each taken with no
 * page migrated and moved to spb_isolated (debugfs: contig_alloc), then
 * the clean ones emptiest first: sb0, its 1024 pages migrated out (to
 * DMA32, the only zone with free memory left).  Under pcp_buddy the first
 * request already takes sb0, the lowest range of the highest zone,
 * migrating its pages.  Freeing a gigantic page puts its superpageblock
 * back on spb_empty. */
static void test_contig_spb_first(void)
{
	struct machine *m = defrag_machine(7 * GiB, POLICY_SPB);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = normal(m);
	struct superpageblock *sb0 = &z->superpageblocks[0], *sb1 = &z->superpageblocks[1];
	struct superpageblock *sb2 = &z->superpageblocks[2];
	struct migrate_stats st = { 0 };
	pfn_t pfn;

	read_file(&ctx, m, 0, 1024);
	g_assert_cmpuint(file_pages_in(m, SB0, SB1), ==, 1024);
	g_assert_true(on_list(sb1, &z->spb_empty) && on_list(sb2, &z->spb_empty));
	g_assert_cmpuint(z->spb_empty.head, ==, 1);

	g_assert_cmpuint(alloc_gigantic_folio(&ctx, m, 0, &st), ==, SB1);
	g_assert_cmpuint(st.nr_succeeded, ==, 0);
	g_assert_true(sb1->contig_allocated);
	g_assert_true(on_list(sb1, &z->spb_isolated));
	g_assert_true(debugfs_has(m, "  contig_alloc: 1\n"));
	g_assert_true(debugfs_has(m, "  sb[1] pfn=0x140000: contig_allocated total=512\n"));
	assert_all_ok(m);
	g_assert_cmpuint(alloc_gigantic_folio(&ctx, m, 0, &st), ==, SB2);
	g_assert_cmpuint(st.nr_succeeded, ==, 0);
	g_assert_true(debugfs_has(m, "  contig_alloc: 2\n"));
	g_assert_cmpuint(alloc_gigantic_folio(&ctx, m, 0, &st), ==, SB0);
	g_assert_cmpuint(st.nr_succeeded, ==, 1024);
	g_assert_true(sb0->contig_allocated);
	g_assert_cmpuint(page_cache_pages(m, 0), ==, 1024);
	g_assert_cmpuint(file_pages_in(m, 0x1000, SB0), ==, 1024);
	assert_all_ok(m);

	g_assert_cmpint(free_gigantic_folio(&ctx, m, SB1), ==, 0);
	g_assert_false(sb1->contig_allocated);
	g_assert_true(on_list(sb1, &z->spb_empty));
	g_assert_true(debugfs_has(m, "  contig_alloc: 2\n"));
	g_assert_cmpint(free_gigantic_folio(&ctx, m, SB2), ==, 0);
	g_assert_cmpint(free_gigantic_folio(&ctx, m, SB0), ==, 0);
	g_assert_cmpuint(z->spb_isolated.nr, ==, 0);
	g_assert_false(debugfs_has(m, "contig_alloc"));
	assert_all_ok(m);
	machine_destroy(m);

	m = defrag_machine(7 * GiB, POLICY_PCP_BUDDY);
	st = (struct migrate_stats){ 0 };
	read_file(&ctx, m, 0, 1024);
	g_assert_cmpuint(file_pages_in(m, SB0, SB1), ==, 1024);
	pfn = alloc_gigantic_folio(&ctx, m, 0, &st);
	g_assert_cmpuint(pfn, ==, SB0);
	g_assert_cmpuint(st.nr_succeeded, ==, 1024);
	assert_all_ok(m);
	g_assert_cmpint(free_gigantic_folio(&ctx, m, pfn), ==, 0);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/spb-defrag/tainted-evacuated", test_tainted_evacuated);
	g_test_add_func("/spb-defrag/clean-compacted", test_clean_compacted);
	g_test_add_func("/spb-defrag/backoff", test_backoff);
	g_test_add_func("/spb-contig/empty-then-evacuated", test_contig_spb_first);
	return g_test_run();
}
