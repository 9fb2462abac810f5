/* Hand-worked cases of the zone buddy allocator, each following what
 * mm/page_alloc.c does step by step.  The machine is one 128 MiB node:
 * ZONE_DMA is pfns 0-4095 (8 pageblocks), ZONE_DMA32 pfns 4096-32767.
 * At boot every block is a free order-10 MOVABLE block, queued in pfn
 * order (memblock frees to the tail). */
#include "helpers.h"
#include "models/page_alloc.h"
#include "models/procfs.h"

static struct zone *dma(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_DMA];
}

static struct zone *dma32(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_DMA32];
}

static void test_boot_layout(void)
{
	struct machine *m = test_machine(128 * MiB, false);

	g_assert_cmpuint(dma(m)->zone_start_pfn, ==, 0);
	g_assert_cmpuint(dma(m)->spanned_pages, ==, 4096);
	g_assert_cmpuint(dma32(m)->zone_start_pfn, ==, 4096);
	g_assert_cmpuint(dma32(m)->spanned_pages, ==, 28672);
	/* 28672 / 1024 = 28 order-10 blocks, lowest pfn at the head. */
	g_assert_cmpuint(list_len(dma32(m), 10, MIGRATE_MOVABLE), ==, 28);
	g_assert_cmpuint(list_entry_at(m, dma32(m), 10, MIGRATE_MOVABLE, 0), ==, 4096);
	g_assert_cmpuint(list_entry_at(m, dma32(m), 10, MIGRATE_MOVABLE, 1), ==, 5120);
	g_assert_cmpuint(zone_page_state(dma32(m), NR_FREE_PAGES), ==, 28672);
	assert_invariants(m);
	machine_destroy(m);
}

/* An order-0 request splits the head order-10 block: expand() puts each
 * upper half at the head of the next lower order's list, so pfn 4096 is
 * returned and 4097 (o0), 4098 (o1), 4100 (o2) ... 4608 (o9) are free. */
static void test_split_remainders(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);

	pfn_t pfn = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);
	g_assert_cmpuint(pfn, ==, 4096);
	mark_allocated(m, pfn, 0, MIGRATE_MOVABLE);
	for (unsigned o = 0; o < 10; o++) {
		g_assert_cmpuint(list_len(z, o, MIGRATE_MOVABLE), ==, 1);
		g_assert_cmpuint(list_entry_at(m, z, o, MIGRATE_MOVABLE, 0), ==, 4096 + (1u << o));
	}
	g_assert_cmpuint(list_len(z, 10, MIGRATE_MOVABLE), ==, 27);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 28671);
	assert_invariants(m);

	/* A second order-3 block lands at the head of the order-3 list, ahead
	 * of the older remainder: splitting 4608 (o9) for an order-3 request
	 * when the order-3 list is empty.  Take 4104 (the o3 remainder) first. */
	pfn_t p3 = __rmqueue_smallest(z, 3, MIGRATE_MOVABLE);
	g_assert_cmpuint(p3, ==, 4104);
	mark_allocated(m, p3, 3, MIGRATE_MOVABLE);
	pfn_t q3 = __rmqueue_smallest(z, 3, MIGRATE_MOVABLE);
	/* Order 4 (4112) is next smallest: split into 4112 (taken) + 4120 (o3). */
	g_assert_cmpuint(q3, ==, 4112);
	mark_allocated(m, q3, 3, MIGRATE_MOVABLE);
	g_assert_cmpuint(list_entry_at(m, z, 3, MIGRATE_MOVABLE, 0), ==, 4120);
	g_assert_cmpuint(list_len(z, 4, MIGRATE_MOVABLE), ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

/* Freeing both halves merges all the way back: after the split above,
 * freeing 4096 finds its order-0 buddy 4097 free, then 4098 (o1), ...,
 * 4608 (o9): ten merges, one order-10 block at 4096.  At order 10 no
 * merge-likely test applies, so it goes to the list head. */
static void test_free_merges_to_max_order(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);

	pfn_t pfn = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);
	mark_allocated(m, pfn, 0, MIGRATE_MOVABLE);
	page_clear(&m->mm, pfn);
	__free_one_page(z, pfn, 0, MIGRATE_MOVABLE, FPI_NONE);
	for (unsigned o = 0; o < 10; o++)
		g_assert_cmpuint(list_len(z, o, MIGRATE_MOVABLE), ==, 0);
	g_assert_cmpuint(list_len(z, 10, MIGRATE_MOVABLE), ==, 28);
	g_assert_cmpuint(list_entry_at(m, z, 10, MIGRATE_MOVABLE, 0), ==, 4096);
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 28672);
	assert_invariants(m);
	machine_destroy(m);
}

