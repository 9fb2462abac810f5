/* Compaction and contiguous allocation, hand-worked on the DMA32 zone of a
 * 1 GiB machine (pfn 0x1000 to 0x40000, 504 pageblocks) laid out by hand:
 * everything allocated as unmovable order-10 fillers except a source
 * range of 8 pageblocks at the zone's start holding 1024 movable pages
 * and 4 target pageblocks at its top with every odd pfn free.  The
 * invariant and address-space checkers run after every case. */
#include "helpers.h"
#include "models/compaction.h"
#include "models/migrate.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/page_cache.h"
#include "models/page_isolation.h"
#include "models/pbstat.h"
#include "models/pcp.h"

#define PG 4096ULL
#define SRC 0x1000u             /* the zone's first pfn: 4 source pageblocks */
#define SRC_END (SRC + 8 * pageblock_nr_pages)
#define TGT 0x3f800u            /* the top 4 pageblocks */
#define ZONE_END 0x40000u
#define NR_SRC 1024u
#define FILE_ID 7u

static struct machine *small_machine(enum mm_policy policy)
{
	return policy_machine(1 * GiB, policy, 128);
}

static struct zone *dma32(struct machine *m)
{
	struct zone *z = &m->node_data[0].node_zones[ZONE_DMA32];

	g_assert_cmpuint(z->zone_start_pfn, ==, SRC);
	g_assert_cmpuint(zone_end_pfn(z), ==, ZONE_END);
	return z;
}

/* An allocated block taken straight off the free lists, as a filler. */
static void take(struct machine *m, pfn_t pfn, unsigned order)
{
	mark_allocated(m, pfn, order, MIGRATE_UNMOVABLE);
	*block_word_a(&m->mm, pfn, order) = OWNER_NONE;
	pbstat_alloc(m->pbstat, pfn, order, MIGRATE_UNMOVABLE);
}

/* The layout of the file comment.  anon: the movable pages are those of a
 * process (its page tables allocated beforehand, in ZONE_DMA), else page
 * cache (file FILE_ID, index i).  Returns the process, or NULL. */
static struct mm_struct *build_layout(struct mm_ctx *ctx, struct machine *m, bool anon,
				      uint64_t *addr)
{
	struct zone *z = dma32(m);
	struct mm_struct *mm = NULL;
	pfn_t tgt[2u << MAX_PAGE_ORDER];
	pfn_t pfn;
	int err;

	for (int o = MAX_PAGE_ORDER; o >= 0; o--)
		while ((pfn = __rmqueue_smallest(z, (unsigned)o, MIGRATE_MOVABLE)) != PFN_NONE)
			take(m, pfn, (unsigned)o);
	if (anon) {
		mm = mm_alloc(ctx, m);
		*addr = mmap_anon(mm, NR_SRC * PG, PROT_READ | PROT_WRITE, &err);
		/* The first and last faults make the page tables, in ZONE_DMA. */
		g_assert_cmpint(touch_range(ctx, mm, *addr, PG, NULL), ==, 0);
		g_assert_cmpint(touch_range(ctx, mm, *addr + (NR_SRC - 1) * PG, PG, NULL), ==, 0);
		g_assert_cmpuint(pfn_zone(m, follow_page(mm, *addr))->idx, ==, ZONE_DMA);
	}
	/* Targets: split one page at a time. */
	__free_pages(ctx, m, TGT);
	__free_pages(ctx, m, TGT + (1u << MAX_PAGE_ORDER));
	for (unsigned i = 0; i < G_N_ELEMENTS(tgt); i++) {
		tgt[i] = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);
		g_assert_cmpuint(tgt[i], >=, TGT);
		take(m, tgt[i], 0);
	}
	for (pfn = SRC; pfn < SRC_END; pfn += 1u << MAX_PAGE_ORDER)
		__free_pages(ctx, m, pfn);
	if (anon) {
		g_assert_cmpint(touch_range(ctx, mm, *addr + PG, (NR_SRC - 2) * PG, NULL), ==, 0);
	} else {
		for (unsigned i = 0; i < NR_SRC; i++)
			g_assert_cmpuint(page_cache_add(ctx, m, 0, FILE_ID, i), !=, PFN_NONE);
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(tgt); i++)
		if (tgt[i] & 1)
			__free_pages(ctx, m, tgt[i]);
	drain_all_pages(ctx, m, NULL);
	assert_all_ok(m);
	return mm;
}

