/* Hand-worked cases of the per-CPU pagesets, upstream and pcp_buddy
 * (per-cpu pageblock buddy), on the 8 GiB test machine (4 CPUs; the Normal
 * zone is pfns 1048576-2097151, 1048576 pages: batch 63, high_min =
 * low watermark 10560 / 4 CPUs = 2640, high_max = 1048576 / 8 / 4 = 32768). */
#include "helpers.h"
#include "recorder.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
#include "models/pcp_buddy.h"
#include "models/swap.h"

/* An engine stand-in that takes no time but remembers where work was
 * charged: each kind while holding zone->lock versus elsewhere. */
struct recorder {
	int zone_locks_held;
	unsigned long zone_lock_acquisitions, pcp_lock_acquisitions, lru_lock_acquisitions;
	enum lock_site last_zone_site;
	unsigned long under_zone_lock[NR_MM_COSTS], elsewhere[NR_MM_COSTS];
};

static struct recorder rec;

static void rec_charged(struct mm_ctx *ctx, enum mm_cost kind, unsigned long n)
{
	(void)ctx;
	if (rec.zone_locks_held)
		rec.under_zone_lock[kind] += n;
	else
		rec.elsewhere[kind] += n;
}

static void rec_locked(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	(void)ctx;
	rec.pcp_lock_acquisitions += l->class_id == LOCK_CLASS_PCP;
	rec.lru_lock_acquisitions += l->class_id == LOCK_CLASS_LRU;
	if (l->class_id == LOCK_CLASS_ZONE) {
		rec.zone_locks_held++;
		rec.zone_lock_acquisitions++;
		rec.last_zone_site = site;
	}
}

static void rec_unlocking(struct mm_ctx *ctx, struct spinlock *l)
{
	(void)ctx;
	if (l->class_id == LOCK_CLASS_ZONE)
		rec.zone_locks_held--;
}

static struct machine *pcp_machine(enum mm_policy policy)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_preset(&t, "test");
	machine_params_default(&p);
	p.boot_reserve = false;
	p.policy = policy;
	p.thp = true;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	memset(&rec, 0, sizeof(rec));
	return m;
}

static struct zone *normal(struct machine *m)
{
	return &m->node_data[0].node_zones[ZONE_NORMAL];
}

static void test_pageset_sizes(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), 0);

	g_assert_cmpint(pcp->batch, ==, 63);
	g_assert_cmpint(pcp->high_min, ==, 2640);
	g_assert_cmpint(pcp->high_max, ==, 32768);
	g_assert_cmpint(zone_batchsize(&m->node_data[0].node_zones[ZONE_DMA]), ==, 1);
	/* Consecutive order-0 refills without a free double the batch:
	 * 63 << alloc_factor, while high grows by each batch from high_min. */
	static const int want[] = { 63, 126, 252, 504, 1008, 2016, 2016 };
	for (unsigned i = 0; i < G_N_ELEMENTS(want); i++)
		g_assert_cmpint(nr_pcp_alloc(pcp, normal(m), 0), ==, want[i]);
	g_assert_cmpint(pcp->alloc_factor, ==, CONFIG_PCP_BATCH_SCALE_MAX);
	/* Order 3 asks for max(63 >> 3, 2) = 7 blocks. */
	g_assert_cmpint(nr_pcp_alloc(pcp, normal(m), 3), ==, 7);
	machine_destroy(m);
}

/* A kernel before 6.7 (machine option pcp_high/pcp_batch): batch 31 and
 * high 186 (6 * batch: /proc/zoneinfo's pageset before 5.14) on every CPU's
 * pageset of every populated zone, and nothing tunes high. */
static void test_fixed_pagesets(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_preset(&t, "test");
	machine_params_default(&p);
	p.boot_reserve = false;
	p.pcp_high = 186;
	p.pcp_batch = 31;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	memset(&rec, 0, sizeof(rec));
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), 0);

	for_each_populated_zone(m, z)
		for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
			g_assert_cmpint(zone_pcp(z, cpu)->batch, ==, 31);
			g_assert_cmpint(zone_pcp(z, cpu)->high_min, ==, 186);
			g_assert_cmpint(zone_pcp(z, cpu)->high_max, ==, 186);
		}
	/* Refills without a free: auto-tuning would raise high by each
	 * batch; here it stays, and high - count - batch bounds the refill:
	 * count 0 gives max(186 - 0 - 31, 31) = 155 >= 31 << 0. */
	for (int i = 0; i < 7; i++) {
		nr_pcp_alloc(pcp, normal(m), 0);
		g_assert_cmpint(pcp->high, ==, 186);
	}
	/* The vmstat decay leaves it too, and so does a fraction written to
	 * the sysctl (the fixed pageset wins). */
	g_assert_cmpuint(rmqueue_bulk(&c0, normal(m), 0, 150, MIGRATE_MOVABLE, 0, pcp), ==, 150);
	decay_pcp_high(&c0, normal(m), pcp);
	g_assert_cmpint(pcp->high, ==, 186);
	g_assert_cmpint(pcp->count, ==, 150);
	percpu_pagelist_high_fraction_sysctl_handler(m, 8);
	g_assert_cmpint(pcp->high_min, ==, 186);
	g_assert_cmpint(pcp->high_max, ==, 186);
	g_assert_cmpint(pcp->batch, ==, 31);
	/* A free_high pass lowers high only down to high_min: it stays. */
	nr_pcp_high(pcp, normal(m), 31, true);
	g_assert_cmpint(pcp->high, ==, 186);
	assert_invariants(m);
	machine_destroy(m);
}

