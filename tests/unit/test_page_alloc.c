/* get_page_from_freelist, hand-worked: ALLOC_NOFRAGMENT dropped and
 * retried, the watermark boost a fallback leaves, the highatomic reserve,
 * and the spill to a remote node with its NUMA counters. */
#include "helpers.h"
#include "models/procfs.h"
#include "models/page_alloc.h"
#include "models/page_cache.h"
#include "models/watermark.h"
#include "models/compaction.h"
#include "models/kvmalloc.h"
#include "models/pcp.h"

/* The DMA32 zone of a 128 MiB node is pfns 4096-32767 (28672 pages, 56
 * pageblocks); min 316, low 395, high 474 (test_buddy.c works them out). */
static struct zone *dma32(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_DMA32];
}

/* A context that allocates from zone z alone, up to its index. */
static struct alloc_context only_zone(struct zone **z, int mt)
{
	return (struct alloc_context){
		.zonelist = z, .nr_zones = 1, .preferred_zone = *z,
		.highest_zoneidx = (int)(*z)->idx, .migratetype = mt,
	};
}

/* Give the allocated block at pfn back to the buddy. */
static void free_piece(struct machine *m, pfn_t pfn, unsigned order)
{
	page_clear(&m->mm, pfn);
	__free_one_page(dma32(m), pfn, order, MIGRATE_MOVABLE, FPI_NONE);
}

/* Fill DMA32 with allocated movable blocks: 28 of order 10, the first cut
 * into 4096 (o0), 4097 (o0), 4098 (o1), 4100 (o2) ... 4608 (o9); then free
 * 4096: one free page, in a MOVABLE pageblock whose other 511 pages are
 * allocated movable, so an unmovable request cannot claim the pageblock
 * (1 free + 0 alike < 256) and can only steal the page. */
static struct machine *one_free_movable_page(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);

	for (int i = 0; i < 28; i++)
		mark_allocated(m, __rmqueue_smallest(z, 10, MIGRATE_MOVABLE), 10, MIGRATE_MOVABLE);
	mark_allocated(m, 4096, 0, MIGRATE_MOVABLE);
	for (unsigned o = 0; o < 10; o++)
		mark_allocated(m, 4096 + (1u << o), o, MIGRATE_MOVABLE);
	free_piece(m, 4096, 0);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 1);
	assert_invariants(m);
	return m;
}

/* An unmovable page with ALLOC_NOFRAGMENT: the only free page sits in a
 * MOVABLE pageblock it cannot claim, and stealing it alone is refused.
 * With ALLOC_HAS_FALLBACK (the later series' caller-has-a-fallback rule)
 * that is the end; without, the zonelist is walked again without
 * ALLOC_NOFRAGMENT and the page is stolen, which boosts the watermarks by
 * a pageblock.  (No watermark check: one free page is far below min.) */
static void test_nofragment_dropped_and_retried(void)
{
	struct machine *m = one_free_movable_page();
	struct zone *z = dma32(m);
	struct zone *zl[] = { z };
	struct alloc_context ac = only_zone(zl, MIGRATE_UNMOVABLE);
	struct mm_ctx c = mm_ctx_null(0);
	unsigned flags = ALLOC_NO_WATERMARKS | ALLOC_NOFRAGMENT | ALLOC_KSWAPD;

	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0, flags | ALLOC_HAS_FALLBACK,
						&ac), ==, PFN_NONE);
	g_assert_cmpuint(z->watermark_boost, ==, 0);
	g_assert_true(PageBuddy(&m->mm, 4096));
	g_assert_false(m->node_data[0].kswapd_wake);

	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0, flags, &ac), ==, 4096);
	g_assert_cmpuint(z->watermark_boost, ==, pageblock_nr_pages);
	/* rmqueue() clears the flag the fallback set and wakes kswapd. */
	g_assert_false(z->flags & ZONE_BOOSTED_WATERMARK);
	g_assert_true(m->node_data[0].kswapd_wake);
	/* A steal leaves the pageblock MOVABLE. */
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 4096), ==, MIGRATE_MOVABLE);
	machine_destroy(m);
}

