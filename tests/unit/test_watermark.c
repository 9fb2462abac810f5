/* Watermarks and lowmem reserves against the kernel's formulas, with the
 * arithmetic written out. */
#include "helpers.h"
#include "models/page_alloc.h"
#include "models/watermark.h"

/* One 8 GiB node: DMA 4096 pages, DMA32 pfns 4096-1048575 (1044480 pages),
 * Normal 1048576 pages. */
static void test_8g_without_thp(void)
{
	struct machine *m = test_machine(8 * GiB, false);
	struct zone *zd = &m->node_data[0].node_zones[ZONE_DMA];
	struct zone *z32 = &m->node_data[0].node_zones[ZONE_DMA32];
	struct zone *zn = &m->node_data[0].node_zones[ZONE_NORMAL];

	/* lowmem_kbytes = 2097152 pages * 4 = 8388608;
	 * int_sqrt(8388608 * 16) = int_sqrt(134217728) = 11585. */
	g_assert_cmpint(m->min_free_kbytes, ==, 11585);
	/* pages_min = 11585 / 4 = 2896; lowmem_pages = 2097152.
	 * DMA:   min = 2896 * 4096 / 2097152 = 5;
	 *        step = max(5 >> 2, mult_frac(4096, 10, 10000) = 4) = 4. */
	g_assert_cmpuint(zd->_watermark[WMARK_MIN], ==, 5);
	g_assert_cmpuint(zd->_watermark[WMARK_LOW], ==, 9);
	g_assert_cmpuint(zd->_watermark[WMARK_HIGH], ==, 13);
	g_assert_cmpuint(zd->_watermark[WMARK_PROMO], ==, 17);
	/* DMA32: min = 2896 * 1044480 / 2097152 = 1442;
	 *        step = max(360, 104 * 10 + 4480 * 10 / 10000 = 1044) = 1044. */
	g_assert_cmpuint(z32->_watermark[WMARK_MIN], ==, 1442);
	g_assert_cmpuint(z32->_watermark[WMARK_LOW], ==, 2486);
	g_assert_cmpuint(z32->_watermark[WMARK_HIGH], ==, 3530);
	/* Normal: min = 2896 * 1048576 / 2097152 = 1448;
	 *         step = max(362, 104 * 10 + 8576 * 10 / 10000 = 1048) = 1048. */
	g_assert_cmpuint(zn->_watermark[WMARK_MIN], ==, 1448);
	g_assert_cmpuint(zn->_watermark[WMARK_LOW], ==, 2496);
	g_assert_cmpuint(zn->_watermark[WMARK_HIGH], ==, 3544);
	/* lowmem_reserve (ratios DMA 256, DMA32 256, Normal 32):
	 * DMA[DMA32] = 1044480 / 256 = 4080; DMA[Normal] = 2093056 / 256 = 8176;
	 * DMA32[Normal] = 1048576 / 256 = 4096; Normal[Movable] = 0 / 32 = 0. */
	g_assert_cmpint(zd->lowmem_reserve[ZONE_DMA32], ==, 4080);
	g_assert_cmpint(zd->lowmem_reserve[ZONE_NORMAL], ==, 8176);
	g_assert_cmpint(zd->lowmem_reserve[ZONE_MOVABLE], ==, 8176);
	g_assert_cmpint(z32->lowmem_reserve[ZONE_DMA], ==, 0);
	g_assert_cmpint(z32->lowmem_reserve[ZONE_NORMAL], ==, 4096);
	g_assert_cmpint(zn->lowmem_reserve[ZONE_MOVABLE], ==, 0);
	/* The unpopulated Movable zone still gets clamp(0 / 1024, 32, 128). */
	g_assert_cmpuint(m->node_data[0].node_zones[ZONE_MOVABLE]._watermark[WMARK_MIN], ==, 32);
	machine_destroy(m);
}

/* With THP, khugepaged asks for 2 + 3 * 3 = 11 pageblocks per zone up to
 * Normal: 3 zones * 11 * 512 = 16896 pages = 67584 kB, below 5% of free
 * memory, and above the 11585 kB of the square-root rule.  67584 is the
 * value an 8 GiB x86-64 machine shows in /proc/sys/vm/min_free_kbytes. */
static void test_8g_with_thp(void)
{
	struct machine *m = test_machine(8 * GiB, true);
	struct zone *zn = &m->node_data[0].node_zones[ZONE_NORMAL];

	g_assert_cmpint(m->min_free_kbytes, ==, 67584);
	/* pages_min = 16896; Normal min = 16896 * 1048576 / 2097152 = 8448;
	 * step = max(8448 >> 2 = 2112, 1048) = 2112. */
	g_assert_cmpuint(zn->_watermark[WMARK_MIN], ==, 8448);
	g_assert_cmpuint(zn->_watermark[WMARK_LOW], ==, 10560);
	g_assert_cmpuint(zn->_watermark[WMARK_HIGH], ==, 12672);
	machine_destroy(m);
}

