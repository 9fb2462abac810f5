#include "superpageblock_internal.h"
#include "buddy.h"
#include "pcp.h"
#include "procfs.h"

#include <string.h>

const char *const sb_category_names[__NR_SB_CATEGORIES] = { "clean", "tainted" };
const char *const sb_fullness_names[__NR_SB_FULLNESS] = {
	"full", "75pct", "50pct", "25pct", "almost_empty",
};
const char *const spb_walk_names[NR_SPB_WALKS] = {
	"pass1", "pass2", "pass3", "pass4", "preferred", "fallback", "contig", "evacuate",
};

/* spb_get_category(): tainted as soon as one pageblock holds non-movable
 * memory or is still reserved. */
enum sb_category spb_get_category(const struct superpageblock *sb)
{
	if (sb->nr_unmovable || sb->nr_reclaimable || sb->nr_reserved)
		return SB_TAINTED;
	return SB_CLEAN;
}

/* sb_get_fullness(): quarters of a whole superpageblock, even for a
 * partial one; tainted ones count only their non-movable pageblocks. */
enum sb_fullness sb_get_fullness(const struct superpageblock *sb)
{
	unsigned total = sb->total_pageblocks, q = SUPERPAGEBLOCK_NR_PAGEBLOCKS / 4, used;

	if (total == 0)
		return SB_FULL;
	if (spb_get_category(sb) == SB_TAINTED)
		used = (unsigned)sb->nr_unmovable + sb->nr_reclaimable;
	else
		used = total - sb->nr_free;
	if (used >= total)
		return SB_FULL;
	if (used >= 3 * q)
		return SB_FULL_75;
	if (used >= 2 * q)
		return SB_FULL_50;
	if (used >= q)
		return SB_FULL_25;
	return SB_ALMOST_EMPTY;
}

static uint32_t spb_index(struct zone *zone, const struct superpageblock *sb)
{
	return (uint32_t)(sb - zone->superpageblocks);
}

void spb_list_add_tail(struct zone *zone, struct spb_list *l, struct superpageblock *sb)
{
	uint32_t i = spb_index(zone, sb);

	sb->list_next = SPB_NONE;
	sb->list_prev = l->tail;
	if (l->tail == SPB_NONE)
		l->head = i;
	else
		zone->superpageblocks[l->tail].list_next = i;
	l->tail = i;
	l->nr++;
	sb->on_list = l;
}

void spb_list_del(struct zone *zone, struct superpageblock *sb)
{
	struct spb_list *l = sb->on_list;

	if (!l)
		return;
	if (sb->list_prev == SPB_NONE)
		l->head = sb->list_next;
	else
		zone->superpageblocks[sb->list_prev].list_next = sb->list_next;
	if (sb->list_next == SPB_NONE)
		l->tail = sb->list_prev;
	else
		zone->superpageblocks[sb->list_next].list_prev = sb->list_prev;
	l->nr--;
	sb->on_list = NULL;
	sb->list_next = sb->list_prev = SPB_NONE;
}

struct spb_list *spb_target_list(struct zone *zone, const struct superpageblock *sb)
{
	if (sb->contig_allocated)
		return &zone->spb_isolated;
	if (sb->nr_free == sb->total_pageblocks)
		return &zone->spb_empty;
	return &zone->spb_lists[spb_get_category(sb)][sb_get_fullness(sb)];
}

bool spb_needs_defrag(const struct superpageblock *sb)
{
	uint64_t now = sb->zone->machine->now_ns;

	/* Back-off: a pass that freed nothing is not repeated soon unless
	 * a pageblock's worth of pages was freed since. */
	if (sb->defrag_last_no_progress_ns &&
	    now < sb->defrag_last_no_progress_ns +
		  machine_period_ns(sb->zone->machine, SPB_DEFRAG_NOOP_COOLDOWN_NS) &&
	    sb->nr_free_pages < sb->defrag_last_no_progress_pages + pageblock_nr_pages)
		return false;
	/* Tainted: keep the reserve of free pageblocks for non-movable claims. */
	if (spb_get_category(sb) == SB_TAINTED)
		return sb->nr_movable > 0 && sb->nr_free < SPB_TAINTED_RESERVE;
	/* Clean: free pages scattered, with room inside to gather them. */
	return sb->nr_free < 2 && sb->nr_free_pages >= SPB_DEFRAG_FREE_PAGES_TARGET;
}

bool spb_defrag_done(const struct superpageblock *sb)
{
	if (spb_get_category(sb) == SB_TAINTED)
		return !sb->nr_movable || sb->nr_free >= SPB_TAINTED_RESERVE;
	return sb->nr_free >= 2 || sb->nr_free_pages < SPB_DEFRAG_FREE_PAGES_TARGET;
}

/* spb_maybe_start_defrag(): queue sb on its node's kevacuate queue (the
 * kernel's irq_work then queue_work), once at a time. */
