/* The invariant checker's self-test: every check of check_invariants()
 * (models/invariants.c, models/pcp_check.c) fires on a corruption made for
 * it, and its message says what broke.  The tests that call
 * assert_invariants() prove nothing about a check that cannot fire.
 * Three machines: "plain" (one 128 MiB node, upstream: DMA32 is pfns
 * 4096-32767, 28 free order-10 movable blocks), "pcp" (the 8 GiB test
 * preset, per-cpu pageblock buddy, CPU 0 owning one pageblock whose 512
 * pages sit on its pageset) and "spb" (one 6 GiB node, superpageblocks:
 * ZONE_NORMAL is pfns 0x100000-0x17ffff, two superpageblocks, all free). */
#include "helpers.h"
#include "models/pcp.h"
#include "models/superpageblock.h"
#include "models/superpageblock_internal.h"

enum kind { PLAIN, PCP, SPB };

struct corruption {
	const char *name;
	enum kind kind;
	void (*corrupt)(struct machine *m);
	const char *message;    /* a part of the report line that names the check */
	unsigned others;        /* other violations the corruption cannot avoid */
};

static struct zone *zone_of(struct machine *m, enum zone_type idx)
{
	return &m->node_data[0].node_zones[idx];
}

static struct zone *plain_zone(struct machine *m)
{
	return zone_of(m, ZONE_DMA32);
}

static struct pfn_list *movable10(struct zone *z)
{
	return &z->free_area[10].free_list[MIGRATE_MOVABLE];
}

/* The first free order-10 block of DMA32 (plain machine). */
static pfn_t first_block(struct machine *m)
{
	return movable10(plain_zone(m))->head;
}

static struct superpageblock *sb0(struct machine *m)
{
	return &zone_of(m, ZONE_NORMAL)->superpageblocks[0];
}

static struct pfn_list *sb0_movable10(struct machine *m)
{
	return &sb0(m)->free_area[10].free_list[MIGRATE_MOVABLE];
}

static struct per_cpu_pages *pcp0(struct machine *m)
{
	return zone_pcp(zone_of(m, ZONE_NORMAL), 0);
}

/* The first block on CPU 0's pageset: its owned pageblock's head. */
static pfn_t pcp0_block(struct machine *m)
{
	return pcp0(m)->lists[order_to_pindex(m, MIGRATE_MOVABLE, pageblock_order)].head;
}

/* ---- free lists ---- */

static void list_longer_than_count(struct machine *m)
{
	movable10(plain_zone(m))->nr--;
}

static void broken_prev_link(struct machine *m)
{
	struct pfn_list *l = movable10(plain_zone(m));

	*link_prev(&m->mm, l, pfn_list_next(&m->mm, l, l->head)) = 12345;
}

static void list_entry_wrong_order(struct machine *m)
{
	page_set(&m->mm, first_block(m), PG_KIND_BUDDY, 9, 0);
}

/* An order-1 free block at an odd pfn (links of blocks under a pageblock
 * live with their own pfn, so it has its own). */
static void list_entry_misaligned(struct machine *m)
{
	struct zone *z = plain_zone(m);
	pfn_t p = __rmqueue_smallest(z, 10, MIGRATE_MOVABLE);

	mark_allocated(m, p, 0, MIGRATE_MOVABLE);
	page_set(&m->mm, p + 1, PG_KIND_BUDDY, 1, MIGRATE_MOVABLE);
	pfn_list_add(&m->mm, &z->free_area[1].free_list[MIGRATE_MOVABLE], p + 1, false);
	z->free_area[1].nr_free++;
}

/* DMA's first free block moved to DMA32's list. */
static void list_entry_outside_zone(struct machine *m)
{
	struct zone *dma = zone_of(m, ZONE_DMA);
	struct pfn_list *l = movable10(dma);
	pfn_t p = l->head;

	pfn_list_del(&m->mm, l, p);
	pfn_list_add(&m->mm, movable10(plain_zone(m)), p, true);
}

static void list_entry_wrong_type(struct machine *m)
{
	set_pageblock_migratetype(&m->mm, first_block(m), MIGRATE_UNMOVABLE);
}

/* A type outside the names' range is reported, not read past the array. */
static void list_entry_type_out_of_range(struct machine *m)
{
	uint16_t *f = &m->mm.pb_flags[pfn_to_pb(first_block(m))];

	*f = (uint16_t)((*f & ~PB_MIGRATETYPE_MASK) | 7);
}