/* kswapd woken by the boost: ZONE_DMA (4096 free pages, above its high
 * watermark and the 112 pages DMA32 protects it by) keeps the node
 * balanced, so the turn is boosted reclaim alone; with no page cache it
 * reclaims nothing (one failure), takes the boost back all the same, wakes
 * kcompactd for a pageblock, and sleeps. */
static void test_kswapd_resets_boost(void)
{
	struct machine *m = one_free_movable_page();
	struct pglist_data *pgdat = &m->node_data[0];
	struct zone *z = dma32(m);
	struct zone *zl[] = { z };
	struct alloc_context ac = only_zone(zl, MIGRATE_UNMOVABLE);
	struct mm_ctx c = mm_ctx_null(0);

	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0,
						ALLOC_NO_WATERMARKS | ALLOC_KSWAPD, &ac), ==, 4096);
	g_assert_cmpuint(z->watermark_boost, ==, pageblock_nr_pages);
	g_assert_true(pgdat->kswapd_wake);
	g_assert_cmpint(pgdat->kswapd_highest_zoneidx, ==, ZONE_DMA32);
	kswapd(&c, m, 0);
	g_assert_cmpuint(z->watermark_boost, ==, 0);
	g_assert_false(pgdat->kswapd_wake);
	g_assert_cmpint(pgdat->kswapd_failures, ==, 1);
	g_assert_cmpint(pgdat->kcompactd_max_order, ==, pageblock_order);
	g_assert_false(z->flags & ZONE_RECLAIM_ACTIVE);
	/* Nothing boosted and the node balanced: a slow-path wake-up is not
	 * passed on to kswapd. */
	wakeup_kswapd(m, z, GFP_KERNEL, 0, ZONE_DMA32);
	g_assert_false(pgdat->kswapd_wake);
	machine_destroy(m);
}

/* After the fallback the boost stays in every watermark (wmark_pages adds
 * it): min 316 + 512 = 828, low 395 + 512 = 907.  With 300 pages free an
 * ALLOC_WMARK_LOW request fails (300 <= 907) and so does a plain min one
 * (300 <= 828); a __GFP_HIGH order-0 request at min (ALLOC_MIN_RESERVE)
 * would see 828 - 828 / 2 = 414, still above 300, but it ignores the
 * boost: 316 - 316 / 2 = 158 < 300, so it gets a page. */
static void test_boost_after_fallback(void)
{
	struct machine *m = one_free_movable_page();
	struct zone *z = dma32(m);
	struct zone *zl[] = { z };
	struct alloc_context ac = only_zone(zl, MIGRATE_MOVABLE);
	struct alloc_context unmov = only_zone(zl, MIGRATE_UNMOVABLE);
	struct mm_ctx c = mm_ctx_null(0);

	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0, ALLOC_NO_WATERMARKS, &unmov),
			 ==, 4096);
	g_assert_cmpuint(z->watermark_boost, ==, 512);
	mark_allocated(m, 4096, 0, MIGRATE_UNMOVABLE);
	/* 256 + 32 + 8 + 4 = 300 free pages, from the block after 4096. */
	free_piece(m, 4352, 8);
	free_piece(m, 4128, 5);
	free_piece(m, 4104, 3);
	free_piece(m, 4100, 2);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 300);
	g_assert_cmpuint(wmark_pages(z, WMARK_MIN), ==, 828);
	g_assert_cmpuint(wmark_pages(z, WMARK_LOW), ==, 907);

	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0, ALLOC_WMARK_LOW, &ac), ==,
			 PFN_NONE);
	g_assert_cmpuint(get_page_from_freelist(&c, m, GFP_KERNEL, 0, ALLOC_WMARK_MIN, &ac), ==,
			 PFN_NONE);
	g_assert_true(z->flags & ZONE_BELOW_HIGH);
	pfn_t pfn = get_page_from_freelist(&c, m, GFP_ATOMIC, 0,
					   ALLOC_WMARK_MIN | ALLOC_MIN_RESERVE, &ac);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_true(zone_spans_pfn(z, pfn));
	machine_destroy(m);
}