static void spb_maybe_start_defrag(struct superpageblock *sb)
{
	struct evacuate_wq *wq = sb->zone->machine->node_data[sb->zone->node].evacuate_wq;

	if (!wq || sb->defrag_active || !spb_needs_defrag(sb))
		return;
	sb->defrag_active = true;
	g_queue_push_tail(&wq->queue, spb_queue_key(sb));
}

/* spb_update_list(): always to the tail, which rotates a bucket; a
 * superpageblock on a category list may need the defrag worker. */
static void spb_update_list(struct superpageblock *sb)
{
	struct zone *zone = sb->zone;
	struct spb_list *l;

	if (sb->total_pageblocks == 0)
		return;
	spb_list_del(zone, sb);
	l = spb_target_list(zone, sb);
	spb_list_add_tail(zone, l, sb);
	spb_relinked(zone, sb);
	if (l != &zone->spb_isolated && l != &zone->spb_empty)
		spb_maybe_start_defrag(sb);
}

/* migratetype_to_has_bit(): 0 for types that leave no mark. */
static uint16_t migratetype_to_has_bit(int mt)
{
	switch (mt) {
	case MIGRATE_UNMOVABLE:
	case MIGRATE_HIGHATOMIC:
		return PB_has_unmovable;
	case MIGRATE_RECLAIMABLE:
		return PB_has_reclaimable;
	case MIGRATE_MOVABLE:
	case MIGRATE_CMA:
		return PB_has_movable;
	default:
		return 0;
	}
}

static uint16_t *spb_counter(struct superpageblock *sb, uint16_t bit)
{
	switch (bit) {
	case PB_has_unmovable:
		return &sb->nr_unmovable;
	case PB_has_reclaimable:
		return &sb->nr_reclaimable;
	default:
		return &sb->nr_movable;
	}
}

/* __spb_set_has_type(): the pageblock at pfn has handed out mt; only the
 * first mark of each kind counts. */
static void __spb_set_has_type(struct zone *zone, pfn_t pfn, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);
	uint16_t bit = migratetype_to_has_bit(mt);
	uint16_t *f = &zone->machine->mm.pb_flags[pfn_to_pb(pfn)];

	if (!sb || !bit || (*f & bit))
		return;
	*f |= bit;
	(*spb_counter(sb, bit))++;
}

/* __spb_clear_has_type(): undoes __spb_set_has_type() for mt. */
static void __spb_clear_has_type(struct zone *zone, pfn_t pfn, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);
	uint16_t bit = migratetype_to_has_bit(mt);
	uint16_t *f = &zone->machine->mm.pb_flags[pfn_to_pb(pfn)];
	uint16_t *c;

	if (!sb || !bit || !(*f & bit))
		return;
	*f &= (uint16_t)~bit;
	c = spb_counter(sb, bit);
	if (*c)
		(*c)--;
}

/* superpageblock_pb_now_free(): one more wholly free pageblock, which may
 * move the superpageblock to another zone list. */
static void superpageblock_pb_now_free(struct zone *zone, pfn_t pfn)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	if (!sb)
		return;
	sb->nr_free++;
	spb_update_list(sb);
}

/* superpageblock_pb_now_used(): one wholly free pageblock fewer, likewise. */
static void superpageblock_pb_now_used(struct zone *zone, pfn_t pfn)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	if (!sb)
		return;
	if (sb->nr_free)
		sb->nr_free--;
	spb_update_list(sb);
}

/* mark_pageblock_free(): the pageblock at pfn is wholly free again: no
 * usage bits, no CPU owner; a non-movable label (and *mt) turns MOVABLE. */
static void mark_pageblock_free(struct zone *zone, pfn_t pfn, int *mt)
{
	struct memmap *mm = &zone->machine->mm;
	uint16_t *f = &mm->pb_flags[pfn_to_pb(pfn)];

	clear_pcpblock_owner(zone->machine, pfn);
	__spb_clear_has_type(zone, pfn, MIGRATE_UNMOVABLE);
	__spb_clear_has_type(zone, pfn, MIGRATE_RECLAIMABLE);
	__spb_clear_has_type(zone, pfn, MIGRATE_MOVABLE);
	if (!(*f & PB_all_free)) {
		*f |= PB_all_free;
		superpageblock_pb_now_free(zone, pfn);
	}
	if (*mt == MIGRATE_UNMOVABLE || *mt == MIGRATE_RECLAIMABLE || *mt == MIGRATE_HIGHATOMIC) {
		set_pageblock_migratetype(mm, pfn, MIGRATE_MOVABLE);
		*mt = MIGRATE_MOVABLE;
	}
}

/* mark_pageblock_used(): the pageblock at pfn hands out mt, so it is no
 * longer wholly free. */
static void mark_pageblock_used(struct zone *zone, pfn_t pfn, int mt)
{
	uint16_t *f = &zone->machine->mm.pb_flags[pfn_to_pb(pfn)];

	if (*f & PB_all_free) {
		*f &= (uint16_t)~PB_all_free;
		superpageblock_pb_now_used(zone, pfn);
	}
	__spb_set_has_type(zone, pfn, mt);
}