/* Upstream: an order-0 refill takes `batch` single pages from the buddy
 * under one zone->lock hold; a free goes to the freeing CPU's own list. */
static void test_upstream_refill_and_local_free(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct mm_ctx c0 = cpu_ctx(0), c1 = cpu_ctx(1);

	pfn_t pfn = __alloc_pages(&c0, m, GFP_HIGHUSER_MOVABLE, 0, 0, 1, 0);
	g_assert_cmpuint(pfn, !=, PFN_NONE);
	g_assert_true(zone_spans_pfn(normal(m), pfn));
	/* 63 pages came over, one was handed out. */
	g_assert_cmpint(zone_pcp(normal(m), 0)->count, ==, 62);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 1);
	g_assert_cmpint(__free_pages(&c1, m, pfn), ==, 0);
	g_assert_cmpint(zone_pcp(normal(m), 1)->count, ==, 1);
	g_assert_cmpint(page_kind(&m->mm, pfn), ==, PG_KIND_PCP);
	g_assert_false(PagePCPBuddy(m, pfn));
	assert_invariants(m);
	machine_destroy(m);
}

/* free_unref_folios, the path munmap and exit free through: a batch of
 * pages for one pageset takes its pcp->lock once, not once per page (the
 * kernel relocks only when the zone or the pageset changes). */
static void test_batch_free_locks_once(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct mm_ctx c0 = cpu_ctx(0);
	pfn_t pfns[31];

	for (unsigned i = 0; i < G_N_ELEMENTS(pfns); i++) {
		pfns[i] = __alloc_pages(&c0, m, GFP_HIGHUSER_MOVABLE, 0, 0, 1, 0);
		g_assert_cmpuint(pfns[i], !=, PFN_NONE);
	}
	rec.pcp_lock_acquisitions = 0;
	rec.zone_lock_acquisitions = 0;
	free_unref_folios(&c0, m, pfns, G_N_ELEMENTS(pfns));
	g_assert_cmpuint(rec.pcp_lock_acquisitions, ==, 1);
	/* The refill brought 63 pages, 31 went out and came back: 63 on the
	 * list, below high, so nothing goes to the zone. */
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 0);
	g_assert_cmpint(zone_pcp(normal(m), 0)->count, ==, 63);
	assert_invariants(m);
	machine_destroy(m);
}

/* Seed 001 Phase 1: a refill that needs at least a pageblock takes whole
 * blocks, owned by the CPU and marked PagePCPBuddy. */
static struct per_cpu_pages *own_one_block(struct machine *m, unsigned cpu, pfn_t *block)
{
	struct mm_ctx c = cpu_ctx(cpu);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), cpu);

	g_assert_cmpuint(rmqueue_bulk(&c, normal(m), 0, 512, MIGRATE_MOVABLE, 0, pcp), ==, 512);
	*block = pcp->lists[order_to_pindex(m, MIGRATE_MOVABLE, pageblock_order)].head;
	g_assert_cmpuint(*block, !=, PFN_NONE);
	g_assert_cmpint(pcp->count, ==, 512);
	g_assert_cmpint(get_pcpblock_owner(m, *block), ==, (int)cpu);
	g_assert_true(PagePCPBuddy(m, *block));
	return pcp;
}

/* Take the first two pages of CPU cpu's block, as allocations do: the
 * split leaves b+1 (o0), b+2 (o1) ... b+256 (o8) on the pcp, all
 * PagePCPBuddy. */
