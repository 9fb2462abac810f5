/* Hand-worked cases of the superpageblock allocator (policy spb, the
 * series tip 832e6bcd), each following what mm/page_alloc.c does there.
 * The machines are one node of 6 or 7 GiB: ZONE_DMA32 ends at 4 GiB, so
 * ZONE_NORMAL is pfn 0x100000 up, two (three) 1 GiB superpageblocks,
 * sb0 at 0x100000, sb1 at 0x140000 (sb2 at 0x180000).  At boot every
 * pageblock is free, so every superpageblock is on spb_empty in index
 * order, and the free blocks are order-10 MOVABLE blocks in pfn order. */
#include "helpers.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
#include "models/procfs.h"
#include "models/superpageblock.h"

#include <string.h>

#define SB0 0x100000u
#define SB1 0x140000u
#define SB2 0x180000u

/* indexed: the what-if walk (machine option spb_walk). */
static struct machine *spb_machine_walk(uint64_t mem, bool indexed)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, mem);
	machine_params_default(&p);
	p.thp = false;
	p.boot_reserve = false;
	p.policy = POLICY_SPB;
	p.spb_walk_indexed = indexed;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	g_assert_nonnull(m);
	return m;
}

static struct machine *spb_machine(uint64_t mem)
{
	return spb_machine_walk(mem, false);
}

static struct zone *normal(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_NORMAL];
}

static struct superpageblock *sb(struct zone *z, unsigned i)
{
	return &z->superpageblocks[i];
}

static pfn_t take(struct machine *m, struct zone *z, unsigned order, int mt)
{
	pfn_t pfn = __rmqueue_smallest(z, order, mt);

	if (pfn != PFN_NONE)
		mark_allocated(m, pfn, order, mt);
	return pfn;
}

/* __rmqueue() with its fallbacks (claim, then steal), no ALLOC_NOFRAGMENT. */
static pfn_t take_fallback(struct machine *m, struct zone *z, unsigned order, int mt)
{
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	pfn_t pfn = __rmqueue(z, order, mt, 0, &mode);

	if (pfn != PFN_NONE)
		mark_allocated(m, pfn, order, mt);
	return pfn;
}

static void give(struct machine *m, struct zone *z, pfn_t pfn, unsigned order)
{
	page_clear(&m->mm, pfn);
	__free_one_page(z, pfn, order, get_pfnblock_migratetype(&m->mm, pfn), FPI_NONE);
}

static uint16_t pbf(struct machine *m, pfn_t pfn)
{
	return m->mm.pb_flags[pfn_to_pb(pfn)];
}

static bool on(struct superpageblock *s, struct spb_list *l)
{
	return s->on_list == l;
}

/* Boot: counters, lists and the debugfs text, exactly. */
static void test_boot(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone *z = normal(m);
	GString *out = g_string_new(NULL);

	g_assert_cmpuint(z->nr_superpageblocks, ==, 2);
	g_assert_cmpuint(z->superpageblock_base_pfn, ==, SB0);
	g_assert_cmpuint(z->spb_empty.nr, ==, 2);
	g_assert_cmpuint(z->spb_empty.head, ==, 0);
	g_assert_cmpuint(z->spb_empty.tail, ==, 1);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 512);
	g_assert_cmpuint(sb(z, 0)->nr_movable, ==, 0);
	g_assert_cmpuint(sb(z, 0)->nr_free_pages, ==, SUPERPAGEBLOCK_NR_PAGES);
	/* Zone lists hold nothing; their counts shadow the superpageblocks'. */
	g_assert_cmpuint(z->free_area[10].free_list[MIGRATE_MOVABLE].head, ==, PFN_NONE);
	g_assert_cmpuint(list_len(z, 10, MIGRATE_MOVABLE), ==, 512);
	g_assert_cmpuint(z->free_area[10].nr_free, ==, 512);
	g_assert_true(pbf(m, SB0) & PB_all_free);
	g_assert_false(pbf(m, SB0) & PB_has_movable);
	proc_superpageblocks(m, out);
	g_assert_cmpstr(out->str, ==,
		"Node 0, zone      DMA: 1 superpageblocks, base_pfn=0x0\n"
		"  empty: 1\n"
		"  sb[0] pfn=0x0: unmov=0 recl=0 mov=0 rsv=0 free=8 total=8\n"
		"Node 0, zone    DMA32: 4 superpageblocks, base_pfn=0x0\n"
		"  empty: 4\n"
		"  sb[0] pfn=0x0: unmov=0 recl=0 mov=0 rsv=0 free=504 total=504\n"
		"  sb[1] pfn=0x40000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n"
		"  sb[2] pfn=0x80000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n"
		"  sb[3] pfn=0xc0000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n"
		"Node 0, zone   Normal: 2 superpageblocks, base_pfn=0x100000\n"
		"  empty: 2\n"
		"  sb[0] pfn=0x100000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n"
		"  sb[1] pfn=0x140000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n");
	g_string_free(out, TRUE);
	assert_invariants(m);
	machine_destroy(m);
}