/* Whether the pageblock at pfn lies inside one free buddy block of
 * pageblock order or more. */
static bool pageblock_in_free_block(struct memmap *mm, pfn_t pfn)
{
	pfn_t head = pfn;
	unsigned o = pageblock_order;

	while (!PageBuddy(mm, head) && o < MAX_PAGE_ORDER) {
		o++;
		head &= ~(((pfn_t)1 << o) - 1);
	}
	return PageBuddy(mm, head) && page_order(mm, head) >= pageblock_order &&
	       head + ((pfn_t)1 << page_order(mm, head)) > pfn;
}

void superpageblock_clear_has_movable(struct zone *zone, pfn_t pfn)
{
	struct memmap *mm = &zone->machine->mm;
	pfn_t start = pfn & ~(pageblock_nr_pages - 1);

	if (!zone_has_spb(zone))
		return;
	for (pfn_t p = start; p < start + pageblock_nr_pages; p++) {
		if (!PageBuddy(mm, p))
			continue;
		if (page_order(mm, p) < pageblock_order &&
		    get_pfnblock_migratetype(mm, p) == MIGRATE_MOVABLE)
			return;
		p += (1u << page_order(mm, p)) - 1;
	}
	/* A pageblock inside one free block of pageblock order or more is
	 * wholly free: page_del_and_expand marked it used when it split a
	 * larger block, and expand gave it back whole.  The series clears
	 * only its PB_has_movable, leaving it with no bit at all (debugfs
	 * invariant 1 then undercounts); the model marks it free. */
	if (pageblock_in_free_block(mm, start)) {
		/* Its label stays, as the free block stays on its list. */
		int keep = MIGRATE_MOVABLE;

		mark_pageblock_free(zone, start, &keep);
		spb_update_list(pfn_to_superpageblock(zone, start));
		return;
	}
	/* Neither category nor fullness counts movable pageblocks: the
	 * superpageblock stays on its list. */
	__spb_clear_has_type(zone, start, MIGRATE_MOVABLE);
}

void superpageblock_contig_mark(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
				bool allocated)
{
	struct zone *zone = pfn_zone(m, start);
	uint64_t pfn = ((uint64_t)start + SUPERPAGEBLOCK_NR_PAGES - 1) &
		       ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);

	if (!zone_has_spb(zone) || end - start < SUPERPAGEBLOCK_NR_PAGES)
		return;
	zone_lock(ctx, zone, SITE_OTHER);
	for (; pfn + SUPERPAGEBLOCK_NR_PAGES <= end; pfn += SUPERPAGEBLOCK_NR_PAGES) {
		struct superpageblock *sb = pfn_to_superpageblock(zone, (pfn_t)pfn);

		if (!sb)
			continue;
		sb->contig_allocated = allocated;
		spb_update_list(sb);
	}
	zone_unlock(ctx, zone);
}

void init_pageblock_migratetype(struct zone *zone, pfn_t pfn, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	set_pageblock_migratetype(&zone->machine->mm, pfn, mt);
	if (!sb)
		return;
	if (sb->nr_reserved)
		sb->nr_reserved--;
	__spb_set_has_type(zone, pfn, mt);
	spb_update_list(sb);
}

static void spb_list_init(struct spb_list *l)
{
	l->head = l->tail = SPB_NONE;
	l->nr = 0;
}

/* init_one_superpageblock(): all of its slots inside the zone reserved
 * until init_pageblock_migratetype() reaches them. */
static void init_one_superpageblock(struct zone *zone, struct superpageblock *sb, uint64_t s)
{
	pfn_t lo, hi;

	memset(sb, 0, sizeof(*sb));
	sb->zone = zone;
	sb->start_pfn = (pfn_t)s;
	sb->list_next = sb->list_prev = SPB_NONE;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			pfn_list_init(&sb->free_area[o].free_list[mt], (unsigned)o);
	sb->total_pageblocks = sb->nr_reserved = spb_span(zone, s, &lo, &hi);
}

/* The superpageblock-aligned cover of the zone span: its first pfn, and
 * the number of superpageblocks in it. */
static uint64_t zone_spb_cover(const struct zone *zone, uint32_t *nr)
{
	uint64_t base = zone->zone_start_pfn & ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);
	uint64_t top = ((uint64_t)zone_end_pfn(zone) + SUPERPAGEBLOCK_NR_PAGES - 1) &
		       ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);

	*nr = (uint32_t)((top - base) >> SUPERPAGEBLOCK_ORDER);
	return base;
}

/* setup_superpageblocks(): the array covering the zone span, every
 * superpageblock with slots starting on the tainted/full list (its slots
 * are reserved) until init_pageblock_migratetype() reaches them. */