/* Merging stops at the first allocated buddy, and the result is queued
 * at the tail when the buddy one order up is free (buddy_merge_likely),
 * else at the head. */
static void test_merge_order_and_queue_end(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	pfn_t a = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);   /* 4096 */
	pfn_t b = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);   /* 4097, the o0 remainder */
	pfn_t c = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);   /* splits 4098 (o1): 4098 */
	pfn_t d = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);   /* 4099 */
	pfn_t e = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);   /* splits 4100 (o2): 4100 */

	g_assert_cmpuint(a, ==, 4096);
	g_assert_cmpuint(b, ==, 4097);
	g_assert_cmpuint(c, ==, 4098);
	g_assert_cmpuint(d, ==, 4099);
	g_assert_cmpuint(e, ==, 4100);
	mark_allocated(m, a, 0, MIGRATE_MOVABLE);
	mark_allocated(m, b, 0, MIGRATE_MOVABLE);
	mark_allocated(m, c, 0, MIGRATE_MOVABLE);
	mark_allocated(m, d, 0, MIGRATE_MOVABLE);
	mark_allocated(m, e, 0, MIGRATE_MOVABLE);
	/* Left free at order 0: 4101.  Order 1: 4102. */
	g_assert_cmpuint(list_entry_at(m, z, 0, MIGRATE_MOVABLE, 0), ==, 4101);
	g_assert_cmpuint(list_entry_at(m, z, 1, MIGRATE_MOVABLE, 0), ==, 4102);

	/* Free 4098 and 4099: they merge into an order-1 block at 4098; its
	 * order-1 buddy 4096 is not free, so no further merge.  The order-2
	 * block above (4096) is not free either: head of the order-1 list. */
	page_clear(&m->mm, c);
	__free_one_page(z, c, 0, MIGRATE_MOVABLE, FPI_NONE);
	page_clear(&m->mm, d);
	__free_one_page(z, d, 0, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(list_entry_at(m, z, 1, MIGRATE_MOVABLE, 0), ==, 4098);
	g_assert_cmpuint(list_entry_at(m, z, 1, MIGRATE_MOVABLE, 1), ==, 4102);

	/* Free 4096: its buddy 4097 is allocated, so it stays order 0; the
	 * order-1 buddy of the pair it would form (4098) is free, so the
	 * kernel expects a merge soon and queues 4096 at the tail, behind
	 * 4101. */
	page_clear(&m->mm, a);
	__free_one_page(z, a, 0, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(list_len(z, 0, MIGRATE_MOVABLE), ==, 2);
	g_assert_cmpuint(list_entry_at(m, z, 0, MIGRATE_MOVABLE, 0), ==, 4101);
	g_assert_cmpuint(list_entry_at(m, z, 0, MIGRATE_MOVABLE, 1), ==, 4096);

	/* Freeing 4097 now merges 4096+4097 (o1), then with 4098 (o2); the
	 * order-2 buddy 4100 is allocated: one order-2 block at 4096. */
	page_clear(&m->mm, b);
	__free_one_page(z, b, 0, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(page_order(&m->mm, 4096), ==, 2);
	g_assert_true(PageBuddy(&m->mm, 4096));
	g_assert_cmpuint(list_len(z, 1, MIGRATE_MOVABLE), ==, 1);   /* 4102 */
	assert_invariants(m);

	/* FPI_TO_TAIL forces the tail even with no merge in sight. */
	pfn_t f = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);       /* 4101 */
	g_assert_cmpuint(f, ==, 4101);
	mark_allocated(m, f, 0, MIGRATE_MOVABLE);
	page_clear(&m->mm, f);
	__free_one_page(z, f, 0, MIGRATE_MOVABLE, FPI_TO_TAIL);
	g_assert_cmpuint(z->free_area[0].free_list[MIGRATE_MOVABLE].tail, ==, 4101);
	page_clear(&m->mm, e);
	__free_one_page(z, e, 0, MIGRATE_MOVABLE, FPI_NONE);
	assert_invariants(m);
	machine_destroy(m);
}

/* buddy_merge_likely() stops below MAX_PAGE_ORDER - 1: an order-9 block
 * freed beside a free order-10 block goes to the head of its list all the
 * same (its pair could only merge to order 10 and then no further). */
static void test_order9_free_queues_at_head(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	pfn_t r[5];

	/* 4096 and 4608 (the halves of the first order-10 block), 5120 and
	 * 5632 (the second's), then 6144, leaving 6656 free at order 9. */
	for (int i = 0; i < 5; i++) {
		r[i] = __rmqueue_smallest(z, 9, MIGRATE_MOVABLE);
		g_assert_cmpuint(r[i], ==, 4096 + 512 * (pfn_t)i);
		mark_allocated(m, r[i], 9, MIGRATE_MOVABLE);
	}
	/* 5120 and 5632 merge back to a free order-10 block at 5120. */
	for (int i = 2; i < 4; i++) {
		page_clear(&m->mm, r[i]);
		__free_one_page(z, r[i], 9, MIGRATE_MOVABLE, FPI_NONE);
	}
	g_assert_cmpuint(page_order(&m->mm, 5120), ==, 10);
	g_assert_true(PageBuddy(&m->mm, 5120));
	/* 4096's buddy 4608 is allocated; the order-10 block its pair would
	 * join, 5120, is free, but order 9 is too high to expect a merge:
	 * head of the list, before 6656. */
	page_clear(&m->mm, r[0]);
	__free_one_page(z, r[0], 9, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(list_len(z, 9, MIGRATE_MOVABLE), ==, 2);
	g_assert_cmpuint(list_entry_at(m, z, 9, MIGRATE_MOVABLE, 0), ==, 4096);
	g_assert_cmpuint(list_entry_at(m, z, 9, MIGRATE_MOVABLE, 1), ==, 6656);
	machine_destroy(m);
}

/* With no UNMOVABLE pages at all, an unmovable order-0 request falls
 * back: __rmqueue_claim walks from order 10 down, finds the MOVABLE head
 * block at order 10 and, being >= pageblock_order, claims it whole: both
 * pageblocks become UNMOVABLE and the split remainders land on the
 * UNMOVABLE lists. */
static void test_unmovable_claims_whole_block(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	enum rmqueue_mode mode = RMQUEUE_NORMAL;

	pfn_t pfn = __rmqueue(z, 0, MIGRATE_UNMOVABLE, 0, &mode);
	g_assert_cmpuint(pfn, ==, 4096);
	mark_allocated(m, pfn, 0, MIGRATE_UNMOVABLE);
	g_assert_cmpint(mode, ==, RMQUEUE_NORMAL);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 4096), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 4608), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 5120), ==, MIGRATE_MOVABLE);
	g_assert_cmpuint(list_entry_at(m, z, 9, MIGRATE_UNMOVABLE, 0), ==, 4608);
	g_assert_cmpuint(list_entry_at(m, z, 0, MIGRATE_UNMOVABLE, 0), ==, 4097);
	g_assert_cmpuint(list_len(z, 10, MIGRATE_MOVABLE), ==, 27);
	/* The next unmovable request is served from the claimed block. */
	pfn = __rmqueue(z, 0, MIGRATE_UNMOVABLE, 0, &mode);
	g_assert_cmpuint(pfn, ==, 4097);
	mark_allocated(m, pfn, 0, MIGRATE_UNMOVABLE);
	assert_invariants(m);
	machine_destroy(m);
}