/* Where each page-cache index of FILE_ID is, checking each appears once. */
static void file_pages(struct machine *m, pfn_t *where)
{
	for (unsigned i = 0; i < NR_SRC; i++)
		where[i] = PFN_NONE;
	for (pfn_t pfn = 0; pfn < m->mm.nr_frames; pfn++) {
		if (page_kind(&m->mm, pfn) != PG_KIND_ALLOC ||
		    page_owner(m, pfn) != make_owner(OWNER_KIND_FILE, FILE_ID))
			continue;
		uint32_t idx = page_owner_offset(m, pfn);

		g_assert_cmpuint(idx, <, NR_SRC);
		g_assert_cmpuint(where[idx], ==, PFN_NONE);
		where[idx] = pfn;
	}
}

static int free_block_order(struct machine *m, pfn_t pfn)
{
	for (unsigned o = 0; o <= MAX_PAGE_ORDER; o++) {
		pfn_t head = pfn & ~((1u << o) - 1);

		if (PageBuddy(&m->mm, head) && page_order(&m->mm, head) >= o)
			return (int)page_order(&m->mm, head);
	}
	return -1;
}

static struct compact_control whole_zone_cc(struct zone *z)
{
	return (struct compact_control){
		.zone = z,
		.order = -1,
		.mode = MIGRATE_SYNC,
		.gfp_mask = GFP_KERNEL,
		.ignore_skip_hint = true,
		.whole_zone = true,
	};
}

/* The 1024 page-cache pages move, 32 at a time, into the odd pfns of the
 * target pageblocks from the top one down; the source pageblocks end as
 * four free order-10 blocks.  The free scanner used up the lowest target
 * pageblock at its last page and stepped to the pageblock below (0x3f600);
 * the migrate scanner stops there: the scanners met, COMPACT_COMPLETE. */
static void test_compact_layout(const void *policy)
{
	struct machine *m = small_machine((enum mm_policy)GPOINTER_TO_INT(policy));
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = dma32(m);
	struct compact_control cc = whole_zone_cc(z);
	pfn_t before[NR_SRC], after[NR_SRC];

	build_layout(&ctx, m, false, NULL);
	file_pages(m, before);
	for (unsigned i = 0; i < NR_SRC; i++) {
		g_assert_cmpuint(before[i], >=, SRC);
		g_assert_cmpuint(before[i], <, SRC_END);
	}
	g_assert_cmpint(compact_zone(&ctx, &cc), ==, COMPACT_COMPLETE);
	g_assert_cmpuint(cc.free_pfn, ==, TGT - pageblock_nr_pages);
	g_assert_cmpuint(cc.migrate_pfn, ==, TGT - pageblock_nr_pages);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, NR_SRC);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 0);
	g_assert_cmpuint(m->vm_events[COMPACTISOLATED], ==, 2 * NR_SRC);
	g_assert_cmpuint(m->vm_events[COMPACTMIGRATE_SCANNED], ==, cc.total_migrate_scanned);
	g_assert_cmpuint(m->vm_events[COMPACTFREE_SCANNED], ==, cc.total_free_scanned);
	g_assert_cmpuint(cc.total_free_scanned, >=, 2 * NR_SRC);
	file_pages(m, after);
	for (unsigned i = 0; i < NR_SRC; i++) {
		g_assert_cmpuint(after[i], >=, TGT);
		g_assert_cmpuint(after[i] & 1, ==, 1);
	}
	drain_all_pages(&ctx, m, NULL);
	for (pfn_t p = SRC; p < SRC_END; p += 1u << MAX_PAGE_ORDER)
		g_assert_cmpint(free_block_order(m, p), ==, MAX_PAGE_ORDER);
	g_assert_cmpuint(page_cache_pages(m, 0), ==, NR_SRC);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A pinned anonymous page is not even isolated (its references exceed its
 * mappings): it stays, mapped where it was, and nothing fails migration;
 * the other pages of the process move. */