static void take_two(struct machine *m, struct per_cpu_pages *pcp, pfn_t b)
{
	g_assert_cmpuint(pcp_rmqueue_smallest(m, pcp, MIGRATE_MOVABLE, 0), ==, b);
	mark_allocated(m, b, 0, MIGRATE_MOVABLE);
	g_assert_true(PagePCPBuddy(m, b + 256));
	g_assert_true(PagePCPBuddy(m, b + 1));
	g_assert_cmpuint(pcp_rmqueue_smallest(m, pcp, MIGRATE_MOVABLE, 0), ==, b + 1);
	mark_allocated(m, b + 1, 0, MIGRATE_MOVABLE);
}

/* A page freed on CPU 1 from a block CPU 0 owns lands on CPU 0's list,
 * PagePCPBuddy, not on CPU 1's. */
static void test_remote_free_routes_to_owner(void)
{
	struct machine *m = pcp_machine(POLICY_PCP_BUDDY);
	struct mm_ctx c1 = cpu_ctx(1);
	pfn_t b;
	struct per_cpu_pages *pcp0 = own_one_block(m, 0, &b);

	take_two(m, pcp0, b);
	g_assert_cmpint(pcp0->count, ==, 510);
	g_assert_cmpint(__free_pages(&c1, m, b + 1), ==, 0);
	g_assert_cmpint(pcp0->count, ==, 511);
	g_assert_cmpint(zone_pcp(normal(m), 1)->count, ==, 0);
	g_assert_cmpint(page_kind(&m->mm, b + 1), ==, PG_KIND_PCP);
	g_assert_true(PagePCPBuddy(m, b + 1));
	g_assert_cmpuint(pcp0->lists[order_to_pindex(m, MIGRATE_MOVABLE, 0)].head, ==, b + 1);
	assert_invariants(m);
	machine_destroy(m);
}

/* Every list operation of a refill and of a drain, the pageset's as well
 * as the zone's, lengthens the zone->lock hold: none is left for the
 * pcp->lock section around it. */
static void check_bulk_work_under_zone_lock(enum mm_policy policy, unsigned long count,
					    unsigned long blocks)
{
	struct machine *m = pcp_machine(policy);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), 0);

	pcp_lock(&c0, pcp, SITE_OTHER);
	g_assert_cmpuint(rmqueue_bulk(&c0, normal(m), 0, count, MIGRATE_MOVABLE, 0, pcp), ==,
			 count);
	pcp_unlock(&c0, pcp);
	/* A removal from the zone and an add to the pageset per block. */
	g_assert_cmpuint(rec.under_zone_lock[COST_LIST_OP], >=, 2 * blocks);
	g_assert_cmpuint(rec.elsewhere[COST_LIST_OP], ==, 0);
	memset(&rec, 0, sizeof(rec));
	pcp_lock(&c0, pcp, SITE_OTHER);
	free_pcppages_bulk(&c0, normal(m), (int)count, pcp, 0);
	pcp_unlock(&c0, pcp);
	g_assert_cmpint(pcp->count, ==, 0);
	g_assert_cmpuint(rec.under_zone_lock[COST_LIST_OP], >=, 2 * blocks);
	g_assert_cmpuint(rec.elsewhere[COST_LIST_OP], ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

static void test_bulk_work_under_zone_lock(void)
{
	check_bulk_work_under_zone_lock(POLICY_UPSTREAM, 63, 63);
	check_bulk_work_under_zone_lock(POLICY_PCP_BUDDY, 512, 1);
	check_bulk_work_under_zone_lock(POLICY_SPB, 512, 1);
}

/* A drain that finds both halves merges on the pcp first: with b and b+1
 * freed back, the merge pass rebuilds b+0..511 up to order 9 (9 merge
 * steps under pcp->lock only), and zone->lock then takes the whole block
 * in one go: a single merge step with its free order-9 buddy (the other
 * half of the order-10 block Phase 1 split), disowning it. */
static void test_drain_merges_before_zone_lock(void)
{
	struct machine *m = pcp_machine(POLICY_PCP_BUDDY);
	struct mm_ctx c0 = cpu_ctx(0);
	pfn_t b;
	struct per_cpu_pages *pcp0 = own_one_block(m, 0, &b);

	take_two(m, pcp0, b);
	g_assert_cmpint(__free_pages(&c0, m, b), ==, 0);
	g_assert_cmpint(__free_pages(&c0, m, b + 1), ==, 0);
	memset(&rec, 0, sizeof(rec));
	pcp_lock(&c0, pcp0, SITE_OTHER);
	free_pcppages_bulk(&c0, normal(m), 1, pcp0, 0);
	pcp_unlock(&c0, pcp0);
	g_assert_cmpuint(rec.elsewhere[COST_MERGE_STEP], ==, 9);
	g_assert_cmpuint(rec.under_zone_lock[COST_MERGE_STEP], ==, 1);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 1);
	g_assert_cmpint(pcp0->count, ==, 0);
	pfn_t head = b & ~((1u << MAX_PAGE_ORDER) - 1);
	g_assert_true(PageBuddy(&m->mm, head));
	g_assert_cmpuint(page_order(&m->mm, head), ==, MAX_PAGE_ORDER);
	g_assert_cmpint(get_pcpblock_owner(m, b), ==, -1);
	assert_invariants(m);
	machine_destroy(m);
}