/* GFP_ATOMIC order 2 on a fresh 1 GiB node (DMA32: 258048 managed pages,
 * 1% = 2580, at least a pageblock): the request claims a free order-10
 * MOVABLE block for UNMOVABLE (both its pageblocks), the pcp refill takes
 * 63 >> 2 = 15 order-2 blocks = 60 pages from its first pageblock, and
 * the allocation then reserves that pageblock: MIGRATE_HIGHATOMIC,
 * nr_reserved_highatomic 512, its 512 - 60 = 452 free pages moved to the
 * HighAtomic lists. */
static void test_highatomic_reserve(void)
{
	struct machine *m = test_machine(1 * GiB, false);
	struct zone *z = dma32(m);
	struct zone *zl[] = { z };
	struct alloc_context ac = only_zone(zl, MIGRATE_UNMOVABLE);
	struct mm_ctx c = mm_ctx_null(0);
	unsigned flags = gfp_to_alloc_flags(GFP_ATOMIC, 2);

	g_assert_cmpuint(flags & ALLOC_HIGHATOMIC, !=, 0);
	pfn_t pfn = get_page_from_freelist(&c, m, GFP_ATOMIC, 2, flags, &ac);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), ==, MIGRATE_HIGHATOMIC);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn + pageblock_nr_pages), ==,
			MIGRATE_UNMOVABLE);
	g_assert_cmpuint(z->nr_reserved_highatomic, ==, 512);
	g_assert_cmpuint(z->nr_free_highatomic, ==, 452);
	mark_allocated(m, pfn, 2, MIGRATE_UNMOVABLE);
	assert_invariants(m);

	/* unreserve_highatomic_pageblock: the zone's only reserved pageblock
	 * stays unless forced; forced, it turns to the request's type (a
	 * movable request here) with its 452 free pages, and the reserve is
	 * empty. */
	struct alloc_context mov = only_zone(zl, MIGRATE_MOVABLE);
	unsigned long free = zone_page_state(z, NR_FREE_PAGES);
	g_assert_false(unreserve_highatomic_pageblock(&c, &mov, false));
	g_assert_cmpuint(z->nr_reserved_highatomic, ==, 512);
	g_assert_true(unreserve_highatomic_pageblock(&c, &mov, true));
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), ==, MIGRATE_MOVABLE);
	g_assert_cmpuint(z->nr_reserved_highatomic, ==, 0);
	g_assert_cmpuint(z->nr_free_highatomic, ==, 0);
	g_assert_cmpuint(list_len(z, 2, MIGRATE_HIGHATOMIC), ==, 0);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, free);
	g_assert_false(unreserve_highatomic_pageblock(&c, &mov, true));
	assert_invariants(m);
	machine_destroy(m);
}

/* A zone whose 1% is less than a pageblock reserves nothing: DMA32 of a
 * 128 MiB node has 28672 managed pages, 28672 / 100 = 286 < 512. */
static void test_highatomic_small_zone(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	struct zone *zl[] = { z };
	struct alloc_context ac = only_zone(zl, MIGRATE_UNMOVABLE);
	struct mm_ctx c = mm_ctx_null(0);

	pfn_t pfn = get_page_from_freelist(&c, m, GFP_ATOMIC, 2, gfp_to_alloc_flags(GFP_ATOMIC, 2),
					   &ac);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, pfn), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(z->nr_reserved_highatomic, ==, 0);
	g_assert_cmpuint(z->nr_free_highatomic, ==, 0);
	machine_destroy(m);
}