static void test_compact_pinned(void)
{
	struct machine *m = small_machine(POLICY_PCP_BUDDY);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = dma32(m);
	struct compact_control cc = whole_zone_cc(z);
	uint64_t addr;
	struct mm_struct *mm = build_layout(&ctx, m, true, &addr);
	pfn_t pinned = follow_page(mm, addr + 5 * PG);

	g_assert_cmpuint(pinned, >=, SRC);
	g_assert_cmpuint(pinned, <, SRC_END);
	m->mm.flags[pinned].aux |= PG_pinned;
	g_assert_cmpint(compact_zone(&ctx, &cc), ==, COMPACT_COMPLETE);
	g_assert_cmpuint(follow_page(mm, addr + 5 * PG), ==, pinned);
	for (unsigned i = 1; i < NR_SRC - 1; i++)
		if (i != 5)
			g_assert_cmpuint(follow_page(mm, addr + i * PG), >=, TGT);
	/* Less the pinned page and the two in ZONE_DMA. */
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, NR_SRC - 3);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_FAIL], ==, 0);
	drain_all_pages(&ctx, m, NULL);
	/* The pinned page's pageblock cannot merge whole; the other source
	 * order-10 blocks do. */
	for (pfn_t p = SRC; p < SRC_END; p += 1u << MAX_PAGE_ORDER) {
		if (p == (pinned & ~1023u))
			g_assert_cmpint(free_block_order(m, pinned & ~511u), <, pageblock_order);
		else
			g_assert_cmpint(free_block_order(m, p), ==, MAX_PAGE_ORDER);
	}
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* The fragmentation index and extfrag, by hand: four free order-0 pages
 * and one free order-3 block are all the zone has. */
static void test_fragmentation_index(void)
{
	struct machine *m = small_machine(POLICY_UPSTREAM);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = dma32(m);
	pfn_t pfn;

	for (int o = MAX_PAGE_ORDER; o >= 0; o--)
		while ((pfn = __rmqueue_smallest(z, (unsigned)o, MIGRATE_MOVABLE)) != PFN_NONE)
			take(m, pfn, (unsigned)o);
	g_assert_cmpint(fragmentation_index(z, 9), ==, 0);
	/* Split the zone's first order-10 filler into pieces, free some. */
	page_clear(&m->mm, SRC);
	for (unsigned i = 0; i < 1024; i += 8)
		take(m, SRC + i, 3);
	pbstat_free(m->pbstat, SRC, MAX_PAGE_ORDER, MIGRATE_UNMOVABLE);
	__free_pages(&ctx, m, SRC + 64);
	page_clear(&m->mm, SRC + 128);
	pbstat_free(m->pbstat, SRC + 128, 3, MIGRATE_UNMOVABLE);
	for (unsigned i = 0; i < 8; i++)
		take(m, SRC + 128 + i, 0);
	for (unsigned i = 0; i < 8; i += 2)
		__free_pages(&ctx, m, SRC + 128 + i);
	drain_all_pages(&ctx, m, NULL);
	assert_all_ok(m);
	/* 5 blocks, 12 pages, none of order 9: 1000 - (1000 + 12000/512) / 5. */
	g_assert_cmpint(fragmentation_index(z, 9), ==, 1000 - (1000 + 23) / 5);
	g_assert_cmpint(fragmentation_index(z, 3), ==, -1000);
	/* extfrag at order 2: the 4 order-0 pages of 12 are unusable. */
	g_assert_cmpuint(extfrag_for_order(z, 2), ==, 4 * 100 / 12);
	g_assert_cmpuint(extfrag_for_order(z, 9), ==, 100);
	/* Far below any watermark: not suitable for compaction. */
	g_assert_false(compaction_suitable(z, 9, wmark_pages(z, WMARK_MIN), ZONE_NORMAL));
	machine_destroy(m);
}

/* compaction_suitable() asks for order-0 free pages above the watermark
 * plus compact_gap(order), 2 << order (room for what both scanners isolate
 * at once): at order 3, 16 pages.  A watermark 16 below the free count
 * fails (free <= mark + 16), 17 below passes.  Order 3 is not costly, so
 * neither the low-min term nor the fragmentation index enters. */
static void test_compaction_gap(void)
{
	struct machine *m = small_machine(POLICY_UPSTREAM);
	struct zone *z = dma32(m);
	unsigned long free_pages = zone_page_state(z, NR_FREE_PAGES);

	g_assert_cmpuint(z->nr_reserved_highatomic, ==, 0);
	g_assert_cmpuint(z->lowmem_reserve[ZONE_DMA32], ==, 0);
	g_assert_false(compaction_suitable(z, 3, free_pages - 16, ZONE_DMA32));
	g_assert_true(compaction_suitable(z, 3, free_pages - 17, ZONE_DMA32));
	/* At order 1 the gap is 4. */
	g_assert_false(compaction_suitable(z, 1, free_pages - 4, ZONE_DMA32));
	g_assert_true(compaction_suitable(z, 1, free_pages - 5, ZONE_DMA32));
	machine_destroy(m);
}