/* A partially drained block: with one page still allocated, draining CPU
 * 0's pageset sends the fragments to the zone buddy (at the list tails)
 * and puts the block on CPU 0's owned_blocks; the next refill's Phase 0
 * pulls those fragments back, PagePCPBuddy, before touching any other
 * block. */
static void test_phase0_recovers_drained_block(void)
{
	struct machine *m = pcp_machine(POLICY_PCP_BUDDY);
	struct mm_ctx c0 = cpu_ctx(0);
	pfn_t b;
	struct per_cpu_pages *pcp0 = own_one_block(m, 0, &b);
	uint32_t pb = pfn_to_pb(b);

	take_two(m, pcp0, b);
	g_assert_cmpint(__free_pages(&c0, m, b + 1), ==, 0);
	drain_pages_zone(&c0, 0, normal(m));
	g_assert_cmpint(pcp0->count, ==, 0);
	g_assert_cmpuint(pcp0->owned_blocks.head, ==, pb);
	g_assert_cmpint(get_pcpblock_owner(m, b), ==, 0);
	/* b+1 went back alone (its buddy b is allocated); b+256 (o8) too. */
	g_assert_true(PageBuddy(&m->mm, b + 1));
	g_assert_true(PageBuddy(&m->mm, b + 256));
	g_assert_cmpuint(normal(m)->free_area[8].free_list[MIGRATE_MOVABLE].tail, ==, b + 256);
	assert_invariants(m);

	/* Refill 63 pages: Phase 0 alone supplies the block's 511 free pages
	 * (it recovers a block whole, even past the request). */
	g_assert_cmpuint(rmqueue_bulk(&c0, normal(m), 0, 63, MIGRATE_MOVABLE, 0, pcp0), ==, 511);
	g_assert_cmpuint(pcp0->owned_blocks.head, ==, UINT32_MAX);
	g_assert_cmpint(page_kind(&m->mm, b + 1), ==, PG_KIND_PCP);
	g_assert_true(PagePCPBuddy(m, b + 1));
	g_assert_true(PagePCPBuddy(m, b + 256));
	assert_invariants(m);
	machine_destroy(m);
}

/* A dead CPU: its pagesets are drained and flagged; a later free of a page
 * from a block it still (stale) owns goes straight to the zone buddy. */
static void test_dead_cpu_frees_go_to_zone(void)
{
	struct machine *m = pcp_machine(POLICY_PCP_BUDDY);
	struct mm_ctx c1 = cpu_ctx(1);
	pfn_t b;
	struct per_cpu_pages *pcp0 = own_one_block(m, 0, &b);

	take_two(m, pcp0, b);
	page_alloc_cpu_dead(&c1, m, 0);
	g_assert_false(m->cpu_online[0]);
	g_assert_true(pcp0->flags & PCPF_CPU_DEAD);
	g_assert_cmpint(pcp0->count, ==, 0);
	g_assert_cmpuint(pcp0->owned_blocks.head, ==, UINT32_MAX);
	g_assert_cmpint(get_pcpblock_owner(m, b), ==, 0);
	/* high is now split over 3 CPUs: 10560 / 3 = 3520. */
	g_assert_cmpint(zone_pcp(normal(m), 1)->high_min, ==, 3520);

	unsigned long free_before = zone_page_state(normal(m), NR_FREE_PAGES);
	g_assert_cmpint(__free_pages(&c1, m, b + 1), ==, 0);
	g_assert_cmpint(pcp0->count, ==, 0);
	g_assert_cmpint(zone_pcp(normal(m), 1)->count, ==, 0);
	g_assert_true(PageBuddy(&m->mm, b + 1));
	g_assert_cmpuint(zone_page_state(normal(m), NR_FREE_PAGES), ==, free_before + 1);
	assert_invariants(m);

	/* Freeing the last page makes the block whole: ownership is gone. */
	g_assert_cmpint(__free_pages(&c1, m, b), ==, 0);
	g_assert_cmpint(get_pcpblock_owner(m, b), ==, -1);
	page_alloc_cpu_online(&c1, m, 0);
	g_assert_true(m->cpu_online[0]);
	g_assert_false(pcp0->flags & PCPF_CPU_DEAD);
	g_assert_cmpint(zone_pcp(normal(m), 1)->high_min, ==, 2640);
	assert_invariants(m);
	machine_destroy(m);
}