/* setup_superpageblocks() alone, before memmap init: every slot reserved,
 * every superpageblock tainted/full.  The first DMA32 superpageblock is
 * partial (the zone starts at 16 MiB): 504 slots.  The model has no holes,
 * so after init nothing stays reserved; a reserved slot alone taints. */
static void test_setup_state(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone scratch = m->node_data[0].node_zones[ZONE_DMA32];

	scratch.superpageblocks = NULL;
	setup_superpageblocks(&scratch);
	g_assert_cmpuint(scratch.nr_superpageblocks, ==, 4);
	g_assert_cmpuint(scratch.spb_lists[SB_TAINTED][SB_FULL].nr, ==, 4);
	g_assert_cmpuint(scratch.superpageblocks[0].total_pageblocks, ==, 504);
	g_assert_cmpuint(scratch.superpageblocks[0].nr_reserved, ==, 504);
	g_assert_cmpuint(scratch.superpageblocks[1].nr_reserved, ==, 512);
	g_assert_cmpint(spb_get_category(&scratch.superpageblocks[0]), ==, SB_TAINTED);
	/* One never-initialised slot keeps a superpageblock tainted; tainted
	 * fullness counts only non-movable pageblocks. */
	struct superpageblock s = { .total_pageblocks = 504, .nr_reserved = 1, .nr_free = 503 };
	g_assert_cmpint(spb_get_category(&s), ==, SB_TAINTED);
	g_assert_cmpint(sb_get_fullness(&s), ==, SB_ALMOST_EMPTY);
	s.nr_reserved = 0;
	s.nr_free = 300;
	s.nr_movable = 204;
	g_assert_cmpint(spb_get_category(&s), ==, SB_CLEAN);
	g_assert_cmpint(sb_get_fullness(&s), ==, SB_FULL_25);   /* 204 used: >= 128, < 256 */
	s.nr_free = 500;
	g_assert_cmpint(sb_get_fullness(&s), ==, SB_ALMOST_EMPTY);
	free_superpageblocks(&scratch);
	assert_invariants(m);
	machine_destroy(m);
}

/* Movable work goes to the fullest clean superpageblock with free pages
 * (Pass 1, buckets FULL first) before an empty one (Pass 3). */
static void test_movable_fullest_clean_first(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone *z = normal(m);
	pfn_t pfn;

	/* The first order-9 request splits sb0's first order-10 block (Pass
	 * 3: no clean superpageblock yet); both its pageblocks are used, so
	 * sb0 is clean with 2 used: almost_empty.  The rest come from sb0 in
	 * pfn order (Pass 1: remainder, then the next order-10 block). */
	for (unsigned i = 0; i < 512; i++) {
		pfn = take(m, z, 9, MIGRATE_MOVABLE);
		g_assert_cmpuint(pfn, ==, SB0 + i * 512);
		if (i == 0) {
			g_assert_cmpuint(sb(z, 0)->nr_free, ==, 510);
			g_assert_true(on(sb(z, 0), &z->spb_lists[SB_CLEAN][SB_ALMOST_EMPTY]));
		}
	}
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 0);
	g_assert_cmpuint(sb(z, 0)->nr_movable, ==, 512);
	g_assert_true(on(sb(z, 0), &z->spb_lists[SB_CLEAN][SB_FULL]));
	/* sb0 is full: the empty sb1 is next. */
	pfn = take(m, z, 9, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, ==, SB1);
	g_assert_true(on(sb(z, 1), &z->spb_lists[SB_CLEAN][SB_ALMOST_EMPTY]));
	/* Free 200 pageblocks of sb0: 312 used, the 50% bucket. */
	for (unsigned i = 0; i < 200; i++)
		give(m, z, SB0 + i * 512, 9);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 200);
	g_assert_cmpuint(sb(z, 0)->nr_movable, ==, 312);
	g_assert_true(on(sb(z, 0), &z->spb_lists[SB_CLEAN][SB_FULL_50]));
	/* An order-0 request: sb0 (50%) is walked before sb1 (almost empty)
	 * even though sb1 has an order-9 remainder: the head of sb0's order-10
	 * list is the last pair merged, 198-199. */
	pfn = take(m, z, 0, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, ==, SB0 + 198 * 512);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 198);
	assert_invariants(m);
	machine_destroy(m);
}