/* defer_compaction: each failure doubles the skips, up to 64. */
static void test_deferral(void)
{
	struct machine *m = small_machine(POLICY_UPSTREAM);
	struct zone *z = dma32(m);

	g_assert_false(compaction_deferred(z, 9));
	for (int i = 0; i < 10; i++)
		defer_compaction(z, 9);
	g_assert_cmpuint(z->compact_defer_shift, ==, COMPACT_MAX_DEFER_SHIFT);
	g_assert_cmpint(z->compact_order_failed, ==, 0);
	compaction_defer_reset(z, 4, false);
	g_assert_cmpint(z->compact_order_failed, ==, 5);
	g_assert_false(compaction_deferred(z, 4));       /* below the failed order */
	for (int i = 1; i < 64; i++)
		g_assert_true(compaction_deferred(z, 9));
	g_assert_false(compaction_deferred(z, 9));
	compaction_defer_reset(z, 9, true);
	g_assert_cmpuint(z->compact_defer_shift, ==, 0);
	g_assert_false(compaction_deferred(z, 9));
	machine_destroy(m);
}

/* alloc_contig_range over the source range: its page-cache pages move
 * out (to the target holes and ZONE_DMA), the range becomes four
 * allocated order-10 blocks of the caller's, and every page-cache index
 * is still there exactly once; freed, the range merges back. */
static void test_alloc_contig_file(void)
{
	struct machine *m = small_machine(POLICY_SPB);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct migrate_stats st = { 0 };
	pfn_t after[NR_SRC], fail = 0;
	uint32_t owner = make_owner(OWNER_KIND_HUGETLB, 0);

	build_layout(&ctx, m, false, NULL);
	g_assert_cmpint(alloc_contig_range(&ctx, m, SRC, SRC_END, MIGRATE_UNMOVABLE, owner, &st,
					   &fail), ==, 0);
	g_assert_cmpuint(st.nr_succeeded, ==, NR_SRC);
	for (pfn_t p = SRC; p < SRC_END; p += 1024) {
		g_assert_cmpint(page_kind(&m->mm, p), ==, PG_KIND_ALLOC);
		g_assert_cmpuint(page_order(&m->mm, p), ==, MAX_PAGE_ORDER);
		g_assert_cmpuint(page_owner(m, p), ==, owner);
		g_assert_cmpuint(page_owner_offset(m, p), ==, (p - SRC) / 1024);
	}
	for (pfn_t p = SRC; p < SRC_END; p += pageblock_nr_pages)
		g_assert_cmpint(get_pfnblock_migratetype(&m->mm, p), !=, MIGRATE_ISOLATE);
	file_pages(m, after);
	for (unsigned i = 0; i < NR_SRC; i++)
		g_assert_true(after[i] < SRC || after[i] >= SRC_END);
	assert_all_ok(m);
	free_contig_range(&ctx, m, SRC, SRC_END - SRC);
	for (pfn_t p = SRC; p < SRC_END; p += 1u << MAX_PAGE_ORDER)
		g_assert_cmpint(free_block_order(m, p), ==, MAX_PAGE_ORDER);
	assert_all_ok(m);
	machine_destroy(m);
}

/* A SIGINT or SIGTERM (fatal_signal_pending) ends compaction at its
 * first cluster, contended, nothing migrated and no skip hint set, and
 * alloc_contig_range with -EINTR before it migrates, the range back in
 * use as it was; once the signal is handled both work whole. */