void setup_superpageblocks(struct zone *zone)
{
	uint64_t base = zone_spb_cover(zone, &zone->nr_superpageblocks);
	struct spb_list *lists[NR_ZONE_SPB_LISTS];

	for (unsigned k = 0, nl = zone_spb_lists(zone, lists); k < nl; k++)
		spb_list_init(lists[k]);
	zone->superpageblock_base_pfn = (pfn_t)base;
	zone->superpageblocks = g_new0(struct superpageblock, zone->nr_superpageblocks);
	zone->ops = &spb_zone_ops;
	for (uint32_t i = 0; i < zone->nr_superpageblocks; i++) {
		struct superpageblock *sb = &zone->superpageblocks[i];

		init_one_superpageblock(zone, sb, base + ((uint64_t)i << SUPERPAGEBLOCK_ORDER));
		if (sb->total_pageblocks)
			spb_list_add_tail(zone, &zone->spb_lists[SB_TAINTED][SB_FULL], sb);
	}
}

static uint32_t shift_index(uint32_t i, int64_t off)
{
	return i == SPB_NONE ? SPB_NONE : (uint32_t)((int64_t)i + off);
}

/* The zone span grew into sb (the new slots are reserved) or shrank out
 * of it: offline_pages() hands over only wholly free pageblocks, so the
 * slots that left were free ones.  Whether the total shrank. */
static bool spb_resize_total(struct superpageblock *sb)
{
	pfn_t lo, hi;
	uint16_t pbs = spb_span(sb->zone, sb->start_pfn, &lo, &hi), was = sb->total_pageblocks;

	if (pbs > was) {
		sb->nr_reserved += pbs - was;
	} else if (pbs < was) {
		g_assert(sb->nr_free >= was - pbs);
		sb->nr_free -= was - pbs;
	}
	sb->total_pageblocks = pbs;
	return pbs < was;
}

/* A superpageblock the span left entirely: off its zone list and its
 * node's defrag queue, with no page left on its free lists. */
static void spb_remove_offline(struct zone *zone, struct superpageblock *sb)
{
	struct evacuate_wq *wq = zone->machine->node_data[zone->node].evacuate_wq;

	g_assert(sb->nr_free_pages == 0);
	spb_list_del(zone, sb);
	if (wq)
		g_queue_remove(&wq->queue, spb_queue_key(sb));
}

/* resize_zone_superpageblocks(): a new array covering the span after it
 * grew (seed 002) or shrank (memory hot-remove, which the series does not
 * handle: its array keeps covering offlined memory).  Superpageblocks that
 * stay keep their free lists and list positions (their links are indices,
 * shifted if the base moved), new slots start reserved, those the span
 * left go off their lists, and one the span grew into or shrank out of
 * gets its total and reserve (grown) or free count (shrunk) updated.  The
 * tip returns early when base and count are unchanged, leaving a
 * superpageblock the span grew inside with a stale total; the model
 * updates that total and reserve (and only skips the reallocation), so
 * counters stay within the total. */
void resize_zone_superpageblocks(struct zone *zone)
{
	uint32_t nr;
	uint64_t base = zone_spb_cover(zone, &nr);
	int64_t off = ((int64_t)zone->superpageblock_base_pfn - (int64_t)base) >> SUPERPAGEBLOCK_ORDER;
	struct superpageblock *old = zone->superpageblocks, *sbs;
	uint32_t old_nr = zone->nr_superpageblocks;
	struct spb_list *lists[NR_ZONE_SPB_LISTS];
	unsigned nl = zone_spb_lists(zone, lists);

	if (!zone->spanned_pages || !old)
		return;
	if (base == zone->superpageblock_base_pfn && nr == old_nr) {
		struct superpageblock *top = &old[old_nr - 1];

		if (spb_resize_total(top))
			spb_update_list(top);
		return;
	}
	for (uint32_t i = 0; i < old_nr; i++)
		if ((int64_t)i + off < 0 || (int64_t)i + off >= nr)
			spb_remove_offline(zone, &old[i]);
	sbs = g_new0(struct superpageblock, nr);
	for (uint32_t i = 0; i < nr; i++) {
		if ((int64_t)i >= off && (int64_t)i < off + old_nr)
			continue;
		init_one_superpageblock(zone, &sbs[i], base + ((uint64_t)i << SUPERPAGEBLOCK_ORDER));
	}
	for (uint32_t i = 0; i < old_nr; i++) {
		struct superpageblock *sb;

		if ((int64_t)i + off < 0 || (int64_t)i + off >= nr)
			continue;
		sb = &sbs[(int64_t)i + off];
		*sb = old[i];
		sb->list_next = shift_index(sb->list_next, off);
		sb->list_prev = shift_index(sb->list_prev, off);
	}
	for (unsigned k = 0; k < nl; k++) {
		lists[k]->head = shift_index(lists[k]->head, off);
		lists[k]->tail = shift_index(lists[k]->tail, off);
	}
	zone->superpageblocks = sbs;
	zone->nr_superpageblocks = nr;
	zone->superpageblock_base_pfn = (pfn_t)base;
	g_free(old);
	for (uint32_t i = 0; i < nr; i++) {
		if ((int64_t)i >= off && (int64_t)i < off + old_nr) {
			if (spb_resize_total(&sbs[i]))
				spb_update_list(&sbs[i]);
		} else if (sbs[i].total_pageblocks) {
			/* New slots go on the tainted/full list, as at boot. */
			spb_list_add_tail(zone, &zone->spb_lists[SB_TAINTED][SB_FULL], &sbs[i]);
		}
	}
}

