/* Randomized property test, for each policy: a million mixed allocations
 * and frees of random orders, migratetypes, nodes and CPUs, the invariant
 * checker every 10,000 operations, and at the end every zone back to its
 * boot buddyinfo once everything is freed and the pagesets drained. */
#include "helpers.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
#include "models/procfs.h"

#define OPS 1000000
#define CHECK_EVERY 10000
#define MAX_LIVE 40000

static void test_random_ops(gconstpointer data)
{
	enum mm_policy policy = (enum mm_policy)GPOINTER_TO_INT(data);
	/* Node 0: DMA, DMA32 (16 MiB-4 GiB) and a 256 MiB Normal zone; node 1:
	 * a 256 MiB Normal zone without DMA32 (so it runs without
	 * ALLOC_NOFRAGMENT).  The small Normal zones fill up and force the
	 * fallback, claim and steal paths and spills to other zones and nodes. */
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 256 * MiB);
	t.node_mem[0] = 4 * GiB + 256 * MiB;
	machine_params_default(&p);
	p.policy = policy;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);

	GString *boot = g_string_new(NULL);
	proc_buddyinfo(m, boot);
	unsigned long boot_free = machine_free_pages(m);

	GRand *rand = g_rand_new_with_seed(42);
	pfn_t *live = g_new(pfn_t, MAX_LIVE);
	unsigned nr_live = 0, failures = 0, allocs = 0;
	static const unsigned orders[] = { 0, 0, 0, 0, 1, 2, 3, 3, 4, 6, 9, 10 };
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE, GFP_HIGHUSER_MOVABLE,
				      GFP_KERNEL | __GFP_RECLAIMABLE, GFP_NOWAIT };

	for (unsigned op = 1; op <= OPS; op++) {
		bool do_alloc = nr_live == 0 ||
				(nr_live < MAX_LIVE && g_rand_int_range(rand, 0, 100) < 55);

		if (do_alloc) {
			unsigned order = orders[g_rand_int_range(rand, 0, G_N_ELEMENTS(orders))];
			gfp_t gfp = gfps[g_rand_int_range(rand, 0, G_N_ELEMENTS(gfps))];
			int nid = g_rand_int_range(rand, 0, 2);
			struct mm_ctx ctx = mm_ctx_null((unsigned)g_rand_int_range(rand, 0, 4));
			pfn_t pfn = __alloc_pages(&ctx, m, gfp, order, nid, 7, op);

			allocs++;
			if (pfn == PFN_NONE) {
				failures++;
			} else {
				g_assert_cmpuint(page_owner(m, pfn), ==, 7);
				g_assert_cmpuint(page_owner_offset(m, pfn), ==, op);
				live[nr_live++] = pfn;
			}
		} else {
			unsigned i = (unsigned)g_rand_int_range(rand, 0, (gint32)nr_live);
			struct mm_ctx ctx = mm_ctx_null((unsigned)g_rand_int_range(rand, 0, 4));

			g_assert_cmpint(__free_pages(&ctx, m, live[i]), ==, 0);
			live[i] = live[--nr_live];
		}
		if (op % CHECK_EVERY == 0)
			assert_invariants(m);
	}
	/* The run must have exercised fallbacks, not just split and merged. */
	unsigned long non_movable_blocks = 0;
	for_each_populated_zone(m, z)
		for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages)
			non_movable_blocks += get_pfnblock_migratetype(&m->mm, pfn) != MIGRATE_MOVABLE;
	g_assert_cmpuint(non_movable_blocks, >, 0);
	g_test_message("%u allocations, %u failed, %lu non-movable pageblocks",
		       allocs, failures, non_movable_blocks);

	struct mm_ctx ctx = mm_ctx_null(0);
	pfn_t last = live[0];
	while (nr_live)
		g_assert_cmpint(__free_pages(&ctx, m, live[--nr_live]), ==, 0);
	assert_invariants(m);
	/* Pages cached on per-CPU lists go back to the buddy only when drained. */
	drain_all_pages(&ctx, m, NULL);
	g_assert_cmpuint(machine_pcp_pages(m), ==, 0);
	assert_invariants(m);
	GString *end = g_string_new(NULL);
	proc_buddyinfo(m, end);
	g_assert_cmpstr(end->str, ==, boot->str);
	g_assert_cmpuint(machine_free_pages(m), ==, boot_free);
	/* Freeing a block twice, or the first MiB reserved at boot, is refused. */
	g_assert_cmpint(__free_pages(&ctx, m, last), ==, -1);
	g_assert_cmpint(__free_pages(&ctx, m, 0), ==, -1);
	g_assert_cmpuint(machine_free_pages(m), ==, boot_free);

	g_string_free(boot, TRUE);
	g_string_free(end, TRUE);
	g_free(live);
	g_rand_free(rand);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/random-1m-ops/upstream", GINT_TO_POINTER(POLICY_UPSTREAM),
			     test_random_ops);
	g_test_add_data_func("/random-1m-ops/pcp_buddy", GINT_TO_POINTER(POLICY_PCP_BUDDY),
			     test_random_ops);
	g_test_add_data_func("/random-1m-ops/spb", GINT_TO_POINTER(POLICY_SPB),
			     test_random_ops);
	return g_test_run();
}