/* A 4 TiB machine of eight 512 GiB nodes.  Only zone
 * sizes matter, so the zones are set up by hand without a memmap.
 * lowmem = 2^30 pages = 2^32 kB; int_sqrt(2^36) = 2^18 = 262144, the cap.
 * pages_min = 65536; each zone gets 65536 / 8 = 8192.
 * step = mult_frac(134217728, 10, 10000) = 13421 * 10 + 7728 * 10 / 10000
 *      = 134217; LOW = 142409, HIGH = 276626. */
static void test_4t_zone_formula(void)
{
	struct machine m = { 0 };
	struct pglist_data nodes[8];

	memset(nodes, 0, sizeof(nodes));
	m.nr_nodes = 8;
	m.node_data = nodes;
	m.user_min_free_kbytes = -1;
	m.watermark_scale_factor = 10;
	for (int n = 0; n < 8; n++) {
		for (int z = 0; z < MAX_NR_ZONES; z++)
			nodes[n].node_zones[z].idx = z;
		nodes[n].node_zones[ZONE_NORMAL].managed_pages = 134217728;
		nodes[n].node_zones[ZONE_NORMAL].present_pages = 134217728;
	}
	calculate_min_free_kbytes(&m);
	g_assert_cmpint(m.min_free_kbytes, ==, 262144);
	setup_per_zone_wmarks(&m);
	g_assert_cmpuint(nodes[3].node_zones[ZONE_NORMAL]._watermark[WMARK_MIN], ==, 8192);
	g_assert_cmpuint(nodes[3].node_zones[ZONE_NORMAL]._watermark[WMARK_LOW], ==, 142409);
	g_assert_cmpuint(nodes[3].node_zones[ZONE_NORMAL]._watermark[WMARK_HIGH], ==, 276626);
}

/* __zone_watermark_ok(): free pages must exceed min + lowmem_reserve;
 * __GFP_HIGH halves min, non-blocking takes a further quarter; a high
 * order also needs a free block of that order. */
static void test_watermark_ok(void)
{
	struct machine *m = test_machine(8 * GiB, false);
	struct zone *z32 = &m->node_data[0].node_zones[ZONE_DMA32];
	long free = 1442 + 4096;       /* DMA32 min + reserve against Normal */

	g_assert_false(__zone_watermark_ok(z32, 0, 1442, ZONE_NORMAL, 0, free));
	g_assert_true(__zone_watermark_ok(z32, 0, 1442, ZONE_NORMAL, 0, free + 1));
	/* From DMA32's own point of view there is no reserve. */
	g_assert_true(__zone_watermark_ok(z32, 0, 1442, ZONE_DMA32, 0, 1443));
	/* MIN_RESERVE: 1442 - 721 = 721; NON_BLOCK: 721 - 180 = 541. */
	g_assert_false(__zone_watermark_ok(z32, 0, 1442, ZONE_DMA32, ALLOC_MIN_RESERVE, 721));
	g_assert_true(__zone_watermark_ok(z32, 0, 1442, ZONE_DMA32, ALLOC_MIN_RESERVE, 722));
	g_assert_false(__zone_watermark_ok(z32, 0, 1442, ZONE_DMA32,
					   ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK, 541));
	g_assert_true(__zone_watermark_ok(z32, 0, 1442, ZONE_DMA32,
					  ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK, 542));
	/* Order 3 subtracts 2^3 - 1 = 7 pages first. */
	g_assert_false(__zone_watermark_ok(z32, 3, 1442, ZONE_DMA32, 0, 1449));
	g_assert_true(__zone_watermark_ok(z32, 3, 1442, ZONE_DMA32, 0, 1450));
	machine_destroy(m);
}

/* ALLOC_NOFRAGMENT is set for Normal-zone requests on a node whose DMA32
 * zone is populated (or on any single-node machine), not otherwise. */
static void test_nofragment_flag(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 5 * GiB);
	machine_params_default(&p);
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	struct zone *n0 = &m->node_data[0].node_zones[ZONE_NORMAL];
	struct zone *n1 = &m->node_data[1].node_zones[ZONE_NORMAL];
	g_assert_true(populated_zone(n1));
	g_assert_cmpuint(alloc_flags_nofragment(m, n0, GFP_KERNEL) & ALLOC_NOFRAGMENT, !=, 0);
	g_assert_cmpuint(alloc_flags_nofragment(m, n1, GFP_KERNEL) & ALLOC_NOFRAGMENT, ==, 0);
	g_assert_cmpuint(alloc_flags_nofragment(m, &m->node_data[0].node_zones[ZONE_DMA32],
						GFP_KERNEL) & ALLOC_NOFRAGMENT, ==, 0);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/watermark/8g-without-thp", test_8g_without_thp);
	g_test_add_func("/watermark/8g-with-thp", test_8g_with_thp);
	g_test_add_func("/watermark/4t-zone-formula", test_4t_zone_formula);
	g_test_add_func("/watermark/watermark-ok", test_watermark_ok);
	g_test_add_func("/watermark/nofragment-flag", test_nofragment_flag);
	return g_test_run();
}