static void list_entry_other_superpageblock(struct machine *m)
{
	struct superpageblock *sb1 = sb0(m) + 1;
	pfn_t p = sb0_movable10(m)->head;

	pfn_list_del(&m->mm, sb0_movable10(m), p);
	pfn_list_add(&m->mm, &sb1->free_area[10].free_list[MIGRATE_MOVABLE], p, true);
}

static void list_tail_wrong(struct machine *m)
{
	struct pfn_list *l = movable10(plain_zone(m));

	l->tail = l->head;
}

static void list_count_too_high(struct machine *m)
{
	movable10(plain_zone(m))->nr++;
}

static void zone_list_beside_superpageblocks(struct machine *m)
{
	movable10(zone_of(m, ZONE_NORMAL))->head = sb0_movable10(m)->head;
}

static void zone_shadow_count(struct machine *m)
{
	movable10(zone_of(m, ZONE_NORMAL))->nr++;
}

static void area_nr_free(struct machine *m)
{
	plain_zone(m)->free_area[10].nr_free++;
}

static void nr_free_pages_stat(struct machine *m)
{
	plain_zone(m)->vm_stat[NR_FREE_PAGES]++;
}

static void nr_free_highatomic(struct machine *m)
{
	plain_zone(m)->nr_free_highatomic = 5;
}

/* ---- superpageblocks ---- */

/* A pageblock allocated whole, yet flagged all free. */
static void all_free_but_allocated(struct machine *m)
{
	struct zone *z = zone_of(m, ZONE_NORMAL);
	pfn_t p = __rmqueue_smallest(z, pageblock_order, MIGRATE_MOVABLE);
	uint16_t *f = &m->mm.pb_flags[pfn_to_pb(p)];

	mark_allocated(m, p, pageblock_order, MIGRATE_MOVABLE);
	if (*f & PB_has_movable) {
		*f &= (uint16_t)~PB_has_movable;
		sb0(m)->nr_movable--;
	}
	if (!(*f & PB_all_free)) {
		*f |= PB_all_free;
		sb0(m)->nr_free++;
	}
}

static void all_free_with_usage_bits(struct machine *m)
{
	m->mm.pb_flags[pfn_to_pb(sb0(m)->start_pfn)] |= PB_has_movable;
	sb0(m)->nr_movable++;
}

static void sb_counter(struct machine *m)
{
	sb0(m)->nr_movable++;
}

/* A free pageblock loses PB_all_free and the counter follows: counts
 * agree, but the pageblock is now neither free nor of any type. */
static void sb_undercount(struct machine *m)
{
	m->mm.pb_flags[pfn_to_pb(sb0(m)->start_pfn)] &= (uint16_t)~PB_all_free;
	sb0(m)->nr_free--;
}

static void sb_area_nr_free(struct machine *m)
{
	sb0(m)->free_area[10].nr_free++;
}

static void sb_nr_free_pages(struct machine *m)
{
	sb0(m)->nr_free_pages++;
}

static void sb_wrong_zone_list(struct machine *m)
{
	struct zone *z = zone_of(m, ZONE_NORMAL);

	spb_list_del(z, sb0(m));
	spb_list_add_tail(z, &z->spb_isolated, sb0(m));
}

static void sb_listed_without_pageblocks(struct machine *m)
{
	sb0(m)->total_pageblocks = 0;
}

static void sb_list_link(struct machine *m)
{
	sb0(m)[1].list_prev = SPB_NONE;
}

static void sb_list_count(struct machine *m)
{
	zone_of(m, ZONE_NORMAL)->spb_empty.nr++;
}

static void sb_off_every_list(struct machine *m)
{
	spb_list_del(zone_of(m, ZONE_NORMAL), sb0(m));
}

/* ---- the block walk ---- */

static void frame_in_no_block(struct machine *m)
{
	page_clear(&m->mm, first_block(m));
}

/* An order-10 head 512 pages into a free order-10 block. */
static void block_misaligned(struct machine *m)
{
	pfn_t h = first_block(m);

	page_set(&m->mm, h, PG_KIND_BUDDY, 9, 0);
	page_set(&m->mm, h + 512, PG_KIND_BUDDY, 10, 0);
}

static void block_overlap(struct machine *m)
{
	page_set(&m->mm, first_block(m) + 1, PG_KIND_ALLOC, 0, 0);
}

static void pinned_free_block(struct machine *m)
{
	m->mm.flags[first_block(m)].aux |= PG_pinned;
}

