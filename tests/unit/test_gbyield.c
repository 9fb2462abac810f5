/* Hand-worked cases of the per-pageblock accounting (pbstat) and the 1GB
 * yield figures, on a 6 GiB machine: one node, ZONE_DMA pfns 0-4095,
 * ZONE_DMA32 4096-1048575, ZONE_Normal 1048576-1572863.  GiB 0 holds the
 * DMA/DMA32 boundary, so the 1 GiB regions are GiB 1-3 (DMA32) and 4-5
 * (Normal): 5 regions. */
#include "helpers.h"
#include "models/gbyield.h"
#include "models/hugetlb.h"
#include "models/migrate.h"
#include "models/page_alloc.h"
#include "models/pbstat.h"
#include "models/pcp.h"

#define GB_PAGES ((pfn_t)GB_REGION_PAGES)

static void assert_yield(struct machine *m, unsigned long free_now, unsigned long movable_only)
{
	struct gb_yield y;

	gb_yield(m, &y);
	g_assert_cmpuint(y.total_regions, ==, 5);
	g_assert_cmpuint(y.possible, ==, 5);     /* no boot reservations here */
	g_assert_cmpuint(y.free_now, ==, free_now);
	g_assert_cmpuint(y.movable_only, ==, movable_only);
}

/* Recount every pageblock from the frames (what pbstat saves the samples
 * from doing) and compare. */
static void assert_pbstat_matches_frames(struct machine *m)
{
	const struct memmap *mm = &m->mm;
	struct pbstat *ps = m->pbstat;
	uint16_t (*want)[NR_PBSTAT_ITEMS] = g_malloc0_n(ps->nr_pageblocks, sizeof(*want));
	uint64_t region[NR_PBSTAT_ITEMS] = { 0 };

	for (pfn_t pfn = 0; pfn < mm->nr_frames;) {
		enum page_kind kind = page_kind(mm, pfn);
		unsigned order = kind == PG_KIND_NONE ? 0 : page_order(mm, pfn);
		int item = kind == PG_KIND_ALLOC ? (int)page_extra(mm, pfn) :
			   kind == PG_KIND_PCP ? PBSTAT_PCP : -1;

		for (pfn_t p = pfn; item >= 0 && p < pfn + (1u << order); p++)
			want[pfn_to_pb(p)][item]++;
		pfn += 1u << order;
	}
	for (uint32_t pb = 0; pb < ps->nr_pageblocks; pb++)
		for (int i = 0; i < NR_PBSTAT_ITEMS; i++)
			g_assert_cmpuint(ps->pb[pb][i], ==, want[pb][i]);
	for (uint32_t r = 0; r < ps->nr_regions; r++) {
		for (int i = 0; i < NR_PBSTAT_ITEMS; i++) {
			uint64_t sum = 0;

			for (uint32_t k = 0; k < PAGEBLOCKS_PER_GB_REGION; k++)
				sum += want[r * PAGEBLOCKS_PER_GB_REGION + k][i];
			g_assert_cmpuint(ps->region[r][i], ==, sum);
			region[i] += sum;
		}
	}
	g_assert_cmpuint(region[PBSTAT_PCP], ==, machine_pcp_pages(m));
	g_free(want);
}

static void assert_all_zero(struct machine *m)
{
	struct pbstat *ps = m->pbstat;

	for (uint32_t pb = 0; pb < ps->nr_pageblocks; pb++)
		for (int i = 0; i < NR_PBSTAT_ITEMS; i++)
			g_assert_cmpuint(ps->pb[pb][i], ==, 0);
	for (uint32_t r = 0; r < ps->nr_regions; r++)
		for (int i = 0; i < NR_PBSTAT_ITEMS; i++)
			g_assert_cmpuint(ps->region[r][i], ==, 0);
}