/* Unmovable work: with no tainted superpageblock the claim path takes a
 * whole order-10 block of the first empty one (EMPTY step); then it stays
 * in that tainted superpageblock: fragments (Pass 1), then its free
 * pageblocks (Pass 2), leaving clean and empty ones alone. */
static void test_unmovable_tainted_first(void)
{
	struct machine *m = spb_machine(7 * GiB);
	struct zone *z = normal(m);
	pfn_t pfn;

	g_assert_cmpuint(take(m, z, 0, MIGRATE_UNMOVABLE), ==, PFN_NONE);
	pfn = take_fallback(m, z, 0, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(pfn, ==, SB0);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, SB0), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, SB0 + 512), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(sb(z, 0)->nr_unmovable, ==, 2);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 510);
	g_assert_true(on(sb(z, 0), &z->spb_lists[SB_TAINTED][SB_ALMOST_EMPTY]));
	/* A movable block opens sb1 (first empty), not tainted sb0. */
	g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, SB1);
	/* Unmovable order 9: sb0's order-9 remainder (Pass 1). */
	g_assert_cmpuint(take(m, z, 9, MIGRATE_UNMOVABLE), ==, SB0 + 512);
	/* Unmovable order 9 again: no unmovable block left, Pass 2 claims
	 * sb0's next free order-10 block whole. */
	pfn = take(m, z, 9, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(pfn, ==, SB0 + 1024);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, SB0 + 1536), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(sb(z, 0)->nr_unmovable, ==, 4);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 508);
	g_assert_cmpuint(sb(z, 1)->nr_free, ==, 510);
	g_assert_cmpuint(sb(z, 1)->nr_unmovable, ==, 0);
	g_assert_cmpuint(sb(z, 2)->nr_free, ==, 512);
	g_assert_true(on(sb(z, 2), &z->spb_empty));
	assert_invariants(m);
	machine_destroy(m);
}

/* Superpageblock list work is zone->lock work: the walks' visits and the
 * list moves are charged when zone->lock is released. */
static unsigned long spb_charged[NR_MM_COSTS];

static void record_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	(void)ctx;
	spb_charged[kind] += n;
}