/* Two free order-9 halves of one block, side by side on the lists. */
static void buddies_not_merged(struct machine *m)
{
	struct zone *z = plain_zone(m);
	pfn_t p = __rmqueue_smallest(z, 10, MIGRATE_MOVABLE);

	page_set(&m->mm, p, PG_KIND_BUDDY, 9, MIGRATE_MOVABLE);
	pfn_list_add(&m->mm, &z->free_area[9].free_list[MIGRATE_MOVABLE], p, false);
	page_set(&m->mm, p + 512, PG_KIND_BUDDY, 9, MIGRATE_MOVABLE);
	pfn_list_add(&m->mm, &z->free_area[9].free_list[MIGRATE_MOVABLE], p + 512, false);
	z->free_area[9].nr_free += 2;
	account_freepages(z, 1024, MIGRATE_MOVABLE);
}

/* A free block head no list holds. */
static void free_block_off_lists(struct machine *m)
{
	struct zone *z = plain_zone(m);
	pfn_t p = __rmqueue_smallest(z, 10, MIGRATE_MOVABLE);

	page_set(&m->mm, p, PG_KIND_BUDDY, 10, MIGRATE_MOVABLE);
}

/* ---- pageblocks ---- */

static void pageblock_other_zone(struct machine *m)
{
	m->mm.pb_zone[pfn_to_pb(first_block(m))] = ZONE_DMA;
}

/* On an allocated block: a free list's entry would print the type's name. */
static void pageblock_bad_migratetype(struct machine *m)
{
	pfn_t p = __rmqueue_smallest(plain_zone(m), 10, MIGRATE_MOVABLE);
	uint16_t *f = &m->mm.pb_flags[pfn_to_pb(p)];

	mark_allocated(m, p, 10, MIGRATE_MOVABLE);
	*f = (uint16_t)((*f & ~PB_MIGRATETYPE_MASK) | 7);
}

/* ---- per-CPU pagesets ---- */

static void pcp_buddy_flag_off_list(struct machine *m)
{
	pfn_t p = __rmqueue_smallest(zone_of(m, ZONE_NORMAL), 0, MIGRATE_MOVABLE);

	mark_allocated(m, p, 0, MIGRATE_MOVABLE);
	m->mm.flags[p].aux |= PG_pcp_buddy;
}

static void whole_free_block_owned(struct machine *m)
{
	m->mm.pb_cpu[pfn_to_pb(movable10(zone_of(m, ZONE_NORMAL))->head)] = 2;
}

/* The same at exactly pageblock order: the free half of an order-10 block
 * split by taking the other half (the first take is the free half that
 * make()'s 512 pages left). */
static void whole_free_pageblock_owned(struct machine *m)
{
	struct zone *z = zone_of(m, ZONE_NORMAL);
	pfn_t p;

	for (int i = 0; i < 2; i++) {
		p = __rmqueue_smallest(z, pageblock_order, MIGRATE_MOVABLE);
		page_set(&m->mm, p, PG_KIND_ALLOC, pageblock_order, MIGRATE_MOVABLE);
	}
	g_assert_cmpuint(page_order(&m->mm, p ^ (1u << pageblock_order)), ==, pageblock_order);
	m->mm.pb_cpu[pfn_to_pb(p ^ (1u << pageblock_order))] = 2;
}

static void pcp_entry_wrong_type(struct machine *m)
{
	pfn_t b = pcp0_block(m);

	page_set(&m->mm, b, PG_KIND_PCP, pageblock_order, MIGRATE_UNMOVABLE);
}

/* A DMA32 page queued on CPU 0's Normal pageset. */
static void pcp_entry_outside_zone(struct machine *m)
{
	pfn_t p = __rmqueue_smallest(zone_of(m, ZONE_DMA32), 0, MIGRATE_MOVABLE);

	pcp_enqueue(m, pcp0(m), &pcp0(m)->work, p, MIGRATE_MOVABLE, 0, false);
}

static void pcp_buddy_on_wrong_cpu(struct machine *m)
{
	m->mm.pb_cpu[pfn_to_pb(pcp0_block(m))] = 2;
}

static void pcp_list_count(struct machine *m)
{
	pcp0(m)->lists[order_to_pindex(m, MIGRATE_MOVABLE, pageblock_order)].nr++;
}

static void pcp_count(struct machine *m)
{
	pcp0(m)->count++;
}