static void test_fresh(void)
{
	struct machine *m = test_machine(6 * GiB, false);
	GString *s = g_string_new(NULL);

	g_assert_cmpuint(m->pbstat->nr_pageblocks, ==, 3072);
	g_assert_cmpuint(m->pbstat->nr_regions, ==, 6);
	assert_all_zero(m);
	/* Only GiB 0 is left out; 1 GiB of free memory to spare. */
	assert_yield(m, 5, 5);
	gb_memory_map_tics(m, s);
	g_assert_cmpstr(s->str, ==, "\"node 0\\nDMA+DMA32\" 0, \"node 0\\nNormal\" 4");
	g_string_truncate(s, 0);
	unsigned long n[NR_PB_CLASSES] = { 0 };

	gb_memory_map_matrix(m, s, n);
	g_assert_cmpuint(n[PB_CLASS_FREE], ==, 3072);
	g_assert_cmpuint(n[PB_CLASS_NONE], ==, 0);
	char **lines = g_strsplit(s->str, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 2 + 6 + 1);
	g_assert_cmpuint(strlen(lines[2]), ==, 2 * 512 - 1);
	g_assert_true(g_str_has_prefix(lines[2], "0 0 0"));
	g_strfreev(lines);
	g_string_free(s, TRUE);
	machine_destroy(m);
}

/* One unmovable page spoils its region for both figures until it is
 * freed; on the pageset it still keeps the region from being free now;
 * a drain brings every counter back to zero. */
static void test_unmovable_page(void)
{
	struct machine *m = test_machine(6 * GiB, false);
	struct mm_ctx ctx = mm_ctx_null(0);
	pfn_t pfn = __alloc_pages(&ctx, m, GFP_KERNEL, 0, 0, 1, 0);

	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_cmpuint(pfn >> GB_REGION_ORDER, >=, 4);
	g_assert_cmpuint(m->pbstat->pb[pfn_to_pb(pfn)][PBSTAT_UNMOVABLE], ==, 1);
	g_assert_cmpuint(m->pbstat->region[pfn >> GB_REGION_ORDER][PBSTAT_UNMOVABLE], ==, 1);
	/* The refill's other pages wait on CPU 0's pageset. */
	g_assert_cmpuint(machine_pcp_pages(m), >, 0);
	assert_pbstat_matches_frames(m);
	g_assert_cmpint(pageblock_class(m, pfn_to_pb(pfn)), ==, PB_CLASS_UNMOVABLE);
	/* 6 GiB - 1 GiB region - 4 free GiB leaves less than 1 GiB. */
	assert_yield(m, 4, 4);

	g_assert_cmpint(__free_pages(&ctx, m, pfn), ==, 0);
	g_assert_cmpuint(m->pbstat->pb[pfn_to_pb(pfn)][PBSTAT_UNMOVABLE], ==, 0);
	g_assert_cmpint(pageblock_class(m, pfn_to_pb(pfn)), ==, PB_CLASS_FREE);
	assert_pbstat_matches_frames(m);
	/* Pages on a pageset are free memory but not in the buddy. */
	assert_yield(m, 4, 5);

	drain_all_pages(&ctx, m, NULL);
	assert_all_zero(m);
	assert_yield(m, 5, 5);
	machine_destroy(m);
}

/* Movable pages leave a region movable-only; emptying it needs a whole
 * GiB of free memory elsewhere. */