/* Fill ZONE_DMA (8 pageblocks) with unmovable order-9 blocks: the first
 * request claims order-10 block 0 whole, the next one is served from its
 * order-9 remainder, and so on: every pageblock ends UNMOVABLE and
 * allocated, the zone has no free page. */
static void fill_dma_unmovable(struct machine *m, pfn_t blocks[8])
{
	struct zone *z = dma(m);

	for (int i = 0; i < 8; i++) {
		enum rmqueue_mode mode = RMQUEUE_NORMAL;

		blocks[i] = __rmqueue(z, 9, MIGRATE_UNMOVABLE, 0, &mode);
		g_assert_cmpuint(blocks[i], ==, (pfn_t)i * 512);
		mark_allocated(m, blocks[i], 9, MIGRATE_UNMOVABLE);
	}
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 0);
}

/* Carve the pageblock at 0 so that only the free block [keep, keep+2^o)
 * is left free in it; everything else in it is allocated unmovable. */
static void leave_one_fragment(struct machine *m, unsigned keep_order)
{
	struct zone *z = dma(m);

	page_clear(&m->mm, 0);
	__free_one_page(z, 0, 9, MIGRATE_UNMOVABLE, FPI_NONE);
	/* Allocate every order except keep_order: splitting 0 (o9) gives
	 * 0 (o0) and remainders 1 (o0), 2 (o1), 4 (o2) ... 256 (o8). */
	pfn_t first = __rmqueue_smallest(z, 0, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(first, ==, 0);
	mark_allocated(m, first, 0, MIGRATE_UNMOVABLE);
	for (unsigned o = 0; o < 9; o++) {
		if (o == keep_order)
			continue;
		pfn_t p = __rmqueue_smallest(z, o, MIGRATE_UNMOVABLE);
		g_assert_cmpuint(p, ==, 1u << o);
		mark_allocated(m, p, o, MIGRATE_UNMOVABLE);
	}
	g_assert_cmpuint(zone_page_state(z, NR_FREE_PAGES), ==, 1u << keep_order);
}

/* A movable order-0 request when the only free pages are an order-2
 * fragment (pfn 4) of an UNMOVABLE block: the claim loop stops at order 3
 * (should_try_claim_block is false for a movable request below order 4),
 * so it steals: the fragment is split on the UNMOVABLE lists and the
 * pageblock keeps its UNMOVABLE label. */
static void test_movable_steals_small_fragment(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma(m);
	pfn_t blocks[8];
	enum rmqueue_mode mode = RMQUEUE_NORMAL;

	fill_dma_unmovable(m, blocks);
	leave_one_fragment(m, 2);
	g_assert_false(should_try_claim_block(3, MIGRATE_MOVABLE));
	g_assert_true(should_try_claim_block(4, MIGRATE_MOVABLE));
	g_assert_true(should_try_claim_block(0, MIGRATE_UNMOVABLE));

	pfn_t pfn = __rmqueue(z, 0, MIGRATE_MOVABLE, 0, &mode);
	g_assert_cmpuint(pfn, ==, 4);
	mark_allocated(m, pfn, 0, MIGRATE_MOVABLE);
	g_assert_cmpint(mode, ==, RMQUEUE_STEAL);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 0), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpuint(list_entry_at(m, z, 0, MIGRATE_UNMOVABLE, 0), ==, 5);
	g_assert_cmpuint(list_entry_at(m, z, 1, MIGRATE_UNMOVABLE, 0), ==, 6);
	assert_invariants(m);

	/* With ALLOC_NOFRAGMENT the same request may not steal at all. */
	mode = RMQUEUE_NORMAL;
	g_assert_cmpuint(__rmqueue(z, 0, MIGRATE_MOVABLE, ALLOC_NOFRAGMENT, &mode), ==, PFN_NONE);
	machine_destroy(m);
}