/* Decay: an idle pageset's high falls by an eighth per pass, towards
 * high_min, and what is above it is freed. */
static void test_decay(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), 0);

	pcp->high = 8000;
	g_assert_cmpuint(rmqueue_bulk(&c0, normal(m), 0, 4000, MIGRATE_MOVABLE, 0, pcp), ==, 4000);
	/* high = max(4000 - 63 * 32, 8000 - 1000, 2640) = 7000: nothing to free. */
	g_assert_true(decay_pcp_high(&c0, normal(m), pcp));
	g_assert_cmpint(pcp->high, ==, 7000);
	g_assert_cmpint(pcp->count, ==, 4000);
	for (int i = 0; i < 20; i++)
		decay_pcp_high(&c0, normal(m), pcp);
	/* Pass by pass, high = max(count - 2016, high - high / 8, 2640) and
	 * the excess over it is freed: 7000 -> 6125 -> 5360 -> 4690 -> 4104
	 * (count 4000 stays), -> 3591 (frees 409: count 3591), -> max(1575,
	 * 3143) = 3143 (count 3143), -> 2751 (2751), -> max(2408, 2640) = 2640
	 * (2640); high_min holds from then on. */
	g_assert_cmpint(pcp->high, ==, 2640);
	g_assert_cmpint(pcp->count, ==, 2640);
	assert_invariants(m);
	machine_destroy(m);
}

/* A full, idle pageset: the count - (batch << 5) bound binds rather than
 * the eighth.  high = count = 20000: max(20000 - 63 * 32, 20000 - 2500,
 * 2640) = max(17984, 17500, 2640) = 17984; the 2016 pages over it go
 * back in 2016 / 63 = 32 batches, one zone->lock hold each. */
static void test_decay_count_bound(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(normal(m), 0);

	pcp->high = 20000;
	g_assert_cmpuint(rmqueue_bulk(&c0, normal(m), 0, 20000, MIGRATE_MOVABLE, 0, pcp), ==,
			 20000);
	memset(&rec, 0, sizeof(rec));
	g_assert_true(decay_pcp_high(&c0, normal(m), pcp));
	g_assert_cmpint(pcp->high, ==, 17984);
	g_assert_cmpint(pcp->count, ==, 17984);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 32);
	g_assert_cmpint(rec.last_zone_site, ==, SITE_FREE_PCPPAGES_BULK);
	assert_invariants(m);
	machine_destroy(m);
}

/* The free side, on a 1 GiB node whose DMA32 zone (258048 managed pages)
 * has batch 63, high_min 1266 / 4 = 316 and high_max 258048 / 8 / 4 =
 * 8064, small enough for a run of frees to need more than high_min.
 * PCPF_FREE_HIGH_BATCH is set (the default 1920 KiB cache slice holds 480
 * pages > 3 batches). */
static struct machine *free_side_machine(struct zone **z)
{
	struct machine *m = test_machine(1 * GiB, false);

	*z = &m->node_data[0].node_zones[ZONE_DMA32];
	memset(&rec, 0, sizeof(rec));
	g_assert_cmpint(zone_pcp(*z, 0)->batch, ==, 63);
	g_assert_cmpint(zone_pcp(*z, 0)->high_min, ==, 316);
	g_assert_cmpint(zone_pcp(*z, 0)->high_max, ==, 8064);
	g_assert_true(zone_pcp(*z, 0)->flags & PCPF_FREE_HIGH_BATCH);
	return m;
}

/* A block of the given order allocated on CPU 1, so that CPU 0's pageset
 * is left as the test set it. */
static pfn_t alloc_elsewhere(struct machine *m, unsigned order)
{
	struct mm_ctx c1 = cpu_ctx(1);
	pfn_t pfn = __alloc_pages(&c1, m, GFP_HIGHUSER_MOVABLE, order, 0, 1, 0);

	g_assert_cmpuint(pfn, !=, PFN_NONE);
	return pfn;
}

/* CPU 0's pageset of z as a test sets it up: count pages taken from the
 * buddy, high and free_count. */
static void fill_pcp(struct mm_ctx *c0, struct zone *z, unsigned long count, int high,
		     short free_count)
{
	struct per_cpu_pages *pcp = zone_pcp(z, 0);

	g_assert_cmpuint(rmqueue_bulk(c0, z, 0, count, MIGRATE_MOVABLE, 0, pcp), ==, count);
	pcp->high = high;
	pcp->free_count = free_count;
}