/* Two nodes of 4 GiB ("test-numa"): node 1 is all ZONE_NORMAL, node 0 DMA
 * and DMA32.  With node 1 allocated to the last page, a movable request
 * from a CPU of node 1 spills to node 0 (its zonelist's next zone, DMA32):
 * one numa_miss and one numa_foreign (the page is not from the preferred
 * node), one numa_other (not from the running CPU's node), no hit, each
 * on the node the kernel counts it on. */
static void test_remote_spill_counts_numa(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_preset(&t, "test-numa");
	machine_params_default(&p);
	p.boot_reserve = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	struct zone *n1 = &m->node_data[1].node_zones[ZONE_NORMAL];
	unsigned cpu = 0;

	while (topology_cpu_to_node(&m->topo, cpu) != 1)
		cpu++;
	g_assert_true(populated_zone(n1));
	g_assert_false(populated_zone(&m->node_data[1].node_zones[ZONE_DMA32]));
	for (pfn_t pfn; (pfn = __rmqueue_smallest(n1, 10, MIGRATE_MOVABLE)) != PFN_NONE;)
		mark_allocated(m, pfn, 10, MIGRATE_MOVABLE);
	g_assert_cmpuint(zone_page_state(n1, NR_FREE_PAGES), ==, 0);

	struct mm_ctx c = mm_ctx_null(cpu);
	unsigned long ev[2][NR_VM_NUMA_EVENT_ITEMS];

	for (int n = 0; n < 2; n++)
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			ev[n][i] = node_numa_event(m, n, (enum numa_stat_item)i);
#define EV(n, i) (node_numa_event(m, n, i) - ev[n][i])
	pfn_t pfn = __alloc_pages(&c, m, GFP_HIGHUSER_MOVABLE, 0, 1, 1, 0);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_true(zone_spans_pfn(&m->node_data[0].node_zones[ZONE_DMA32], pfn));
	/* zone_statistics(): the miss and the "other" on node 0, which gave
	 * the page; the foreign on node 1, which was asked for it. */
	g_assert_cmpuint(EV(0, NUMA_MISS), ==, 1);
	g_assert_cmpuint(EV(1, NUMA_FOREIGN), ==, 1);
	g_assert_cmpuint(EV(0, NUMA_OTHER), ==, 1);
	g_assert_cmpuint(EV(1, NUMA_MISS) + EV(0, NUMA_FOREIGN) + EV(1, NUMA_OTHER), ==, 0);
	g_assert_cmpuint(EV(0, NUMA_HIT) + EV(1, NUMA_HIT), ==, 0);
	g_assert_cmpuint(EV(0, NUMA_LOCAL) + EV(1, NUMA_LOCAL), ==, 0);
	g_assert_cmpuint(node_numa_event(m, -1, NUMA_MISS), ==,
			 ev[0][NUMA_MISS] + ev[1][NUMA_MISS] + 1);
	/* The same CPU asking for node 0 is a hit, and still "other". */
	g_assert_cmpuint(__alloc_pages(&c, m, GFP_HIGHUSER_MOVABLE, 0, 0, 1, 0), !=, PFN_NONE);
	g_assert_cmpuint(EV(0, NUMA_HIT), ==, 1);
	g_assert_cmpuint(EV(0, NUMA_MISS), ==, 1);
	g_assert_cmpuint(EV(0, NUMA_OTHER), ==, 2);
#undef EV
	machine_destroy(m);
}

/* A 256 MiB node's top zone filled with page cache down to its min
 * watermark (every read served above it: no direct reclaim yet). */
static struct machine *cache_filled(struct mm_ctx *c, struct zone **top)
{
	struct machine_params p;
	struct machine *m;
	struct zone *z = NULL;