static void test_list_work_charged(void)
{
	struct machine *m = spb_machine(7 * GiB);
	struct zone *z = normal(m);
	struct mm_env env = mm_env_null;
	struct mm_ctx ctx = { .env = &env, .cpu = 0 };

	env.charge = record_charge;
	memset(spb_charged, 0, sizeof(spb_charged));
	zone_lock(&ctx, z, SITE_OTHER);
	/* Passes 1 and 2 find no tainted superpageblock; Pass 3 looks at the
	 * three empty ones and takes none (no whole block of that type);
	 * then the claim taints sb0, which moves to a tainted bucket. */
	g_assert_cmpuint(take(m, z, 0, MIGRATE_UNMOVABLE), ==, PFN_NONE);
	g_assert_cmpuint(mm_work_spb_visits(&z->work), ==, 3);
	g_assert_cmpuint(z->work.spb_moves, ==, 0);
	g_assert_cmpuint(take_fallback(m, z, 0, MIGRATE_UNMOVABLE), ==, SB0);
	g_assert_cmpuint(z->work.spb_moves, >=, 1);
	unsigned long visits = mm_work_spb_visits(&z->work), moves = z->work.spb_moves;
	g_assert_cmpuint(spb_charged[COST_SPB_VISIT], ==, 0);
	zone_unlock(&ctx, z);
	g_assert_cmpuint(spb_charged[COST_SPB_VISIT], ==, visits);
	g_assert_cmpuint(spb_charged[COST_SPB_LIST_MOVE], ==, moves);
	g_assert_cmpuint(mm_work_spb_visits(&z->work), ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

/* The walks read every superpageblock of a bucket in turn, those with no
 * free page too (the tip's `continue`); the indexed what-if reads only
 * those with a free page and takes the same pages, for a list move more
 * per relink of a superpageblock with a free page.  Layout: an 8 GiB
 * machine, ZONE_NORMAL's sb0-sb2 filled with movable pageblocks (clean,
 * full, no free page), sb3 with one (clean, almost empty). */
static void test_walk_visits(gconstpointer data)
{
	bool indexed = GPOINTER_TO_INT(data);
	struct machine *m = spb_machine_walk(8 * GiB, indexed);
	struct zone *z = normal(m);
	pfn_t sb3 = SB0 + 3 * SUPERPAGEBLOCK_NR_PAGES;

	for (unsigned i = 0; i < 3 * 512; i++)
		g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, SB0 + i * 512);
	g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, sb3);
	for (unsigned i = 0; i < 3; i++) {
		g_assert_true(on(sb(z, i), &z->spb_lists[SB_CLEAN][SB_FULL]));
		g_assert_cmpuint(sb(z, i)->nr_free_pages, ==, 0);
	}
	g_assert_true(on(sb(z, 3), &z->spb_lists[SB_CLEAN][SB_ALMOST_EMPTY]));

	/* Movable order 0, Pass 1: the full bucket's sb0, sb1, sb2 (passed
	 * by), then sb3's order-9 remainder split; one relink of sb3 (the
	 * remainder's pageblock counts as used since the order-10 split). */
	z->work = (struct mm_work){ 0 };
	g_assert_cmpuint(take(m, z, 0, MIGRATE_MOVABLE), ==, sb3 + 512);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS1], ==, indexed ? 1 : 4);
	g_assert_cmpuint(mm_work_spb_visits(&z->work), ==, indexed ? 1 : 4);
	g_assert_cmpuint(z->work.spb_moves, ==, indexed ? 2 : 1);

	/* Unmovable order 0: Passes 1-3 find no tainted or empty one; the
	 * claim's clean step (after the tainted and empty steps, which read
	 * nothing at any order) reads sb0-sb3 at order 10 and claims sb3's
	 * first free order-10 block. */
	z->work = (struct mm_work){ 0 };
	g_assert_cmpuint(take_fallback(m, z, 0, MIGRATE_UNMOVABLE), ==, sb3 + 1024);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS1], ==, 0);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS2], ==, 0);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS3], ==, 0);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_FALLBACK], ==, indexed ? 1 : 4);
	g_assert_cmpuint(mm_work_spb_visits(&z->work), ==, indexed ? 1 : 4);
	g_assert_true(on(sb(z, 3), &z->spb_lists[SB_TAINTED][SB_ALMOST_EMPTY]));

	/* Movable order 0 again: Pass 1 reads the clean buckets (sb0-sb2),
	 * Pass 3 nothing, Pass 4 the tainted sb3 (510 free pageblocks, above
	 * its reserve), whose order-0 remainder it takes. */
	z->work = (struct mm_work){ 0 };
	g_assert_cmpuint(take(m, z, 0, MIGRATE_MOVABLE), ==, sb3 + 513);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS1], ==, indexed ? 0 : 3);
	g_assert_cmpuint(z->work.spb_visits[SPB_WALK_PASS4], ==, 1);
	assert_invariants(m);
	machine_destroy(m);
}

/* What the recording env of test_walk_same_pages sums: the work of every
 * zone->lock section of a zone with superpageblocks. */
struct section_sums {
	unsigned long sections, list_ops, split_steps, merge_steps, visits, moves;
};

static struct section_sums section_sums[2];
static int summing;     /* the machine the calls are for */

static void sum_section(struct mm_ctx *ctx, enum lock_site site, const struct mm_work *w)
{
	struct section_sums *s = &section_sums[summing];

	(void)ctx, (void)site;
	s->sections++;
	s->list_ops += w->list_ops;
	s->split_steps += w->split_steps;
	s->merge_steps += w->merge_steps;
	s->visits += mm_work_spb_visits(w);
	s->moves += w->spb_moves;
}

/* The indexed walk changes what the walks read, and nothing they find:
 * the same 200,000 random allocations and frees (the seed's) on a small
 * two-node machine, one with each walk, hand out the same pages, with the
 * same list work; the indexed one reads fewer superpageblocks. */