/* nr_pcp_high: a free that brings count to high raises high to hold the
 * run of frees, free_count + batch.  high 316, count 400, free_count 500:
 * the free makes count 401 and free_count 501; 401 >= 316, so high =
 * clamp(501 + 63, 316, 8064) = 564, while this free still trims against
 * the old 316: nr_pcp_free = clamp(501, 63, 316 - 63) = 253, count 148. */
static void test_free_grows_high(void)
{
	struct zone *z;
	struct machine *m = free_side_machine(&z);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	pfn_t pfn = alloc_elsewhere(m, 0);

	fill_pcp(&c0, z, 400, 316, 500);
	memset(&rec, 0, sizeof(rec));
	g_assert_cmpint(__free_pages(&c0, m, pfn), ==, 0);
	g_assert_cmpint(pcp->free_count, ==, 501);
	g_assert_cmpint(pcp->high, ==, 564);
	g_assert_cmpint(pcp->count, ==, 148);
	/* 253 pages in batches of 63: 63 * 4 + 1, five zone->lock holds. */
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 5);
	/* The next free stays: 149 < 564. */
	g_assert_cmpint(__free_pages(&c0, m, alloc_elsewhere(m, 0)), ==, 0);
	g_assert_cmpint(pcp->count, ==, 149);
	g_assert_cmpint(pcp->high, ==, 564);
	assert_invariants(m);
	machine_destroy(m);
}

/* free_high: the second order-1 free in a row, with free_count >= batch +
 * high_min / 2 = 63 + 158 = 221 and count >= batch, frees the pageset
 * (min(count, 63 << 5)) and lowers high by 63 << 5 = 2016.  high 3000,
 * count 100, free_count 300.  First order-1 free: count 102, not yet
 * PCPF_PREV_FREE_HIGH_ORDER, so nr_pcp_high returns 3000 and nothing
 * goes; free_count 302.  Second: count 104, free_high; high = max(3000 -
 * 2016, 316) = 984 and nr_pcp_high returns 0, so nr_pcp_free = min(104,
 * 2016) = 104: the whole pageset, in batches of 63 and 41. */
static void test_free_high_order_batch(void)
{
	struct zone *z;
	struct machine *m = free_side_machine(&z);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	pfn_t a = alloc_elsewhere(m, 1), b = alloc_elsewhere(m, 1);

	fill_pcp(&c0, z, 100, 3000, 300);
	pcp->flags &= (uint8_t)~PCPF_PREV_FREE_HIGH_ORDER;
	memset(&rec, 0, sizeof(rec));
	g_assert_cmpint(__free_pages(&c0, m, a), ==, 0);
	g_assert_cmpint(pcp->count, ==, 102);
	g_assert_cmpint(pcp->high, ==, 3000);
	g_assert_cmpint(pcp->free_count, ==, 302);
	g_assert_true(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 0);
	g_assert_cmpint(nr_pcp_free(pcp, 63, 0, true), ==, 102);

	g_assert_cmpint(__free_pages(&c0, m, b), ==, 0);
	g_assert_cmpint(pcp->count, ==, 0);
	g_assert_cmpint(pcp->high, ==, 984);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 2);
	/* An order-0 free ends the run of high-order frees. */
	g_assert_cmpint(__free_pages(&c0, m, alloc_elsewhere(m, 0)), ==, 0);
	g_assert_false(pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
	g_assert_cmpint(pcp->count, ==, 1);
	assert_invariants(m);
	machine_destroy(m);
}

/* ZONE_BELOW_HIGH: each free lowers high by max(free_count, batch) and
 * trims against max(count, high_min) instead.  high 3000, count 400,
 * free_count 300: the free makes count 401, free_count 301; high =
 * max(3000 - 301, 316) = 2699, trimmed against max(401, 316) = 401: 401
 * >= 401, so nr_pcp_free = clamp(301, 63, 401 - 63) = 301 go, count 100.
 * Free memory is far above the high watermark: the flag is cleared. */
static void test_below_high_shrinks(void)
{
	struct zone *z;
	struct machine *m = free_side_machine(&z);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	pfn_t pfn = alloc_elsewhere(m, 0);

	fill_pcp(&c0, z, 400, 3000, 300);
	z->flags |= ZONE_BELOW_HIGH;
	g_assert_cmpint(__free_pages(&c0, m, pfn), ==, 0);
	g_assert_cmpint(pcp->high, ==, 2699);
	g_assert_cmpint(pcp->count, ==, 100);
	g_assert_false(z->flags & ZONE_BELOW_HIGH);
	assert_invariants(m);
	machine_destroy(m);
}