/* An order-5 fragment (32 free pages) of an UNMOVABLE block is large
 * enough for a movable request to try claiming the block, but only 32 of
 * 512 pages are free or movable (< 256), so try_to_claim_block refuses
 * and the request steals; the label stays UNMOVABLE. */
static void test_claim_refused_then_steal(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma(m);
	pfn_t blocks[8];
	enum rmqueue_mode mode = RMQUEUE_NORMAL;

	fill_dma_unmovable(m, blocks);
	leave_one_fragment(m, 5);
	g_assert_cmpuint(__rmqueue_claim(z, 0, MIGRATE_MOVABLE, 0), ==, PFN_NONE);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 0), ==, MIGRATE_UNMOVABLE);
	pfn_t pfn = __rmqueue(z, 0, MIGRATE_MOVABLE, 0, &mode);
	g_assert_cmpuint(pfn, ==, 32);
	g_assert_cmpint(mode, ==, RMQUEUE_STEAL);
	g_assert_cmpint(get_pfnblock_migratetype(&m->mm, 0), ==, MIGRATE_UNMOVABLE);
	mark_allocated(m, pfn, 0, MIGRATE_MOVABLE);
	assert_invariants(m);
	machine_destroy(m);
}

/* Sub-pageblock claim: an unmovable request falling back into a MOVABLE
 * block claims it when free + alike >= 256, where alike counts the
 * block's non-movable allocated pages.  Block A (pfn 4096) gets 300 free
 * pages and 212 movable pages: 300 >= 256, claimed.  Block B (4608) gets
 * 200 free and 312 movable: 200 + 0 < 256, refused, and with no other
 * fallback the request steals from it. */