static void test_fatal_signal(void)
{
	struct machine *m = small_machine(POLICY_PCP_BUDDY);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = dma32(m);
	struct compact_control cc = whole_zone_cc(z);
	struct migrate_stats st = { 0 };
	uint32_t owner = make_owner(OWNER_KIND_HUGETLB, 0);
	pfn_t fail = 0;
	uint64_t addr;
	struct mm_struct *mm = build_layout(&ctx, m, true, &addr);
	pfn_t first = follow_page(mm, addr + PG);

	mm_signal_fatal();
	g_assert_cmpint(compact_zone(&ctx, &cc), ==, COMPACT_CONTENDED);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, 0);
	g_assert_cmpuint(follow_page(mm, addr + PG), ==, first);
	for (pfn_t p = SRC; p < SRC_END; p += pageblock_nr_pages)
		g_assert_false(m->mm.pb_flags[pfn_to_pb(p)] & PB_compact_skip);
	g_assert_cmpint(alloc_contig_range(&ctx, m, SRC, SRC_END, MIGRATE_UNMOVABLE, owner, &st,
					   &fail), ==, -MM_EINTR);
	g_assert_cmpuint(st.nr_succeeded, ==, 0);
	g_assert_cmpuint(follow_page(mm, addr + PG), ==, first);
	for (pfn_t p = SRC; p < SRC_END; p += pageblock_nr_pages)
		g_assert_cmpint(get_pfnblock_migratetype(&m->mm, p), !=, MIGRATE_ISOLATE);
	/* The invariant checker itself stops at a pending signal. */
	mm_signal_clear();
	assert_all_ok(m);
	cc = whole_zone_cc(z);
	g_assert_cmpint(compact_zone(&ctx, &cc), ==, COMPACT_COMPLETE);
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], >, 0);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* A pinned anonymous page makes alloc_contig_range fail at its pfn; the
 * range is left unisolated, the other pages moved out; a page table in a
 * range fails it at isolation, at the page table's pfn. */
static void test_alloc_contig_pinned(void)
{
	struct machine *m = small_machine(POLICY_PCP_BUDDY);
	struct mm_ctx ctx = mm_ctx_null(0);
	uint64_t addr;
	struct mm_struct *mm = build_layout(&ctx, m, true, &addr);
	pfn_t pinned = follow_page(mm, addr + 700 * PG), fail = 0, pgtable = PFN_NONE;
	struct migrate_stats st = { 0 };

	m->mm.flags[pinned].aux |= PG_pinned;
	g_assert_cmpint(alloc_contig_range(&ctx, m, SRC, SRC_END, MIGRATE_UNMOVABLE,
					   make_owner(OWNER_KIND_HUGETLB, 0), &st, &fail),
			==, -MM_EBUSY);
	g_assert_cmpuint(fail, ==, pinned);
	g_assert_cmpuint(st.nr_succeeded, ==, NR_SRC - 3);
	g_assert_cmpuint(follow_page(mm, addr + 700 * PG), ==, pinned);
	for (pfn_t p = SRC; p < SRC_END; p += pageblock_nr_pages)
		g_assert_cmpint(get_pfnblock_migratetype(&m->mm, p), !=, MIGRATE_ISOLATE);
	assert_all_ok(m);
	/* ZONE_DMA holds the process's page tables (and its first page). */
	for (pfn_t p = 0; p < SRC && pgtable == PFN_NONE; p++)
		if (page_kind(&m->mm, p) == PG_KIND_ALLOC &&
		    owner_kind(page_owner(m, p)) == OWNER_KIND_PGTABLE)
			pgtable = p;
	g_assert_cmpuint(pgtable, !=, PFN_NONE);
	g_assert_cmpint(alloc_contig_range(&ctx, m, pgtable & ~1023u, (pgtable & ~1023u) + 1024,
					   MIGRATE_UNMOVABLE, OWNER_NONE, NULL, &fail), ==, -MM_EBUSY);
	g_assert_cmpuint(fail, ==, pgtable);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	assert_all_ok(m);
	machine_destroy(m);
}

/* Direct compaction in the slow path.  Every zone is filled with
 * unmovable fillers except: the top 8 pageblocks of DMA32, every even pfn
 * free (2048 pages that cannot merge; even, so async compaction's free
 * scanner, striding 32 pages, finds them), and the order-10 block at the
 * zone's start, where 600 page-cache pages were read into it (so each of
 * its two pageblocks holds some: 512 and 88, and 424 pages are free after them).
 * No order-9 block is free anywhere, so an order-9 movable request fails
 * both free-list attempts; being costly it compacts first, at async
 * priority: the migrate scanner empties the first pageblock into the even
 * holes, compaction stops as the pageblock becomes free whole, and the
 * request gets it.  One stall, one success, no failure; kswapd is asked
 * for order 9 (the node is not balanced for it). */