void free_superpageblocks(struct zone *zone)
{
	g_free(zone->superpageblocks);
	zone->superpageblocks = NULL;
	zone->nr_superpageblocks = 0;
	zone->ops = &buddy_zone_ops;
}

/* The free lists (zone_ops): a free block sits on its superpageblock's
 * list (the array covers the zone span, so every block of the zone has
 * one) and the zone's free_list[mt].nr only counts it. */
static void spb_add_to_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt, bool tail)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	/* Its first free page puts it on the what-if index's list. */
	if (G_UNLIKELY(zone->machine->spb_walk_indexed) && !sb->nr_free_pages)
		zone->work.spb_moves++;
	pfn_list_add(&zone->machine->mm, &sb->free_area[order].free_list[mt], pfn, tail);
	sb->free_area[order].nr_free++;
	sb->nr_free_pages += 1UL << order;
	zone->free_area[order].free_list[mt].nr++;
}

static void spb_del_from_free_list(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	pfn_list_del(&zone->machine->mm, &sb->free_area[order].free_list[mt], pfn);
	sb->free_area[order].nr_free--;
	sb->nr_free_pages -= 1UL << order;
	zone->free_area[order].free_list[mt].nr--;
	/* Its last one takes it off. */
	if (G_UNLIKELY(zone->machine->spb_walk_indexed) && !sb->nr_free_pages)
		zone->work.spb_moves++;
}

/* To the tail of the new type's list. */
static void spb_move_to_free_list(struct zone *zone, pfn_t pfn, unsigned order, int old_mt,
				  int new_mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);
	struct free_area *area = &zone->free_area[order];

	pfn_list_del(&zone->machine->mm, &sb->free_area[order].free_list[old_mt], pfn);
	pfn_list_add(&zone->machine->mm, &sb->free_area[order].free_list[new_mt], pfn, true);
	area->free_list[old_mt].nr--;
	area->free_list[new_mt].nr++;
}

/* __free_one_page()'s pageblock steps.  A block of pageblock_order or more
 * coming back: each of its pageblocks drops its usage bits and CPU owner;
 * returns the type the block is freed as (MOVABLE unless CMA or
 * isolated). */
static int spb_free_pageblocks(struct zone *zone, pfn_t pfn, unsigned order, int mt)
{
	struct memmap *mm = &zone->machine->mm;

	/* Each pageblock is judged by its own type; the block as a whole
	 * goes back MOVABLE. */
	for (pfn_t p = pfn; p < pfn + (1u << order); p += pageblock_nr_pages) {
		int pmt = get_pfnblock_migratetype(mm, p);

		mark_pageblock_free(zone, p, &pmt);
	}
	if (mt != MIGRATE_CMA && mt != MIGRATE_ISOLATE)
		mt = MIGRATE_MOVABLE;
	return mt;
}

/* Merging made the pageblock at pfn wholly free: as above, and a block
 * freed as non-movable turns MOVABLE, its orig_order pages moving in the
 * free counts; returns the type the merge goes on with. */
static int spb_merged_pageblock_free(struct zone *zone, pfn_t pfn, int mt, unsigned orig_order)
{
	int old_mt = mt;

	mark_pageblock_free(zone, pfn, &mt);
	if (mt != old_mt) {
		account_freepages(zone, -(1L << orig_order), old_mt);
		account_freepages(zone, 1L << orig_order, mt);
	}
	return mt;
}

/* page_del_and_expand()'s step: the pageblocks a 2^high block at pfn
 * covers are in use (all of them, even those whose halves stay free) and
 * have handed out mt. */
static void spb_mark_taken(struct zone *zone, pfn_t pfn, unsigned high, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	if (high >= pageblock_order) {
		for (pfn_t p = pfn; p < pfn + (1u << high); p += pageblock_nr_pages)
			mark_pageblock_used(zone, p, mt);
	} else {
		__spb_set_has_type(zone, pfn, mt);
	}
	spb_update_list(sb);
}

static pfn_t sb_take(struct zone *zone, struct superpageblock *sb, unsigned order,
		     unsigned from, int mt)
{
	return rmqueue_first_free(zone, sb->free_area, order, from, mt);
}

pfn_t __rmqueue_from_sb(struct zone *zone, struct superpageblock *sb, unsigned order, int mt)
{
	return sb_take(zone, sb, order, order, mt);
}

/* claim_whole_block() at the series tip: the pageblocks are in use by
 * new_mt before they change type whole. */