static void test_unmovable_sub_block_claim(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	struct memmap *mm = &m->mm;

	/* Take all of DMA32 as movable order-10 blocks, then give back the
	 * two pageblocks of 4096 as order-0 pages except the movable ones. */
	for (int i = 0; i < 28; i++) {
		pfn_t p = __rmqueue_smallest(z, 10, MIGRATE_MOVABLE);
		g_assert_cmpuint(p, ==, 4096 + (pfn_t)i * 1024);
		mark_allocated(m, p, 10, MIGRATE_MOVABLE);
	}
	page_clear(mm, 4096);
	for (pfn_t p = 4096; p < 5120; p++) {
		bool movable = (p < 4608) ? (p - 4096) >= 300 : (p - 4608) >= 200;

		if (movable)
			mark_allocated(m, p, 0, MIGRATE_MOVABLE);
		else
			__free_one_page(z, p, 0, MIGRATE_MOVABLE, FPI_NONE);
	}
	assert_invariants(m);

	/* Claim: order 10..4 have nothing; the largest MOVABLE fragment is in
	 * block A (256 pages at 4096 as o8), tried first from the top. */
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	pfn_t pfn = __rmqueue(z, 0, MIGRATE_UNMOVABLE, 0, &mode);
	g_assert_cmpint(get_pfnblock_migratetype(mm, 4096), ==, MIGRATE_UNMOVABLE);
	g_assert_cmpint(get_pfnblock_migratetype(mm, 4608), ==, MIGRATE_MOVABLE);
	g_assert_true(pfn >= 4096 && pfn < 4608);
	g_assert_cmpint(mode, ==, RMQUEUE_NORMAL);
	mark_allocated(m, pfn, 0, MIGRATE_UNMOVABLE);
	assert_invariants(m);

	/* Use up block A's free pages; then block B is the only source. */
	while (list_len(z, 0, MIGRATE_UNMOVABLE) + list_len(z, 1, MIGRATE_UNMOVABLE) +
	       list_len(z, 2, MIGRATE_UNMOVABLE) + list_len(z, 3, MIGRATE_UNMOVABLE) +
	       list_len(z, 4, MIGRATE_UNMOVABLE) + list_len(z, 5, MIGRATE_UNMOVABLE) +
	       list_len(z, 6, MIGRATE_UNMOVABLE) + list_len(z, 7, MIGRATE_UNMOVABLE) +
	       list_len(z, 8, MIGRATE_UNMOVABLE)) {
		pfn = __rmqueue_smallest(z, 0, MIGRATE_UNMOVABLE);
		mark_allocated(m, pfn, 0, MIGRATE_UNMOVABLE);
	}
	mode = RMQUEUE_NORMAL;
	g_assert_cmpuint(__rmqueue_claim(z, 0, MIGRATE_UNMOVABLE, 0), ==, PFN_NONE);
	pfn = __rmqueue(z, 0, MIGRATE_UNMOVABLE, 0, &mode);
	g_assert_true(pfn >= 4608 && pfn < 5120);
	g_assert_cmpint(mode, ==, RMQUEUE_STEAL);
	g_assert_cmpint(get_pfnblock_migratetype(mm, 4608), ==, MIGRATE_MOVABLE);
	mark_allocated(m, pfn, 0, MIGRATE_UNMOVABLE);
	assert_invariants(m);
	machine_destroy(m);
}