static void test_direct_compaction(void)
{
	struct machine *m = small_machine(POLICY_UPSTREAM);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct zone *z = dma32(m);
	const pfn_t tgt = ZONE_END - 8 * pageblock_nr_pages;
	pfn_t small[8u << pageblock_order], pfn;
	pfn_t where[NR_SRC];

	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *fz = &m->node_data[0].node_zones[zi];

		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			for (int o = MAX_PAGE_ORDER; o >= 0; o--)
				while ((pfn = __rmqueue_smallest(fz, (unsigned)o, mt)) != PFN_NONE)
					take(m, pfn, (unsigned)o);
	}
	for (pfn = tgt; pfn < ZONE_END; pfn += 1u << MAX_PAGE_ORDER)
		__free_pages(&ctx, m, pfn);
	drain_all_pages(&ctx, m, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(small); i++) {
		small[i] = __rmqueue_smallest(z, 0, MIGRATE_MOVABLE);
		g_assert_cmpuint(small[i], >=, tgt);
		take(m, small[i], 0);
	}
	__free_pages(&ctx, m, SRC);
	for (unsigned i = 0; i < 600; i++)
		g_assert_cmpuint(page_cache_add(&ctx, m, 0, FILE_ID, i), !=, PFN_NONE);
	drain_all_pages(&ctx, m, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(small); i++)
		if (!(small[i] & 1))
			__free_pages(&ctx, m, small[i]);
	drain_all_pages(&ctx, m, NULL);
	file_pages(m, where);
	for (unsigned i = 0; i < 600; i++) {
		g_assert_cmpuint(where[i], >=, SRC);
		g_assert_cmpuint(where[i], <, SRC + (1u << MAX_PAGE_ORDER));
	}
	for (unsigned o = pageblock_order; o <= MAX_PAGE_ORDER; o++)
		g_assert_cmpuint(z->free_area[o].nr_free, ==, 0);
	assert_all_ok(m);

	pfn = __alloc_pages(&ctx, m, GFP_HIGHUSER_MOVABLE, pageblock_order, 0, OWNER_NONE, 0);
	g_assert_cmpuint(pfn, ==, SRC);
	g_assert_cmpuint(m->vm_events[COMPACTSTALL], ==, 1);
	g_assert_cmpuint(m->vm_events[COMPACTSUCCESS], ==, 1);
	g_assert_cmpuint(m->vm_events[COMPACTFAIL], ==, 0);
	g_assert_cmpuint(m->vm_events[ALLOC_FAIL], ==, 0);
	g_assert_cmpuint(m->vm_events[PGSTEAL_DIRECT], ==, 0);     /* compaction, not reclaim */
	/* The reads filled the first pageblock whole: all 512 moved. */
	g_assert_cmpuint(m->vm_events[PGMIGRATE_SUCCESS], ==, pageblock_nr_pages);
	g_assert_cmpint(m->node_data[0].kswapd_order, ==, pageblock_order);
	/* The page-cache pages of the first pageblock moved to even holes. */
	file_pages(m, where);
	for (unsigned i = 0; i < 600; i++)
		g_assert_true(where[i] >= SRC + pageblock_nr_pages ||
			      (where[i] >= tgt && !(where[i] & 1)));
	g_assert_cmpuint(page_cache_pages(m, 0), ==, 600);
	/* Success resets the deferral of the zone for the order. */
	g_assert_cmpuint(z->compact_defer_shift, ==, 0);
	g_assert_false(compaction_deferred(z, pageblock_order));
	__free_pages(&ctx, m, pfn);
	assert_all_ok(m);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (int p = 0; p < NR_MM_POLICIES; p++) {
		char *name = g_strdup_printf("/compaction/layout/%s", mm_policy_names[p]);

		g_test_add_data_func(name, GINT_TO_POINTER(p), test_compact_layout);
		g_free(name);
	}
	g_test_add_func("/compaction/pinned", test_compact_pinned);
	g_test_add_func("/compaction/fatal-signal", test_fatal_signal);
	g_test_add_func("/compaction/fragmentation-index", test_fragmentation_index);
	g_test_add_func("/compaction/deferral", test_deferral);
	g_test_add_func("/compaction/gap", test_compaction_gap);
	g_test_add_func("/compaction/direct", test_direct_compaction);
	g_test_add_func("/alloc_contig/file", test_alloc_contig_file);
	g_test_add_func("/alloc_contig/pinned", test_alloc_contig_pinned);
	return g_test_run();
}