	machine_params_default(&p);
	p.boot_reserve = false;
	m = params_machine(256 * MiB, &p);
	for_each_populated_zone(m, zz)
		z = zz;
	for (uint32_t i = 0; zone_page_state(z, NR_FREE_PAGES) > wmark_pages(z, WMARK_MIN) + 64; i++)
		g_assert_cmpuint(page_cache_add(c, m, 0, 1, i), !=, PFN_NONE);
	g_assert_cmpuint(m->vm_events[PGSTEAL_DIRECT], ==, 0);
	*top = z;
	return m;
}

/* try_to_free_pages()'s amounts: SWAP_CLUSTER_MAX (32) pages for any
 * order, where the model took 32 << order (16,384 for a THP); a costly
 * order goes on, in passes of at most 32, only until compaction could run
 * (free pages above the low watermark plus compact_gap(9) = 1,024), and
 * reclaims nothing where compaction is ready already. */
static void test_direct_reclaim_amounts(void)
{
	struct mm_ctx c = mm_ctx_null(0);
	struct zone *z;
	struct machine *m = cache_filled(&c, &z);
	int idx = (int)z->idx;
	unsigned long free0 = zone_page_state(z, NR_FREE_PAGES), got, need;

	/* Order 0: the passes stop at 32. */
	g_assert_cmpuint(do_try_to_free_pages(&c, m, 0, 0, idx), ==, SWAP_CLUSTER_MAX);
	drain_all_pages(&c, m, NULL);
	g_assert_false(compaction_suitable(z, 9, wmark_pages(z, WMARK_MIN), idx));
	/* Order 9: more than 32, but never past the pages compaction needs by
	 * more than one pass of 32 (a pass that reclaims nothing, its pages
	 * referenced, ends it sooner, as should_continue_reclaim has it). */
	free0 = zone_page_state(z, NR_FREE_PAGES);
	need = wmark_pages(z, WMARK_LOW) + compact_gap(9) - free0;
	got = do_try_to_free_pages(&c, m, 0, 9, idx);
	drain_all_pages(&c, m, NULL);
	g_assert_cmpuint(got, >, SWAP_CLUSTER_MAX);
	g_assert_cmpuint(got, <=, need + SWAP_CLUSTER_MAX);
	/* Ready: an order-9 block is free (watermark met at order 9), so
	 * reclaim for it frees nothing; order 0 still takes its 32. */
	for (int i = 0; i < 8; i++)
		g_assert_cmpuint(do_try_to_free_pages(&c, m, 0, 0, idx), ==, SWAP_CLUSTER_MAX);
	drain_all_pages(&c, m, NULL);
	if (zone_watermark_ok(z, 9, wmark_pages(z, WMARK_MIN), idx, 0))
		g_assert_cmpuint(do_try_to_free_pages(&c, m, 0, 9, idx), ==, 0);
	else
		g_assert_cmpuint(do_try_to_free_pages(&c, m, 0, 9, idx), <=, SWAP_CLUSTER_MAX);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A costly __GFP_NORETRY allocation whose first (async) compaction was
 * skipped, compaction not being suitable on the full zone, gives up
 * without direct reclaim, as __alloc_pages_slowpath does. */
static void test_costly_noretry_gives_up(void)
{
	struct mm_ctx c = mm_ctx_null(0);
	struct zone *z;
	struct machine *m = cache_filled(&c, &z);

	g_assert_false(compaction_suitable(z, 9, wmark_pages(z, WMARK_MIN), (int)z->idx));
	g_assert_cmpuint(__alloc_pages(&c, m, GFP_TRANSHUGE | __GFP_NORETRY, 9, 0, 0, 0), ==,
			 PFN_NONE);
	g_assert_cmpuint(m->vm_events[PGSTEAL_DIRECT], ==, 0);
	/* Without NORETRY the same request reclaims for compaction. */
	(void)__alloc_pages(&c, m, GFP_TRANSHUGE | __GFP_RETRY_MAYFAIL, 9, 0, 0, 0);
	g_assert_cmpuint(m->vm_events[PGSTEAL_DIRECT], >, 0);
	machine_destroy(m);
}

/* Each node's vmstat file (/sys/devices/system/node/nodeN/vmstat) counts
 * its own zones' free pages, node 0's too: of two nodes of 1 GiB with a
 * block taken from node 1, node 0 shows its own free pages and node 1 512
 * fewer than its own. */
static void test_node_vmstat(void)
{
	struct topology t;
	struct machine_params p;
	struct mm_ctx c = mm_ctx_null(0);
	char *err = NULL;
	unsigned long free[2] = { 0, 0 };
	pfn_t block;

	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	topology_uniform(&t, 2, 1, 2, 1 * GiB);
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	block = __alloc_pages(&c, m, GFP_KERNEL, pageblock_order, 1, 0, 0);
	g_assert_true(block != PFN_NONE);
	for_each_zone(m, z)
		free[z->node] += zone_page_state(z, NR_FREE_PAGES);
	for (unsigned nid = 0; nid < 2; nid++) {
		GString *out = g_string_new(NULL);
		char *want = g_strdup_printf("nr_free_pages %lu\n", free[nid]);

		proc_node_vmstat(m, nid, out);
		if (!g_str_has_prefix(out->str, want))
			g_error("node %u's vmstat does not start with %s:\n%s", nid, want, out->str);
		g_free(want);
		g_string_free(out, TRUE);
	}
	g_assert_cmpuint(free[1] + (1u << pageblock_order), <=, free[0]);
	__free_pages(&c, m, block);
	machine_destroy(m);
}

/* kvmalloc_node's kmalloc attempt asks for get_order(size): a power of
 * two of pages is that order exactly, one byte more the next; past
 * MAX_PAGE_ORDER (4 MiB) it goes to vmalloc, a page at a time. */
static void test_kvmalloc_order(void)
{
	static const struct { size_t size; unsigned order, vmalloc_pages; } cases[] = {
		{ 16 << 10, 2, 0 },
		{ (16 << 10) + 1, 3, 0 },
		{ 4 * MiB, MAX_PAGE_ORDER, 0 },
		{ 4 * MiB + 1, 0, 1025 },
	};
	struct machine *m = policy_machine(1 * GiB, POLICY_UPSTREAM, -1);
	struct mm_ctx c = mm_ctx_null(0);

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct kvmalloc_area a;

		g_assert_cmpint(kvmalloc_node(&c, m, cases[i].size, 0, false, &a), ==, 0);
		if (cases[i].vmalloc_pages) {
			g_assert_true(a.block == PFN_NONE);
			g_assert_cmpuint(a.nr_pages, ==, cases[i].vmalloc_pages);
		} else {
			g_assert_true(a.block != PFN_NONE);
			g_assert_cmpuint(a.order, ==, cases[i].order);
			g_assert_cmpuint(page_order(&m->mm, a.block), ==, cases[i].order);
		}
		kvfree(&c, m, &a);
	}
	assert_invariants(m);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/page_alloc/nofragment-dropped-and-retried",
			test_nofragment_dropped_and_retried);
	g_test_add_func("/page_alloc/boost-after-fallback", test_boost_after_fallback);
	g_test_add_func("/page_alloc/kswapd-resets-boost", test_kswapd_resets_boost);
	g_test_add_func("/page_alloc/highatomic-reserve", test_highatomic_reserve);
	g_test_add_func("/page_alloc/highatomic-small-zone", test_highatomic_small_zone);
	g_test_add_func("/page_alloc/remote-spill-counts-numa", test_remote_spill_counts_numa);
	g_test_add_func("/page_alloc/direct-reclaim-amounts", test_direct_reclaim_amounts);
	g_test_add_func("/page_alloc/costly-noretry-gives-up", test_costly_noretry_gives_up);
	g_test_add_func("/page_alloc/kvmalloc-order", test_kvmalloc_order);
	g_test_add_func("/page_alloc/node-vmstat", test_node_vmstat);
	return g_test_run();
}