/* ZONE_RECLAIM_ACTIVE: high drops the same way and the pageset is trimmed
 * to min(batch << 2, high) = min(252, 2699) = 252: from count 401,
 * nr_pcp_free = clamp(301, 63, 252 - 63) = 189 go, count 212, in three
 * batches of 63. */
static void test_reclaim_active_shrinks(void)
{
	struct zone *z;
	struct machine *m = free_side_machine(&z);
	struct mm_ctx c0 = cpu_ctx(0);
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	pfn_t pfn = alloc_elsewhere(m, 0);

	fill_pcp(&c0, z, 400, 3000, 300);
	z->flags |= ZONE_RECLAIM_ACTIVE;
	memset(&rec, 0, sizeof(rec));
	g_assert_cmpint(__free_pages(&c0, m, pfn), ==, 0);
	g_assert_cmpint(pcp->high, ==, 2699);
	g_assert_cmpint(pcp->count, ==, 212);
	g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 3);
	assert_invariants(m);
	machine_destroy(m);
}

/* Upstream frees only trylock the local pageset, and so does a single free
 * at the superpageblock tip (__free_frozen_pages: "always use trylock"):
 * when another CPU holds it (a drain, say), the page goes straight to the
 * zone (free_one_page), one zone->lock hold, and the pageset is untouched. */
static void test_free_trylock_fails(void)
{
	static const enum mm_policy policies[] = { POLICY_UPSTREAM, POLICY_SPB };

	for (unsigned i = 0; i < G_N_ELEMENTS(policies); i++) {
		struct machine *m = pcp_machine(policies[i]);
		struct mm_ctx c0 = cpu_ctx(0);
		struct per_cpu_pages *pcp0 = zone_pcp(normal(m), 0);
		pfn_t pfn = alloc_elsewhere(m, 0);
		unsigned long free_before = zone_page_state(normal(m), NR_FREE_PAGES);
		unsigned long pgfree = m->vm_events[PGFREE];

		g_assert_cmpint(get_pcpblock_owner(m, pfn), <, 0);
		pcp0->lock.owner = 3;
		memset(&rec, 0, sizeof(rec));
		g_assert_cmpint(__free_pages(&c0, m, pfn), ==, 0);
		g_assert_cmpint(pcp0->count, ==, 0);
		g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 1);
		g_assert_cmpint(rec.last_zone_site, ==, SITE_FREE_ONE_PAGE);
		g_assert_true(PageBuddy(&m->mm, pfn));
		g_assert_cmpuint(zone_page_state(normal(m), NR_FREE_PAGES), ==, free_before + 1);
		g_assert_cmpuint(m->vm_events[PGFREE], ==, pgfree + 1);
		pcp0->lock.owner = -1;
		assert_invariants(m);
		machine_destroy(m);
	}
}

/* An allocation whose pcp trylock fails takes its page from the zone
 * buddy under zone->lock (rmqueue_buddy), leaving the pageset empty. */
static void test_alloc_trylock_fails(void)
{
	for (int policy = POLICY_UPSTREAM; policy <= POLICY_PCP_BUDDY; policy++) {
		struct machine *m = pcp_machine(policy);
		struct mm_ctx c0 = cpu_ctx(0);
		struct per_cpu_pages *pcp0 = zone_pcp(normal(m), 0);
		unsigned long pgalloc = m->vm_events[PGALLOC_DMA + ZONE_NORMAL];

		pcp0->lock.owner = 3;
		pfn_t pfn = __alloc_pages(&c0, m, GFP_HIGHUSER_MOVABLE, 0, 0, 1, 0);
		g_assert_cmpuint(pfn, !=, PFN_NONE);
		g_assert_cmpint(pcp0->count, ==, 0);
		g_assert_cmpuint(rec.zone_lock_acquisitions, ==, 1);
		g_assert_cmpint(rec.last_zone_site, ==, SITE_RMQUEUE_BUDDY);
		g_assert_cmpuint(m->vm_events[PGALLOC_DMA + ZONE_NORMAL], ==, pgalloc + 1);
		g_assert_cmpint(page_kind(&m->mm, pfn), ==, PG_KIND_ALLOC);
		pcp0->lock.owner = -1;
		assert_invariants(m);
		machine_destroy(m);
	}
}

/* The vmstat worker drains a remote zone's pageset after three passes in
 * which its CPU did not use it, a batch at a time (drain_zone_pages), and
 * never the pageset of a zone of its own node.  CPU 0 (node 0) allocates
 * a page on each node: each refill leaves count = batch - 1 cached. */