static void test_movable_pages(void)
{
	struct machine *m = test_machine(6 * GiB, false);
	struct mm_ctx ctx = mm_ctx_null(0);
	pfn_t first = PFN_NONE, pfn = PFN_NONE;

	/* Order 10 bypasses the pagesets: exact counts.  The Normal zone
	 * hands out its lowest blocks first, so 257 blocks fill GiB 4 and
	 * start GiB 5. */
	for (int i = 0; i < 257; i++) {
		pfn = __alloc_pages(&ctx, m, GFP_HIGHUSER_MOVABLE, MAX_PAGE_ORDER, 0, 1, (uint32_t)i);
		g_assert_cmpuint(pfn, !=, PFN_NONE);
		if (i == 0) {
			first = pfn;
			g_assert_cmpuint(first >> GB_REGION_ORDER, ==, 4);
			/* An order-10 block is two full pageblocks. */
			g_assert_cmpuint(m->pbstat->pb[pfn_to_pb(pfn)][PBSTAT_MOVABLE], ==, 512);
			g_assert_cmpuint(m->pbstat->pb[pfn_to_pb(pfn) + 1][PBSTAT_MOVABLE], ==, 512);
			g_assert_cmpint(pageblock_class(m, pfn_to_pb(pfn) + 1), ==,
					PB_CLASS_MOVABLE);
			assert_yield(m, 4, 5);
		}
	}
	g_assert_cmpuint(pfn >> GB_REGION_ORDER, ==, 5);
	g_assert_cmpuint(m->pbstat->region[4][PBSTAT_MOVABLE], ==, GB_PAGES);
	g_assert_cmpuint(m->pbstat->region[5][PBSTAT_MOVABLE], ==, 1024);
	assert_pbstat_matches_frames(m);
	assert_yield(m, 3, 5);

	g_assert_cmpint(__free_pages(&ctx, m, pfn), ==, 0);
	assert_yield(m, 4, 5);
	for (pfn_t p = first; p < first + GB_PAGES; p += 1u << MAX_PAGE_ORDER)
		g_assert_cmpint(__free_pages(&ctx, m, p), ==, 0);
	assert_all_zero(m);
	assert_yield(m, 5, 5);
	machine_destroy(m);
}

/* Random allocations and frees of every type and pcp order on four CPUs,
 * under each allocator policy: the counters always match the frames. */
static void churn(enum mm_policy policy)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE,
				      GFP_KERNEL | __GFP_RECLAIMABLE };
	static const unsigned orders[] = { 0, 0, 0, 1, 2, 3, 9 };
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	GRand *rnd = g_rand_new_with_seed(7);
	GArray *held = g_array_new(FALSE, FALSE, sizeof(pfn_t));

	topology_uniform(&t, 1, 1, 4, 6 * GiB);
	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	p.policy = policy;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	for (int i = 0; i < 20000; i++) {
		struct mm_ctx ctx = mm_ctx_null((unsigned)g_rand_int_range(rnd, 0, 4));

		if (held->len && g_rand_int_range(rnd, 0, 5) < 2) {
			guint k = (guint)g_rand_int_range(rnd, 0, (gint32)held->len);

			g_assert_cmpint(__free_pages(&ctx, m, g_array_index(held, pfn_t, k)), ==, 0);
			g_array_remove_index_fast(held, k);
			continue;
		}
		pfn_t pfn = __alloc_pages(&ctx, m, gfps[g_rand_int_range(rnd, 0, 3)],
					  orders[g_rand_int_range(rnd, 0, 7)], 0, 1, 0);
		if (pfn != PFN_NONE)
			g_array_append_val(held, pfn);
	}
	assert_pbstat_matches_frames(m);
	for (guint k = 0; k < held->len; k++) {
		struct mm_ctx ctx = mm_ctx_null(k % 4);

		g_assert_cmpint(__free_pages(&ctx, m, g_array_index(held, pfn_t, k)), ==, 0);
	}
	assert_pbstat_matches_frames(m);
	struct mm_ctx ctx = mm_ctx_null(0);

	drain_all_pages(&ctx, m, NULL);
	assert_all_zero(m);
	assert_yield(m, 5, 5);
	g_array_free(held, TRUE);
	g_rand_free(rnd);
	machine_destroy(m);
}

static void test_churn(void)
{
	for (int policy = 0; policy < NR_MM_POLICIES; policy++)
		churn((enum mm_policy)policy);
}