static void test_walk_same_pages(void)
{
	struct machine *m[2];
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct mm_env env = mm_env_null;
	static const unsigned orders[] = { 0, 0, 0, 1, 2, 3, 4, 9, 10 };
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE, GFP_HIGHUSER_MOVABLE,
				      GFP_KERNEL | __GFP_RECLAIMABLE };
	enum { OPS = 200000, MAX_LIVE = 20000 };
	pfn_t *live = g_new(pfn_t, MAX_LIVE);
	unsigned nr_live = 0;
	GRand *rand = g_rand_new_with_seed(7);

	/* Node 0 with DMA32 and a 1 GiB Normal zone, node 1 a 1.25 GiB one:
	 * small enough to fill, fall back and claim. */
	topology_uniform(&t, 2, 1, 4, 1280 * MiB);
	t.node_mem[0] = 5 * GiB;
	machine_params_default(&p);
	p.policy = POLICY_SPB;
	for (int i = 0; i < 2; i++) {
		p.spb_walk_indexed = i;
		m[i] = machine_create(&t, &p, &err);
		g_assert_null(err);
	}
	env.spb_section = sum_section;
	memset(section_sums, 0, sizeof(section_sums));
	for (unsigned op = 0; op < OPS; op++) {
		bool alloc = nr_live == 0 || (nr_live < MAX_LIVE && g_rand_int_range(rand, 0, 100) < 55);
		struct mm_ctx ctx = { .env = &env, .cpu = (unsigned)g_rand_int_range(rand, 0, 8) };

		if (alloc) {
			unsigned order = orders[g_rand_int_range(rand, 0, G_N_ELEMENTS(orders))];
			gfp_t gfp = gfps[g_rand_int_range(rand, 0, G_N_ELEMENTS(gfps))];
			int nid = g_rand_int_range(rand, 0, 2);
			pfn_t pfn[2];

			for (summing = 0; summing < 2; summing++)
				pfn[summing] = __alloc_pages(&ctx, m[summing], gfp, order, nid, 7, op);
			g_assert_cmpuint(pfn[0], ==, pfn[1]);
			if (pfn[0] != PFN_NONE)
				live[nr_live++] = pfn[0];
		} else {
			unsigned k = (unsigned)g_rand_int_range(rand, 0, (gint32)nr_live);

			for (summing = 0; summing < 2; summing++)
				g_assert_cmpint(__free_pages(&ctx, m[summing], live[k]), ==, 0);
			live[k] = live[--nr_live];
		}
	}
	g_assert_cmpuint(section_sums[0].sections, >, 1000);
	g_assert_cmpuint(section_sums[0].sections, ==, section_sums[1].sections);
	g_assert_cmpuint(section_sums[0].list_ops, ==, section_sums[1].list_ops);
	g_assert_cmpuint(section_sums[0].split_steps, ==, section_sums[1].split_steps);
	g_assert_cmpuint(section_sums[0].merge_steps, ==, section_sums[1].merge_steps);
	g_assert_cmpuint(section_sums[1].visits, <, section_sums[0].visits);
	g_assert_cmpuint(section_sums[1].moves, >, section_sums[0].moves);
	g_test_message("sections %lu; visits %lu patch, %lu indexed; moves %lu, %lu",
		       section_sums[0].sections, section_sums[0].visits, section_sums[1].visits,
		       section_sums[0].moves, section_sums[1].moves);
	for (int i = 0; i < 2; i++) {
		assert_invariants(m[i]);
		machine_destroy(m[i]);
	}
	g_rand_free(rand);
	g_free(live);
}

/* Movable work skips a tainted superpageblock with 4 or fewer free
 * pageblocks (SPB_TAINTED_RESERVE), in Pass 4 and in claim/steal. */