static void test_drain_zone_pages(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 1 * GiB);
	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	struct mm_ctx c = mm_ctx_null(0);
	struct zone *local = &m->node_data[0].node_zones[ZONE_DMA32];
	struct zone *remote = &m->node_data[1].node_zones[ZONE_DMA32];
	struct per_cpu_pages *lp = zone_pcp(local, 0), *rp = zone_pcp(remote, 0);

	g_assert_cmpuint(__alloc_pages(&c, m, GFP_KERNEL, 0, 0, 1, 0), !=, PFN_NONE);
	g_assert_cmpuint(__alloc_pages(&c, m, GFP_KERNEL, 0, 1, 1, 0), !=, PFN_NONE);
	int lcount = lp->count, rcount = rp->count;
	g_assert_cmpint(rcount, >, rp->batch / 2);
	g_assert_cmpint(rp->expire, ==, 3);
	for (int pass = 1; pass <= 2; pass++) {
		refresh_cpu_vm_stats(&c, m);
		g_assert_cmpint(rp->count, ==, rcount);
		g_assert_cmpint(rp->expire, ==, 3 - pass);
	}
	refresh_cpu_vm_stats(&c, m);
	g_assert_cmpint(rp->count, ==, rcount - MIN(rcount, rp->batch));
	g_assert_cmpint(lp->count, ==, lcount);
	g_assert_cmpint(lp->expire, ==, 0);
	assert_invariants(m);
	machine_destroy(m);
}

/* The lru_add batch holds 31 folios (9cecde80aae0): 30 faulted pages
 * take no lru_lock, the 31st moves all 31 onto the LRU in one section,
 * and 62 pages take it twice (with 15 a batch, 62 would take it 4 times). */
static void test_lru_add_batch_of_31(void)
{
	struct machine *m = pcp_machine(POLICY_UPSTREAM);
	struct mm_ctx c = cpu_ctx(0);
	pfn_t base = normal(m)->zone_start_pfn;

	for (unsigned i = 0; i < 30; i++)
		folio_add_lru(&c, m, base + i);
	g_assert_cmpuint(rec.lru_lock_acquisitions, ==, 0);
	folio_add_lru(&c, m, base + 30);
	g_assert_cmpuint(rec.lru_lock_acquisitions, ==, 1);
	g_assert_cmpuint(rec.elsewhere[COST_LRU_MOVE], ==, 31);
	for (unsigned i = 31; i < 62; i++)
		folio_add_lru(&c, m, base + i);
	g_assert_cmpuint(rec.lru_lock_acquisitions, ==, 2);
	lru_add_drain(&c, m);
	g_assert_cmpuint(rec.lru_lock_acquisitions, ==, 2);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	recorder_hooks = (struct recorder_hooks){
		.charged = rec_charged, .locked = rec_locked, .unlocking = rec_unlocking,
	};
	g_test_add_func("/pcp/pageset-sizes", test_pageset_sizes);
	g_test_add_func("/pcp/fixed-pagesets", test_fixed_pagesets);
	g_test_add_func("/pcp/upstream-refill-and-local-free", test_upstream_refill_and_local_free);
	g_test_add_func("/pcp/batch-free-locks-once", test_batch_free_locks_once);
	g_test_add_func("/pcp_buddy/remote-free-routes-to-owner", test_remote_free_routes_to_owner);
	g_test_add_func("/pcp/bulk-work-under-zone-lock", test_bulk_work_under_zone_lock);
	g_test_add_func("/pcp_buddy/drain-merges-before-zone-lock",
			test_drain_merges_before_zone_lock);
	g_test_add_func("/pcp_buddy/phase0-recovers-drained-block",
			test_phase0_recovers_drained_block);
	g_test_add_func("/pcp_buddy/dead-cpu-frees-go-to-zone", test_dead_cpu_frees_go_to_zone);
	g_test_add_func("/pcp/decay", test_decay);
	g_test_add_func("/pcp/decay-count-bound", test_decay_count_bound);
	g_test_add_func("/pcp/free-grows-high", test_free_grows_high);
	g_test_add_func("/pcp/free-high-order-batch", test_free_high_order_batch);
	g_test_add_func("/pcp/below-high-shrinks", test_below_high_shrinks);
	g_test_add_func("/pcp/reclaim-active-shrinks", test_reclaim_active_shrinks);
	g_test_add_func("/pcp/free-trylock-fails", test_free_trylock_fails);
	g_test_add_func("/swap/lru-add-batch-of-31", test_lru_add_batch_of_31);
	g_test_add_func("/pcp/alloc-trylock-fails", test_alloc_trylock_fails);
	g_test_add_func("/pcp/drain-zone-pages", test_drain_zone_pages);
	return g_test_run();
}