static pfn_t claim_whole_block_spb(struct zone *zone, pfn_t pfn, unsigned current_order,
				   unsigned order, int new_mt, int old_mt)
{
	spb_mark_taken(zone, pfn, current_order, new_mt);
	return claim_whole_block(zone, pfn, current_order, order, new_mt, old_mt);
}

/* The series tip's four passes, each over superpageblocks in list order. */
static pfn_t __rmqueue_smallest_spb(struct zone *zone, unsigned order, int mt)
{
	bool movable = mt == MIGRATE_MOVABLE;
	int pref = movable ? SB_CLEAN : SB_TAINTED;
	unsigned big = order > pageblock_order ? order : pageblock_order;
	pfn_t pfn;

	/* Pass 1: the preferred category, fullest first. */
	for_each_spb_in_category(zone, SPB_WALK_PASS1, pref, sb) {
		if (!sb->nr_free_pages)
			continue;
		pfn = sb_take(zone, sb, order, order, mt);
		if (pfn != PFN_NONE)
			return pfn;
	}
	/* Pass 2: non-movable work claims free pageblocks of tainted ones. */
	if (!movable && mt != MIGRATE_CMA) {
		for_each_spb_in_category(zone, SPB_WALK_PASS2, SB_TAINTED, sb) {
			if (!sb->nr_free)
				continue;
			for (unsigned o = big; o < NR_PAGE_ORDERS; o++) {
				pfn = sb->free_area[o].free_list[MIGRATE_MOVABLE].head;
				if (pfn == PFN_NONE)
					continue;
				int bmt = get_pfnblock_migratetype(&zone->machine->mm, pfn);

				if (bmt == MIGRATE_ISOLATE || bmt == MIGRATE_CMA)
					continue;
				return claim_whole_block_spb(zone, pfn, o, order, mt, MIGRATE_MOVABLE);
			}
		}
	}
	/* Pass 3: whole pageblocks of empty superpageblocks. */
	for_each_spb_on(zone, SPB_WALK_PASS3, &zone->spb_empty, sb) {
		if (!sb->nr_free_pages)
			continue;
		pfn = sb_take(zone, sb, order, big, mt);
		if (pfn != PFN_NONE)
			return pfn;
	}
	/* Pass 4: movable work may use tainted ones above their reserve. */
	if (movable) {
		for_each_spb_in_category(zone, SPB_WALK_PASS4, SB_TAINTED, sb) {
			if (!sb->nr_free_pages || sb->nr_free <= SPB_TAINTED_RESERVE)
				continue;
			pfn = sb_take(zone, sb, order, order, MIGRATE_MOVABLE);
			if (pfn != PFN_NONE)
				return pfn;
		}
	}
	return PFN_NONE;
}

/* Isolated and CMA pageblocks are never claimed; the series tip does not
 * boost the watermark. */
static pfn_t try_to_claim_block_spb(struct zone *zone, pfn_t pfn, unsigned current_order,
				    unsigned order, int start_type, int block_type,
				    unsigned alloc_flags)
{
	(void)alloc_flags;
	int bmt = get_pfnblock_migratetype(&zone->machine->mm, pfn);
	pfn_t start;

	if (bmt == MIGRATE_ISOLATE || bmt == MIGRATE_CMA)
		return PFN_NONE;
	if (current_order >= pageblock_order)
		return claim_whole_block_spb(zone, pfn, current_order, order, start_type,
					     block_type);
	start = __try_to_claim_block(zone, pfn, start_type, block_type);
	if (start == PFN_NONE)
		return PFN_NONE;
	__spb_set_has_type(zone, start, start_type);
	__spb_set_has_type(zone, start, block_type);
	spb_update_list(pfn_to_superpageblock(zone, start));
	return __rmqueue_smallest_spb(zone, order, start_type);
}

/* Which categories __rmqueue_sb_find_fallback() searches, in this order. */
#define SB_SEARCH_PREFERRED 0x1
#define SB_SEARCH_EMPTY 0x2
#define SB_SEARCH_FALLBACK 0x4

/* The first fallback type of start with a block of this order on sb's
 * lists, or -1. */
static int sb_fallback_type(const struct superpageblock *sb, unsigned order, int start)
{
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int f = fallbacks[start][i];

		if (!pfn_list_empty(&sb->free_area[order].free_list[f]))
			return f;
	}
	return -1;
}

/* The first fallback block of this order in category cat (for movable work,
 * tainted superpageblocks only above their reserve); its type in *fmt. */
static pfn_t sb_find_in_category(struct zone *zone, int cat, unsigned order, int start, int *fmt)
{
	for_each_spb_in_category(zone, SPB_WALK_FALLBACK, cat, sb) {
		if (start == MIGRATE_MOVABLE && cat == SB_TAINTED &&
		    sb->nr_free <= SPB_TAINTED_RESERVE)
			continue;
		int f = sb_fallback_type(sb, order, start);

		if (f >= 0) {
			*fmt = f;
			return sb->free_area[order].free_list[f].head;
		}
	}
	return PFN_NONE;
}