static void test_movable_tainted_reserve(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone *z = normal(m);
	pfn_t pfn, last = PFN_NONE;

	g_assert_cmpuint(take_fallback(m, z, 0, MIGRATE_UNMOVABLE), ==, SB0);
	/* sb1 fills with movable blocks (Pass 3 then Pass 1). */
	for (unsigned i = 0; i < 512; i++)
		g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, SB1 + i * 512);
	/* Then movable falls back to tainted sb0 (Pass 4) while it has more
	 * than 4 free pageblocks: its free order-10 blocks from 0x100400 on. */
	while (sb(z, 0)->nr_free > SPB_TAINTED_RESERVE) {
		pfn = take(m, z, 9, MIGRATE_MOVABLE);
		g_assert_cmpuint(pfn >> SUPERPAGEBLOCK_ORDER, ==, SB0 >> SUPERPAGEBLOCK_ORDER);
		if (last == PFN_NONE)
			g_assert_cmpuint(pfn, ==, SB0 + 1024);
		last = pfn;
	}
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 4);
	/* sb0 still has free pages (an order-9 remainder, four free
	 * pageblocks, the unmovable fragments) but movable may not use them. */
	g_assert_cmpuint(sb(z, 0)->nr_free_pages, >, 4 * 512);
	g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, PFN_NONE);
	g_assert_cmpuint(take(m, z, 0, MIGRATE_MOVABLE), ==, PFN_NONE);
	g_assert_cmpuint(take_fallback(m, z, 0, MIGRATE_MOVABLE), ==, PFN_NONE);
	/* Unmovable work still can (Pass 1: its order-9 remainder). */
	g_assert_cmpuint(take(m, z, 9, MIGRATE_UNMOVABLE), ==, SB0 + 512);
	/* Freeing movable blocks back above the reserve reopens sb0. */
	give(m, z, last, 9);
	give(m, z, last - 512, 9);
	give(m, z, last - 1024, 9);
	g_assert_cmpuint(sb(z, 0)->nr_free, >, SPB_TAINTED_RESERVE);
	pfn = take(m, z, 0, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn >> SUPERPAGEBLOCK_ORDER, ==, SB0 >> SUPERPAGEBLOCK_ORDER);
	assert_invariants(m);
	machine_destroy(m);
}

/* A pageblock that becomes wholly free loses its usage bits and is
 * relabelled MOVABLE; its superpageblock's counters and list follow.  The
 * other half of the claimed order-10 block merges in under the new label
 * but keeps its PB_has_unmovable (docs/MODEL.md, "Pageblock usage bits"): sb0 stays tainted. */
static void test_free_pageblock_relabelled(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone *z = normal(m);
	GString *out = g_string_new(NULL);

	g_assert_cmpuint(take_fallback(m, z, 0, MIGRATE_UNMOVABLE), ==, SB0);
	g_assert_true(on(sb(z, 0), &z->spb_lists[SB_TAINTED][SB_ALMOST_EMPTY]));
	g_assert_true(pbf(m, SB0) & PB_has_unmovable);
	g_assert_false(pbf(m, SB0) & PB_all_free);
	give(m, z, SB0, 0);
	/* Merged up to order 9 at SB0: mark_pageblock_free(); then with the
	 * UNMOVABLE order-9 remainder at SB0+512 to order 10, relabelled. */
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, SB0), ==, MIGRATE_MOVABLE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, SB0 + 512), ==, MIGRATE_MOVABLE);
	g_assert_true(pbf(m, SB0) & PB_all_free);
	g_assert_false(pbf(m, SB0) & PB_has_unmovable);
	g_assert_false(pbf(m, SB0 + 512) & PB_all_free);
	g_assert_true(pbf(m, SB0 + 512) & PB_has_unmovable);
	g_assert_cmpuint(sb(z, 0)->nr_unmovable, ==, 1);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 511);
	g_assert_cmpuint(list_len(z, 10, MIGRATE_MOVABLE), ==, 512);
	g_assert_true(on(sb(z, 0), &z->spb_lists[SB_TAINTED][SB_ALMOST_EMPTY]));
	proc_superpageblocks(m, out);
	g_assert_nonnull(strstr(out->str,
		"Node 0, zone   Normal: 2 superpageblocks, base_pfn=0x100000\n"
		"  empty: 1\n"
		"  tainted/almost_empty: 1\n"
		"  sb[0] pfn=0x100000: unmov=1 recl=0 mov=0 rsv=0 free=511 total=512\n"
		"  sb[1] pfn=0x140000: unmov=0 recl=0 mov=0 rsv=0 free=512 total=512\n"));
	/* Allocated (as movable, Pass 4: 511 free > 4) and freed again, the
	 * order-10 block clears the stale bit: sb0 is empty again. */
	pfn_t pfn = take(m, z, 10, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, !=, SB0);     /* Pass 3 first: empty sb1's head block */
	give(m, z, pfn, 10);
	g_assert_true(on(sb(z, 1), &z->spb_empty));
	g_assert_cmpuint(take(m, z, 10, MIGRATE_MOVABLE), ==, SB1);
	/* sb1 went to the tail of spb_empty when freed, so now: allocate
	 * sb0's head block directly. */
	give(m, z, SB1, 10);
	pfn = __rmqueue_from_sb(z, sb(z, 0), 10, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, ==, SB0);
	mark_allocated(m, pfn, 10, MIGRATE_MOVABLE);
	g_assert_cmpuint(sb(z, 0)->nr_movable, ==, 2);
	give(m, z, SB0, 10);
	g_assert_cmpuint(sb(z, 0)->nr_unmovable, ==, 0);
	g_assert_cmpuint(sb(z, 0)->nr_movable, ==, 0);
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 512);
	g_assert_true(on(sb(z, 0), &z->spb_empty));
	g_string_free(out, TRUE);
	assert_invariants(m);
	machine_destroy(m);
}