/* A pageblock listed on CPU 0's owned_blocks that CPU 0 does not own. */
static void owned_blocks_not_owned(struct machine *m)
{
	uint32_t pb = pfn_to_pb(movable10(zone_of(m, ZONE_NORMAL))->head);

	m->mm.pb_cpu_next[pb] = UINT32_MAX;
	m->mm.pb_flags[pb] |= PB_on_cpu_list;
	pcp0(m)->owned_blocks.head = pcp0(m)->owned_blocks.tail = pb;
}

static void on_cpu_list_flag_unlisted(struct machine *m)
{
	m->mm.pb_flags[pfn_to_pb(movable10(zone_of(m, ZONE_NORMAL))->head)] |= PB_on_cpu_list;
}

/* A per-CPU block no pageset lists. */
static void pcp_block_off_lists(struct machine *m)
{
	pfn_t p = __rmqueue_smallest(zone_of(m, ZONE_NORMAL), 0, MIGRATE_MOVABLE);

	page_set(&m->mm, p, PG_KIND_PCP, 0, MIGRATE_MOVABLE);
}

static const struct corruption corruptions[] = {
	{ "list-longer-than-count", PLAIN, list_longer_than_count, "has more than its count", 2 },
	{ "broken-prev-link", PLAIN, broken_prev_link, "broken prev link", 0 },
	{ "list-entry-wrong-order", PLAIN, list_entry_wrong_order, "is not a free order-10 block", 20 },
	{ "list-entry-misaligned", PLAIN, list_entry_misaligned,
	  "order-1 block at pfn 0x1001 is misaligned\n", 20 },
	{ "list-entry-outside-zone", PLAIN, list_entry_outside_zone, "is outside the zone", 6 },
	{ "list-entry-wrong-type", PLAIN, list_entry_wrong_type,
	  "on the Movable list but its pageblock is Unmovable", 0 },
	{ "list-entry-type-out-of-range", PLAIN, list_entry_type_out_of_range,
	  "on the Movable list but its pageblock is (out of range)", 2 },
	{ "list-entry-other-superpageblock", SPB, list_entry_other_superpageblock,
	  "pfn 0x100000 is on the lists of superpageblock at 0x140000", 4 },
	{ "list-tail-wrong", PLAIN, list_tail_wrong, "Movable list tail", 0 },
	{ "list-count-too-high", PLAIN, list_count_too_high,
	  "order-10 Movable list holds 28 blocks, count says 29", 0 },
	{ "zone-list-beside-superpageblocks", SPB, zone_list_beside_superpageblocks,
	  "zone order-10 Movable list is in use beside superpageblocks", 0 },
	{ "zone-shadow-count", SPB, zone_shadow_count, "zone order-10 Movable shadow count", 0 },
	{ "area-nr-free", PLAIN, area_nr_free, "free_area[10].nr_free is 29, lists hold 28", 0 },
	{ "nr-free-pages", PLAIN, nr_free_pages_stat, "NR_FREE_PAGES is", 0 },
	{ "nr-free-highatomic", PLAIN, nr_free_highatomic,
	  "nr_free_highatomic is 5, HighAtomic lists hold 0", 0 },
	{ "sb-all-free-but-allocated", SPB, all_free_but_allocated,
	  "is PB_all_free but not in a free block", 0 },
	{ "sb-all-free-with-usage-bits", SPB, all_free_with_usage_bits,
	  "is PB_all_free with usage bits", 0 },
	{ "sb-counter", SPB, sb_counter, "sb[0] counts", 0 },
	{ "sb-undercount", SPB, sb_undercount, "sb[0] types and free undercount", 1 },
	{ "sb-area-nr-free", SPB, sb_area_nr_free, "sb[0] free_area[10].nr_free", 0 },
	{ "sb-nr-free-pages", SPB, sb_nr_free_pages, "sb[0] nr_free_pages", 0 },
	{ "sb-wrong-zone-list", SPB, sb_wrong_zone_list, "sb[0] is on the wrong zone list", 0 },
	{ "sb-listed-without-pageblocks", SPB, sb_listed_without_pageblocks,
	  "sb[0] has no pageblocks but is listed", 2 },
	{ "sb-list-link", SPB, sb_list_link, "zone superpageblock list 0 is corrupt at sb[1]", 0 },
	{ "sb-list-count", SPB, sb_list_count, "zone superpageblock list 0 holds 2, count 3", 0 },
	{ "sb-off-every-list", SPB, sb_off_every_list,
	  "1 superpageblocks on zone lists, 2 have pageblocks", 1 },
	{ "frame-in-no-block", PLAIN, frame_in_no_block, "belongs to no block", 20 },
	{ "block-misaligned", PLAIN, block_misaligned, "is misaligned or crosses the zone end", 20 },
	{ "block-overlap", PLAIN, block_overlap, "is itself a block head (overlap)", 0 },
	{ "pinned-free-block", PLAIN, pinned_free_block, "is pinned but not allocated", 0 },
	{ "buddies-not-merged", PLAIN, buddies_not_merged, "did not merge", 0 },
	{ "free-block-off-lists", PLAIN, free_block_off_lists,
	  "DMA32: 28 free blocks in memory, 27 on free lists", 0 },
	{ "pageblock-other-zone", PLAIN, pageblock_other_zone, "is recorded in another zone", 0 },
	{ "pageblock-bad-migratetype", PLAIN, pageblock_bad_migratetype, "has migratetype 7", 1 },
	/* Fires only with the check above: every pageblock of the span is
	 * counted unless its type is out of range. */
	{ "pageblock-types-add-up", PLAIN, pageblock_bad_migratetype,
	  "pageblock types add up to 55, the zone has 56 pageblocks", 1 },
	{ "pcp-buddy-flag-off-list", PCP, pcp_buddy_flag_off_list,
	  "is PagePCPBuddy but not on a per-CPU list", 0 },
	{ "whole-free-block-owned", PCP, whole_free_block_owned, "is still owned by a CPU", 0 },
	{ "whole-free-pageblock-owned", PCP, whole_free_pageblock_owned,
	  "is still owned by a CPU", 0 },
	{ "pcp-entry-wrong-type", PCP, pcp_entry_wrong_type, "is not a per-CPU block of order 9", 0 },
	{ "pcp-entry-outside-zone", PCP, pcp_entry_outside_zone,
	  "on CPU 0's pageset is outside the zone", 2 },
	{ "pcp-buddy-on-wrong-cpu", PCP, pcp_buddy_on_wrong_cpu, "but its block belongs to CPU 1", 0 },
	{ "pcp-list-count", PCP, pcp_list_count, "holds 1 blocks, count says 2", 0 },
	{ "pcp-count", PCP, pcp_count, "CPU 0 pcp->count is 513, its lists hold 512 pages", 0 },
	{ "owned-blocks-not-owned", PCP, owned_blocks_not_owned,
	  "on CPU 0's owned_blocks is owned by -1", 0 },
	{ "on-cpu-list-flag-unlisted", PCP, on_cpu_list_flag_unlisted,
	  "1 pageblocks marked as on an owned_blocks list, 0 listed", 0 },
	{ "pcp-block-off-lists", PCP, pcp_block_off_lists,
	  "2 per-CPU blocks in memory, 1 on per-CPU lists", 0 },
};