/* __rmqueue_sb_find_fallback(): the first fallback block of this order in
 * the categories cats names (SB_SEARCH_*), preferred one first; its type
 * in *fmt, PFN_NONE if none. */
static pfn_t __rmqueue_sb_find_fallback(struct zone *zone, unsigned order, int start, int *fmt,
					unsigned cats)
{
	int pref = start == MIGRATE_MOVABLE ? SB_CLEAN : SB_TAINTED;
	pfn_t pfn;

	if (cats & SB_SEARCH_PREFERRED) {
		pfn = sb_find_in_category(zone, pref, order, start, fmt);
		if (pfn != PFN_NONE)
			return pfn;
	}
	if (cats & SB_SEARCH_EMPTY) {
		for_each_spb_on(zone, SPB_WALK_FALLBACK, &zone->spb_empty, sb) {
			int f = sb_fallback_type(sb, order, start);

			if (f >= 0) {
				*fmt = f;
				return sb->free_area[order].free_list[f].head;
			}
		}
	}
	if (cats & SB_SEARCH_FALLBACK)
		return sb_find_in_category(zone, !pref, order, start, fmt);
	return PFN_NONE;
}

/* Category-major, largest order first within each category. */
static pfn_t __rmqueue_claim_spb(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	static const unsigned steps[] = { SB_SEARCH_PREFERRED, SB_SEARCH_EMPTY, SB_SEARCH_FALLBACK };
	int min_order = (int)order;
	/* A caller with a fallback stays in its preferred category. */
	unsigned nr_steps = (alloc_flags & ALLOC_HAS_FALLBACK) ? 1 : 3;

	if (order < pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = pageblock_order;
	for (unsigned i = 0; i < nr_steps; i++) {
		for (int o = MAX_PAGE_ORDER; o >= min_order; o--) {
			int fmt;

			if (!should_try_claim_block((unsigned)o, start_mt))
				break;
			pfn_t pfn = __rmqueue_sb_find_fallback(zone, (unsigned)o, start_mt, &fmt,
							       steps[i]);
			if (pfn == PFN_NONE)
				continue;
			pfn = try_to_claim_block_spb(zone, pfn, (unsigned)o, order, start_mt, fmt,
						     alloc_flags);
			if (pfn != PFN_NONE)
				return pfn;
		}
	}
	return PFN_NONE;
}

/* Smallest order first; the block keeps its type, but its superpageblock
 * now has start_mt in use too. */
static pfn_t __rmqueue_steal_spb(struct zone *zone, unsigned order, int start_mt, unsigned alloc_flags)
{
	unsigned cats = SB_SEARCH_PREFERRED;

	if (!(alloc_flags & ALLOC_HAS_FALLBACK))
		cats |= SB_SEARCH_FALLBACK;
	for (unsigned o = order; o < NR_PAGE_ORDERS; o++) {
		int fmt;
		pfn_t pfn = __rmqueue_sb_find_fallback(zone, o, start_mt, &fmt, cats);

		if (pfn == PFN_NONE)
			continue;
		page_del_and_expand(zone, pfn, order, o, fmt);
		if (fmt != start_mt) {
			__spb_set_has_type(zone, pfn, start_mt);
			spb_update_list(pfn_to_superpageblock(zone, pfn));
		}
		return pfn;
	}
	return PFN_NONE;
}

/* sb_preferred_for_movable(): the fullest clean superpageblock with a free
 * pageblock, not counting full or empty ones. */
struct superpageblock *sb_preferred_for_movable(struct zone *zone)
{
	for (int full = SB_FULL_75; full < __NR_SB_FULLNESS; full++)
		for_each_spb_on(zone, SPB_WALK_PREFERRED, &zone->spb_lists[SB_CLEAN][full], sb)
			if (sb->nr_free > 0)
				return sb;
	return NULL;
}

enum spb_state spb_state(const struct superpageblock *sb)
{
	if (sb->contig_allocated)
		return SPB_STATE_ISOLATED;
	if (sb->nr_free == sb->total_pageblocks)
		return SPB_STATE_EMPTY;
	return spb_get_category(sb) == SB_CLEAN ? SPB_STATE_CLEAN : SPB_STATE_TAINTED;
}

void spb_count_states(struct machine *m, struct spb_counts *c)
{
	*c = (struct spb_counts){ 0 };
	for_each_populated_zone(m, z) {
		/* Zones without superpageblocks have none to count. */
		for (uint32_t i = 0; i < z->nr_superpageblocks; i++) {
			struct superpageblock *sb = &z->superpageblocks[i];

			if (!sb->total_pageblocks)
				continue;
			c->total++;
			switch (spb_state(sb)) {
			case SPB_STATE_ISOLATED: c->isolated++; break;
			case SPB_STATE_EMPTY: c->empty++; break;
			case SPB_STATE_CLEAN: c->clean++; break;
			case SPB_STATE_TAINTED: c->tainted++; break;
			}
		}
	}
}

void spb_state_map(struct machine *m, GString *out)
{
	/* The GiB being gathered: zones starting in the same GiB (DMA and
	 * DMA32) each have a superpageblock there, one line in all. */
	long gib = -1;
	enum spb_state st = SPB_STATE_EMPTY;
	unsigned nr_free = 0, total = 0;

	g_string_append(out, "# mmsim superpageblocks: gib state free_pageblocks pageblocks "
			"(state 0 empty, 1 clean, 2 tainted, 3 isolated)\n");
	for_each_populated_zone(m, z) {
		for (uint32_t i = 0; i < z->nr_superpageblocks; i++) {
			const struct superpageblock *sb = &z->superpageblocks[i];
			long g = (long)((z->superpageblock_base_pfn +
					 (pfn_t)i * SUPERPAGEBLOCK_NR_PAGES) >> SUPERPAGEBLOCK_ORDER);

			if (!sb->total_pageblocks)
				continue;
			if (g != gib) {
				if (gib >= 0)
					g_string_append_printf(out, "%ld %d %u %u\n", gib, (int)st,
							       nr_free, total);
				gib = g;
				st = SPB_STATE_EMPTY;
				nr_free = total = 0;
			}
			/* The enum's order: the later state says more. */
			if (spb_state(sb) > st)
				st = spb_state(sb);
			nr_free += sb->nr_free;
			total += sb->total_pageblocks;
		}
	}
	if (gib >= 0)
		g_string_append_printf(out, "%ld %d %u %u\n", gib, (int)st, nr_free, total);
}

/* superpageblock_debugfs_show() (procfs.h): the zones with superpageblocks. */
void proc_superpageblocks(struct machine *m, GString *out)
{
	for_each_populated_zone(m, z) {
		if (!zone_has_spb(z))
			continue;
		g_string_append_printf(out, "Node %u, zone %8s: %u superpageblocks, base_pfn=0x%x\n",
				       z->node, z->name, z->nr_superpageblocks,
				       z->superpageblock_base_pfn);
		if (z->spb_empty.nr)
			g_string_append_printf(out, "  empty: %u\n", z->spb_empty.nr);
		if (z->spb_isolated.nr)
			g_string_append_printf(out, "  contig_alloc: %u\n", z->spb_isolated.nr);
		for (int c = 0; c < __NR_SB_CATEGORIES; c++)
			for (int f = 0; f < __NR_SB_FULLNESS; f++)
				if (z->spb_lists[c][f].nr)
					g_string_append_printf(out, "  %s/%s: %u\n", sb_category_names[c],
							       sb_fullness_names[f],
							       z->spb_lists[c][f].nr);
		for (uint32_t i = 0; i < z->nr_superpageblocks; i++) {
			const struct superpageblock *sb = &z->superpageblocks[i];

			if (sb->contig_allocated)
				g_string_append_printf(out, "  sb[%u] pfn=0x%x: contig_allocated "
						       "total=%u\n", i, sb->start_pfn,
						       sb->total_pageblocks);
			else
				g_string_append_printf(out, "  sb[%u] pfn=0x%x: unmov=%u recl=%u "
						       "mov=%u rsv=%u free=%u total=%u\n", i,
						       sb->start_pfn, sb->nr_unmovable,
						       sb->nr_reclaimable, sb->nr_movable,
						       sb->nr_reserved, sb->nr_free,
						       sb->total_pageblocks);
		}
	}
}

/* The first free block of order on any superpageblock's mt lists. */
static pfn_t spb_first_free(struct zone *zone, unsigned order, int mt)
{
	if (!zone->free_area[order].free_list[mt].nr)
		return PFN_NONE;
	for (uint32_t i = 0; i < zone->nr_superpageblocks; i++) {
		pfn_t pfn = zone->superpageblocks[i].free_area[order].free_list[mt].head;

		if (pfn != PFN_NONE)
			return pfn;
	}
	return PFN_NONE;
}

const struct zone_ops spb_zone_ops = {
	.add_to_free_list = spb_add_to_free_list,
	.del_from_free_list = spb_del_from_free_list,
	.move_to_free_list = spb_move_to_free_list,
	.free_pageblocks = spb_free_pageblocks,
	.merged_pageblock = spb_merged_pageblock_free,
	.mark_taken = spb_mark_taken,
	.rmqueue_smallest = __rmqueue_smallest_spb,
	.try_to_claim_block = try_to_claim_block_spb,
	.rmqueue_claim = __rmqueue_claim_spb,
	.rmqueue_steal = __rmqueue_steal_spb,
	.first_free = spb_first_free,
	.resize = resize_zone_superpageblocks,
	.compact_shortcut = spb_compact_shortcut,
	.check_free_list = spb_check_free_list,
	.noretry_has_fallback = true,
	.section_hooks = true,
};