/* Every allocation moves its superpageblock to the tail of its bucket, so
 * consecutive ones alternate between two superpageblocks of one bucket. */
static void test_bucket_rotation(void)
{
	struct machine *m = spb_machine(6 * GiB);
	struct zone *z = normal(m);
	struct spb_list *bucket = &z->spb_lists[SB_CLEAN][SB_ALMOST_EMPTY];
	/* Each order-0 request takes the head superpageblock's smallest
	 * block: the order-9 remainders first, then their order-0 and
	 * order-1 remainders. */
	static const pfn_t expect[] = { SB0 + 512, SB1 + 512, SB0 + 513, SB1 + 513,
					SB0 + 514, SB1 + 514 };

	g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, SB0);
	pfn_t pfn = __rmqueue_from_sb(z, sb(z, 1), 9, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, ==, SB1);
	mark_allocated(m, pfn, 9, MIGRATE_MOVABLE);
	g_assert_cmpuint(bucket->nr, ==, 2);
	g_assert_cmpuint(bucket->head, ==, 0);
	for (unsigned i = 0; i < G_N_ELEMENTS(expect); i++) {
		pfn = take(m, z, 0, MIGRATE_MOVABLE);
		g_assert_cmpuint(pfn, ==, expect[i]);
		/* The one just used is now the tail. */
		g_assert_cmpuint(bucket->tail, ==, i % 2);
	}
	assert_invariants(m);
	machine_destroy(m);
}

/* PCP refill at the tip: Phase 1 takes movable pageblocks from the
 * fullest clean superpageblock with a free pageblock (not an empty one,
 * not the most recently used one); Phase 2 is gone. */