/* Merging at pageblock order and above joins a block to its buddy only if
 * both types are mergeable: a HIGHATOMIC pageblock does not merge with a
 * MOVABLE one, and a MOVABLE free block that merges with an UNMOVABLE
 * buddy relabels the buddy's pageblock. */
/* The kernel's fallback table (mm/page_alloc.c, fallbacks[]): a movable
 * request takes reclaimable before unmovable, an unmovable one reclaimable
 * before movable, a reclaimable one unmovable before movable.  An area
 * with a block on both candidate lists shows which is tried first; with
 * one list emptied, the other is taken. */
static void test_fallback_order(void)
{
	static const struct { int mt, first, second; } want[] = {
		{ MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
		{ MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
		{ MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		struct free_area area = { 0 };

		area.free_list[want[i].first].nr = 1;
		area.free_list[want[i].second].nr = 1;
		area.nr_free = 2;
		g_assert_cmpint(find_suitable_fallback(&area, 9, want[i].mt, false), ==, want[i].first);
		area.free_list[want[i].first].nr = 0;
		area.nr_free = 1;
		g_assert_cmpint(find_suitable_fallback(&area, 9, want[i].mt, false), ==, want[i].second);
		area.free_list[want[i].second].nr = 0;
		area.free_list[want[i].mt].nr = 1;
		/* Its own list is not a fallback. */
		g_assert_cmpint(find_suitable_fallback(&area, 9, want[i].mt, false), ==, FALLBACK_NONE);
	}
}

static void test_merge_respects_migratetypes(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	struct memmap *mm = &m->mm;

	pfn_t p = __rmqueue_smallest(z, 10, MIGRATE_MOVABLE);    /* 4096-5119 */
	mark_allocated(m, p, 10, MIGRATE_MOVABLE);
	page_clear(mm, p);
	set_pageblock_migratetype(mm, 4608, MIGRATE_HIGHATOMIC);
	__free_one_page(z, 4608, 9, MIGRATE_HIGHATOMIC, FPI_NONE);
	__free_one_page(z, 4096, 9, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(page_order(mm, 4096), ==, 9);
	g_assert_cmpuint(page_order(mm, 4608), ==, 9);
	g_assert_cmpuint(z->nr_free_highatomic, ==, 512);
	assert_invariants(m);

	/* Relabel the HIGHATOMIC half UNMOVABLE (as unreserving would) and
	 * free again: now the pair merges and the buddy becomes MOVABLE. */
	pfn_t q = __rmqueue_smallest(z, 9, MIGRATE_HIGHATOMIC);
	g_assert_cmpuint(q, ==, 4608);
	mark_allocated(m, q, 9, MIGRATE_UNMOVABLE);
	page_clear(mm, q);
	set_pageblock_migratetype(mm, 4608, MIGRATE_UNMOVABLE);
	pfn_t r = __rmqueue_smallest(z, 9, MIGRATE_MOVABLE);
	g_assert_cmpuint(r, ==, 4096);
	mark_allocated(m, r, 9, MIGRATE_MOVABLE);
	__free_one_page(z, 4608, 9, MIGRATE_UNMOVABLE, FPI_NONE);
	page_clear(mm, r);
	__free_one_page(z, 4096, 9, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(page_order(mm, 4096), ==, 10);
	g_assert_cmpint(get_pfnblock_migratetype(mm, 4608), ==, MIGRATE_MOVABLE);
	assert_invariants(m);
	machine_destroy(m);
}

/* An upstream sub-pageblock fallback boosts the zone's watermarks by one
 * pageblock (boost_watermark: max_boost is at least pageblock_nr_pages),
 * and /proc/zoneinfo prints min/low/high with the boost included, as
 * zoneinfo_show_print() does through min_wmark_pages() and friends.
 * DMA32 of a 128 MiB node (28672 of 32768 pages): pages_min = 1448 kB / 4
 * = 362; min = 362 * 28672 / 32768 = 316; step = max(316 >> 2, 28) = 79;
 * so min 316, low 395, high 474, and 828, 907, 986 with a 512-page boost. */
static void test_fallback_boost_in_zoneinfo(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	struct zone *z = dma32(m);
	enum rmqueue_mode mode = RMQUEUE_NORMAL;
	GString *s = g_string_new(NULL);

	for (int i = 0; i < 28; i++)
		mark_allocated(m, __rmqueue_smallest(z, 10, MIGRATE_MOVABLE), 10, MIGRATE_MOVABLE);
	page_clear(&m->mm, 4096);
	__free_one_page(z, 4096, 0, MIGRATE_MOVABLE, FPI_NONE);
	g_assert_cmpuint(z->watermark_boost, ==, 0);

	/* The only free page is movable: the unmovable request falls back. */
	g_assert_cmpuint(__rmqueue(z, 0, MIGRATE_UNMOVABLE, 0, &mode), ==, 4096);
	g_assert_cmpuint(z->watermark_boost, ==, pageblock_nr_pages);
	g_assert_cmpuint(z->_watermark[WMARK_MIN], ==, 316);
	proc_zoneinfo(m, s);
	g_assert_nonnull(strstr(s->str, "Node 0, zone    DMA32\n"
				"  pages free     0\n"
				"        boost    512\n"
				"        min      828\n"
				"        low      907\n"
				"        high     986\n"));
	g_string_free(s, TRUE);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/buddy/boot-layout", test_boot_layout);
	g_test_add_func("/buddy/split-remainders", test_split_remainders);
	g_test_add_func("/buddy/free-merges-to-max-order", test_free_merges_to_max_order);
	g_test_add_func("/buddy/merge-order-and-queue-end", test_merge_order_and_queue_end);
	g_test_add_func("/buddy/unmovable-claims-whole-block", test_unmovable_claims_whole_block);
	g_test_add_func("/buddy/movable-steals-small-fragment", test_movable_steals_small_fragment);
	g_test_add_func("/buddy/claim-refused-then-steal", test_claim_refused_then_steal);
	g_test_add_func("/buddy/unmovable-sub-block-claim", test_unmovable_sub_block_claim);
	g_test_add_func("/buddy/merge-respects-migratetypes", test_merge_respects_migratetypes);
	g_test_add_func("/buddy/fallback-order", test_fallback_order);
	g_test_add_func("/buddy/order9-free-queues-at-head", test_order9_free_queues_at_head);
	g_test_add_func("/buddy/fallback-boost-in-zoneinfo", test_fallback_boost_in_zoneinfo);
	return g_test_run();
}
