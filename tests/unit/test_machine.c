/* Machine construction: presets, zone layout, and refusal of impossible
 * machines before anything is allocated. */
#include "helpers.h"
#include "models/procfs.h"

#include <string.h>

static void test_presets(void)
{
	struct topology t;

	g_assert_cmpint(topology_preset(&t, "2s-1t"), ==, 0);
	g_assert_cmpuint(t.nr_nodes, ==, 2);
	g_assert_cmpuint(topology_total_mem(&t), ==, 1024 * GiB);
	g_assert_cmpint(topology_preset(&t, "4s-4t"), ==, 0);
	g_assert_cmpuint(t.nr_nodes, ==, 4);
	g_assert_cmpuint(topology_total_mem(&t), ==, 4096 * GiB);
	g_assert_cmpuint(topology_nr_cpus(&t), ==, 384);
	g_assert_cmpuint(topology_cpu_to_node(&t, 95), ==, 0);
	g_assert_cmpuint(topology_cpu_to_node(&t, 96), ==, 1);
	g_assert_cmpint(topology_preset(&t, "nope"), ==, -1);
}

static void test_refuses_unaligned_memory(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, 1 * GiB + 64 * MiB);
	machine_params_default(&p);
	g_assert_null(machine_create(&t, &p, &err));
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "1088 MiB"));
	g_assert_nonnull(strstr(err, "128 MiB"));
	g_free(err);
}

static void test_refuses_too_large(void)
{
	struct topology t;
	char *err;

	/* 16 TiB is 2^32 frames: beyond 32-bit frame numbers. */
	topology_uniform(&t, 4, 1, 4, 4096 * GiB);
	err = topology_validate(&t, UINT64_MAX);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "4294967296 frames"));
	g_free(err);
	/* 4 TiB needs 1073741824 frames * 12 bytes = 12288 MiB: refused on an
	 * 8 GiB host, with the numbers. */
	topology_uniform(&t, 4, 1, 4, 1024 * GiB);
	err = topology_validate(&t, 8 * GiB);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "12288 MiB"));
	g_assert_nonnull(strstr(err, "8192 MiB"));
	g_free(err);
	g_assert_null(topology_validate(&t, 16 * GiB));
}

/* Node 0 holds DMA and DMA32; node 1 starts at 5 GiB and holds only
 * Normal, and a Movable zone takes the top 1 GiB of each node. */
static void test_zone_layout(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 5 * GiB);
	t.movable_mem[0] = t.movable_mem[1] = 1 * GiB;
	machine_params_default(&p);
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	struct pglist_data *n0 = &m->node_data[0], *n1 = &m->node_data[1];
	g_assert_cmpuint(n0->node_zones[ZONE_DMA].spanned_pages, ==, 4096);
	g_assert_cmpuint(n0->node_zones[ZONE_DMA32].zone_start_pfn, ==, 4096);
	g_assert_cmpuint(n0->node_zones[ZONE_DMA32].spanned_pages, ==, 1044480);
	g_assert_cmpuint(n0->node_zones[ZONE_NORMAL].spanned_pages, ==, 0);
	g_assert_cmpuint(n0->node_zones[ZONE_MOVABLE].zone_start_pfn, ==, 1048576);
	g_assert_cmpuint(n1->node_zones[ZONE_DMA32].spanned_pages, ==, 0);
	g_assert_cmpuint(n1->node_zones[ZONE_NORMAL].zone_start_pfn, ==, 1310720);
	g_assert_cmpuint(n1->node_zones[ZONE_NORMAL].spanned_pages, ==, 1048576);
	g_assert_cmpuint(n1->node_zones[ZONE_MOVABLE].spanned_pages, ==, 262144);
	/* Node 0's zonelist: its own zones highest first, then node 1's. */
	g_assert_true(n0->zonelist[0] == &n0->node_zones[ZONE_MOVABLE]);
	g_assert_true(n0->zonelist[1] == &n0->node_zones[ZONE_DMA32]);
	g_assert_true(n0->zonelist[2] == &n0->node_zones[ZONE_DMA]);
	g_assert_true(n0->zonelist[3] == &n1->node_zones[ZONE_MOVABLE]);
	g_assert_true(n1->zonelist[0] == &n1->node_zones[ZONE_MOVABLE]);
	g_assert_true(n1->zonelist[1] == &n1->node_zones[ZONE_NORMAL]);
	assert_invariants(m);

	GString *s = g_string_new(NULL);
	proc_buddyinfo(m, s);
	g_assert_cmpstr(s->str, ==,
		"Node 0, zone      DMA      0      0      0      0      0      0      0      0      0      0      4 \n"
		"Node 0, zone    DMA32      0      0      0      0      0      0      0      0      0      0   1020 \n"
		"Node 0, zone  Movable      0      0      0      0      0      0      0      0      0      0    256 \n"
		"Node 1, zone   Normal      0      0      0      0      0      0      0      0      0      0   1024 \n"
		"Node 1, zone  Movable      0      0      0      0      0      0      0      0      0      0    256 \n");
	g_string_free(s, TRUE);
	machine_destroy(m);
}

static void test_dump_formats(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	GString *s = g_string_new(NULL);

	proc_pagetypeinfo(m, s);
	g_assert_true(g_str_has_prefix(s->str,
		"Page block order: 9\n"
		"Pages per block:  512\n"
		"\n"
		"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n"
		"Node    0, zone      DMA, type    Unmovable      0      0      0      0      0      0      0      0      0      0      0 \n"
		"Node    0, zone      DMA, type      Movable      0      0      0      0      0      0      0      0      0      0      4 \n"));
	g_assert_nonnull(strstr(s->str,
		"\nNumber of blocks type     Unmovable      Movable  Reclaimable   HighAtomic          CMA      Isolate \n"
		"Node 0, zone      DMA            0            8            0            0            0            0 \n"
		"Node 0, zone    DMA32            0           56            0            0            0            0 \n"));
	g_string_truncate(s, 0);
	proc_zoneinfo(m, s);
	g_assert_true(g_str_has_prefix(s->str,
		"Node 0, zone      DMA\n"
		"  pages free     4096\n"
		"        boost    0\n"));
	g_assert_nonnull(strstr(s->str, "        managed  28672\n"
				"        cma      0\n"
				"        protection: (0, 0, 0, 0, 0)\n"
				"  start_pfn:           4096\n"
				"Node 0, zone   Normal\n"));
	g_string_free(s, TRUE);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/machine/presets", test_presets);
	g_test_add_func("/machine/refuses-unaligned-memory", test_refuses_unaligned_memory);
	g_test_add_func("/machine/refuses-too-large", test_refuses_too_large);
	g_test_add_func("/machine/zone-layout", test_zone_layout);
	g_test_add_func("/machine/dump-formats", test_dump_formats);
	return g_test_run();
}