static void test_pcp_refill(void)
{
	struct machine *m = spb_machine(7 * GiB);
	struct zone *z = normal(m);
	struct mm_ctx ctx = mm_ctx_null(0);

	/* sb0: 130 movable pageblocks used (25%); sb1: 2 (almost empty). */
	for (unsigned i = 0; i < 130; i++)
		g_assert_cmpuint(take(m, z, 9, MIGRATE_MOVABLE), ==, SB0 + i * 512);
	pfn_t pfn = __rmqueue_from_sb(z, sb(z, 1), 9, MIGRATE_MOVABLE);
	mark_allocated(m, pfn, 9, MIGRATE_MOVABLE);
	g_assert_true(sb_preferred_for_movable(z) == sb(z, 0));
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	unsigned long got = rmqueue_bulk(&ctx, z, 0, 1024, MIGRATE_MOVABLE, ALLOC_WMARK_LOW, pcp);
	g_assert_cmpuint(got, ==, 1024);
	/* Two whole pageblocks, owned by CPU 0, both from sb0. */
	g_assert_cmpuint(sb(z, 0)->nr_free, ==, 512 - 132);
	g_assert_cmpuint(sb(z, 1)->nr_free, ==, 510);
	g_assert_cmpint(get_pcpblock_owner(m, SB0 + 130 * 512), ==, 0);
	g_assert_cmpint(get_pcpblock_owner(m, SB0 + 131 * 512), ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

/* online_memory_block(): memory added at the top of ZONE_NORMAL inside the
 * node's hotplug reserve, under every policy; with superpageblocks the
 * array grows (resize_zone_superpageblocks) and new ones end on spb_empty
 * once their pages are freed. */
static void test_hotplug_grow(gconstpointer data)
{
	enum mm_policy policy = (enum mm_policy)GPOINTER_TO_INT(data);
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct mm_ctx ctx = mm_ctx_null(0);

	topology_uniform(&t, 1, 1, 4, 6 * GiB);
	machine_params_default(&p);
	p.thp = false;
	p.boot_reserve = false;
	p.policy = policy;
	p.hotplug_reserve = 2 * GiB;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	struct zone *z = normal(m);
	unsigned long free0 = machine_free_pages(m);
	int min0 = m->min_free_kbytes;

	/* Some memory in use first, so the grown zone is not pristine. */
	pfn_t used = take_fallback(m, z, 0, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(used, !=, PFN_NONE);
	g_assert_cmpint(online_memory_block(&ctx, m, 0, GiB), ==, 0);
	g_assert_cmpuint(zone_end_pfn(z), ==, 7 * (GiB >> PAGE_SHIFT));
	g_assert_cmpuint(z->managed_pages, ==, 3 * (GiB >> PAGE_SHIFT));
	g_assert_cmpuint(machine_free_pages(m), ==, free0 - 1 + (GiB >> PAGE_SHIFT));
	g_assert_cmpint(m->min_free_kbytes, >, min0);
	assert_invariants(m);
	/* 128 MiB more starts a fourth superpageblock; 128 MiB more grows it. */
	g_assert_cmpint(online_memory_block(&ctx, m, 0, 128 * MiB), ==, 0);
	g_assert_cmpint(online_memory_block(&ctx, m, 0, 128 * MiB), ==, 0);
	assert_invariants(m);
	if (policy == POLICY_SPB) {
		g_assert_cmpuint(z->nr_superpageblocks, ==, 4);
		g_assert_cmpuint(sb(z, 2)->total_pageblocks, ==, 512);
		g_assert_true(on(sb(z, 2), &z->spb_empty));
		g_assert_cmpuint(sb(z, 3)->total_pageblocks, ==, 128);   /* 2 x 64 */
		g_assert_cmpuint(sb(z, 3)->nr_free, ==, 128);
		g_assert_cmpuint(sb(z, 3)->nr_reserved, ==, 0);
		g_assert_true(on(sb(z, 3), &z->spb_empty));
		g_assert_true(on(sb(z, 0), &z->spb_lists[SB_TAINTED][SB_ALMOST_EMPTY]));
	}
	/* Beyond the reserve, not a section multiple, or no such node: refused. */
	g_assert_cmpint(online_memory_block(&ctx, m, 0, GiB), ==, ONLINE_NO_ROOM);
	g_assert_cmpint(online_memory_block(&ctx, m, 0, 64 * MiB), ==, ONLINE_EINVAL);
	g_assert_cmpint(online_memory_block(&ctx, m, 1, 128 * MiB), ==, ONLINE_EINVAL);
	give(m, z, used, 0);
	assert_invariants(m);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/spb/boot", test_boot);
	g_test_add_func("/spb/setup-state", test_setup_state);
	g_test_add_func("/spb/movable-fullest-clean-first", test_movable_fullest_clean_first);
	g_test_add_func("/spb/unmovable-tainted-first", test_unmovable_tainted_first);
	g_test_add_func("/spb/list-work-charged", test_list_work_charged);
	g_test_add_data_func("/spb/walk-visits/patch", GINT_TO_POINTER(0), test_walk_visits);
	g_test_add_data_func("/spb/walk-visits/indexed", GINT_TO_POINTER(1), test_walk_visits);
	g_test_add_func("/spb/walk-same-pages", test_walk_same_pages);
	g_test_add_func("/spb/movable-tainted-reserve", test_movable_tainted_reserve);
	g_test_add_func("/spb/free-pageblock-relabelled", test_free_pageblock_relabelled);
	g_test_add_func("/spb/bucket-rotation", test_bucket_rotation);
	g_test_add_func("/spb/pcp-refill", test_pcp_refill);
	g_test_add_data_func("/hotplug/grow/upstream", GINT_TO_POINTER(POLICY_UPSTREAM),
			     test_hotplug_grow);
	g_test_add_data_func("/hotplug/grow/pcp_buddy", GINT_TO_POINTER(POLICY_PCP_BUDDY),
			     test_hotplug_grow);
	g_test_add_data_func("/hotplug/grow/spb", GINT_TO_POINTER(POLICY_SPB), test_hotplug_grow);
	return g_test_run();
}