static struct machine *make(enum kind kind)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	switch (kind) {
	case PLAIN:
		topology_uniform(&t, 1, 1, 4, 128 * MiB);
		break;
	case SPB:
		topology_uniform(&t, 1, 1, 4, 6 * GiB);
		p.policy = POLICY_SPB;
		break;
	case PCP:
		topology_preset(&t, "test");
		p.policy = POLICY_PCP_BUDDY;
		break;
	}
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	if (kind == PCP) {
		struct mm_ctx c = mm_ctx_null(0);
		struct zone *z = zone_of(m, ZONE_NORMAL);

		g_assert_cmpuint(rmqueue_bulk(&c, z, 0, 512, MIGRATE_MOVABLE, 0, pcp0(m)), ==, 512);
		g_assert_true(PagePCPBuddy(m, pcp0_block(m)));
	}
	return m;
}

static void test_corruption(gconstpointer data)
{
	const struct corruption *c = data;
	struct machine *m = make(c->kind);

	assert_invariants(m);
	c->corrupt(m);
	char *report = check_invariants(m);
	g_assert_nonnull(report);
	if (!strstr(report, c->message))
		g_error("%s: no \"%s\" in the report:\n%s", c->name, c->message, report);
	/* A corruption made for one check trips that check alone, unless it
	 * cannot help breaking other rules too (others says how many). */
	unsigned lines = 0;
	for (const char *q = report; (q = strchr(q, '\n')); q++)
		lines++;
	if (lines != 1 + c->others)
		g_error("%s: %u violations, expected 1 + %u:\n%s", c->name, lines, c->others, report);
	g_free(report);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(corruptions); i++) {
		char *path = g_strdup_printf("/invariants/%s", corruptions[i].name);

		g_test_add_data_func(path, &corruptions[i], test_corruption);
		g_free(path);
	}
	return g_test_run();
}