/* The classes of the memory map, from the counters alone. */
static void test_pageblock_class(void)
{
	struct machine *m = test_machine(6 * GiB, false);
	struct pbstat *ps = m->pbstat;
	pfn_t pfn = 3 * GB_PAGES;
	uint32_t pb = pfn_to_pb(pfn);

	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_FREE);
	pbstat_pcp(ps, pfn, 3, +1);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_FREE);
	pbstat_alloc(ps, pfn + 8, 0, MIGRATE_RECLAIMABLE);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_RECLAIMABLE);
	pbstat_alloc(ps, pfn + 9, 0, MIGRATE_MOVABLE);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_MIXED);
	pbstat_free(ps, pfn + 8, 0, MIGRATE_RECLAIMABLE);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_MOVABLE);
	pbstat_alloc(ps, pfn + 16, 4, MIGRATE_UNMOVABLE);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_MIXED);
	pbstat_free(ps, pfn + 9, 0, MIGRATE_MOVABLE);
	g_assert_cmpint(pageblock_class(m, pb), ==, PB_CLASS_UNMOVABLE);
	g_assert_cmpuint(ps->region[3][PBSTAT_UNMOVABLE], ==, 16);
	g_assert_cmpuint(ps->region[3][PBSTAT_PCP], ==, 8);
	g_assert_cmpint(pageblock_class(m, pb + 1), ==, PB_CLASS_FREE);
	g_assert_cmpint(pageblock_class(m, ps->nr_pageblocks), ==, PB_CLASS_NONE);
	machine_destroy(m);
}

/* A 64 GiB node: its memmap is 1 GiB (64 bytes per 4 KiB page), the top
 * region, and its four CPUs' per-CPU areas (224 pages) sit right below,
 * in the next region down; the first MiB and the kernel image are in GiB
 * 0, which is no region.  Two of the 63 regions are lost, and no
 * migration can win them back. */
static void test_boot_reservations(void)
{
	struct topology t;
	struct machine_params p;
	struct gb_yield y;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, 64 * GiB);
	machine_params_default(&p);
	p.thp = false;
	p.boot_reserve = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	gb_yield(m, &y);
	g_assert_cmpuint(y.total_regions, ==, 63);
	g_assert_cmpuint(y.possible, ==, 63);
	g_assert_cmpuint(y.free_now, ==, 63);
	machine_destroy(m);

	p.boot_reserve = true;
	m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	g_assert_cmpuint(m->pbstat->region[63][PBSTAT_UNMOVABLE], ==, GB_REGION_PAGES);
	g_assert_cmpuint(m->pbstat->region[62][PBSTAT_UNMOVABLE], ==, 4 * 56);
	assert_pbstat_matches_frames(m);
	gb_yield(m, &y);
	g_assert_cmpuint(y.total_regions, ==, 63);
	/* GiB 63 is the memmap, GiB 62 holds the per-CPU areas: no policy
	 * gets either, so 61 regions are possible. */
	g_assert_cmpuint(y.possible, ==, 61);
	g_assert_cmpuint(y.free_now, ==, 61);
	g_assert_cmpuint(y.movable_only, ==, 61);
	g_assert_cmpint(pageblock_class(m, pfn_to_pb(63 * GB_PAGES)), ==, PB_CLASS_UNMOVABLE);
	/* 1 GiB pages come from the 61 free regions only, and not the two
	 * that hold reserved pages (pfn_range_valid_contig). */
	struct mm_ctx ctx = mm_ctx_null(0);
	struct migrate_stats st = { 0 };
	unsigned got = 0;
	pfn_t pfn;
	while ((pfn = alloc_gigantic_folio(&ctx, m, 0, &st)) != PFN_NONE) {
		g_assert_cmpuint(pfn >> GB_REGION_ORDER, <, 62);
		got++;
	}
	g_assert_cmpuint(got, ==, 61);
	g_assert_cmpuint(st.nr_succeeded, ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/gbyield/fresh", test_fresh);
	g_test_add_func("/gbyield/unmovable-page", test_unmovable_page);
	g_test_add_func("/gbyield/movable-pages", test_movable_pages);
	g_test_add_func("/gbyield/churn-every-policy", test_churn);
	g_test_add_func("/gbyield/pageblock-class", test_pageblock_class);
	g_test_add_func("/gbyield/boot-reservations", test_boot_reservations);
	return g_test_run();
}
