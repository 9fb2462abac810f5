#include "superpageblock.h"
#include "pcp.h"

#include <glib.h>
#include <string.h>

const char *const sb_category_names[__NR_SB_CATEGORIES] = { "clean", "tainted" };
const char *const sb_fullness_names[__NR_SB_FULLNESS] = {
	"full", "75pct", "50pct", "25pct", "almost_empty",
};

/* spb_get_category() */
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

/* spb_update_list(): always to the tail, which rotates a bucket. */
void spb_update_list(struct superpageblock *sb)
{
	struct zone *zone = sb->zone;

	if (sb->total_pageblocks == 0)
		return;
	spb_list_del(zone, sb);
	spb_list_add_tail(zone, spb_target_list(zone, sb), sb);
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

/* __spb_set_has_type() */
void __spb_set_has_type(struct zone *zone, pfn_t pfn, int mt)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);
	uint16_t bit = migratetype_to_has_bit(mt);
	uint16_t *f = &zone->machine->mm.pb_flags[pfn_to_pb(pfn)];

	if (!sb || !bit || (*f & bit))
		return;
	*f |= bit;
	(*spb_counter(sb, bit))++;
}

/* __spb_clear_has_type() */
void __spb_clear_has_type(struct zone *zone, pfn_t pfn, int mt)
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

/* superpageblock_pb_now_free() */
void superpageblock_pb_now_free(struct zone *zone, pfn_t pfn)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	if (!sb)
		return;
	sb->nr_free++;
	spb_update_list(sb);
}

/* superpageblock_pb_now_used() */
void superpageblock_pb_now_used(struct zone *zone, pfn_t pfn)
{
	struct superpageblock *sb = pfn_to_superpageblock(zone, pfn);

	if (!sb)
		return;
	if (sb->nr_free)
		sb->nr_free--;
	spb_update_list(sb);
}

/* mark_pageblock_free() */
void mark_pageblock_free(struct zone *zone, pfn_t pfn, int *mt)
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

/* init_pageblock_migratetype(): the block becomes real memory. */
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
	uint64_t start = zone->zone_start_pfn, end = zone_end_pfn(zone);
	uint64_t e = s + SUPERPAGEBLOCK_NR_PAGES;
	uint64_t lo = MAX(s, start), hi = MIN(e, end);
	uint64_t pages = hi > lo ? hi - lo : 0;

	memset(sb, 0, sizeof(*sb));
	sb->zone = zone;
	sb->start_pfn = (pfn_t)s;
	sb->list_next = sb->list_prev = SPB_NONE;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			pfn_list_init(&sb->free_area[o].free_list[mt], (unsigned)o);
	sb->total_pageblocks = sb->nr_reserved =
		(uint16_t)((pages + pageblock_nr_pages - 1) / pageblock_nr_pages);
}

/* setup_superpageblocks() + init_one_superpageblock() */
void setup_superpageblocks(struct zone *zone)
{
	pfn_t start = zone->zone_start_pfn, end = zone_end_pfn(zone);
	uint64_t base = start & ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);
	uint64_t top = ((uint64_t)end + SUPERPAGEBLOCK_NR_PAGES - 1) &
		       ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);

	spb_list_init(&zone->spb_empty);
	spb_list_init(&zone->spb_isolated);
	for (int c = 0; c < __NR_SB_CATEGORIES; c++)
		for (int f = 0; f < __NR_SB_FULLNESS; f++)
			spb_list_init(&zone->spb_lists[c][f]);
	zone->superpageblock_base_pfn = (pfn_t)base;
	zone->nr_superpageblocks = (uint32_t)((top - base) >> SUPERPAGEBLOCK_ORDER);
	zone->superpageblocks = g_new0(struct superpageblock, zone->nr_superpageblocks);
	for (uint32_t i = 0; i < zone->nr_superpageblocks; i++) {
		struct superpageblock *sb = &zone->superpageblocks[i];

		init_one_superpageblock(zone, sb, base + ((uint64_t)i << SUPERPAGEBLOCK_ORDER));
		if (sb->total_pageblocks)
			spb_list_add_tail(zone, &zone->spb_lists[SB_TAINTED][SB_FULL], sb);
	}
}

static uint32_t shift_index(uint32_t i, uint32_t off)
{
	return i == SPB_NONE ? SPB_NONE : i + off;
}

/* resize_zone_superpageblocks(): a new array covering the grown span; old
 * superpageblocks keep their free lists and list positions (their links
 * are indices, shifted if the base moved down), new slots start reserved,
 * and an old superpageblock the span grew into gets the new slots added
 * to nr_reserved and its total updated.  The tip returns early when base
 * and count are unchanged, leaving a superpageblock the span grew inside
 * with a stale total; the model updates that total and reserve (and only
 * skips the reallocation), so counters stay within the total. */
void resize_zone_superpageblocks(struct zone *zone)
{
	pfn_t start = zone->zone_start_pfn, end = zone_end_pfn(zone);
	uint64_t base = start & ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);
	uint64_t top = ((uint64_t)end + SUPERPAGEBLOCK_NR_PAGES - 1) &
		       ~(uint64_t)(SUPERPAGEBLOCK_NR_PAGES - 1);
	uint32_t nr = (uint32_t)((top - base) >> SUPERPAGEBLOCK_ORDER);
	uint32_t off = (uint32_t)((zone->superpageblock_base_pfn - base) >> SUPERPAGEBLOCK_ORDER);
	struct superpageblock *old = zone->superpageblocks, *sbs;
	uint32_t old_nr = zone->nr_superpageblocks;
	struct spb_list *lists[2 + __NR_SB_CATEGORIES * __NR_SB_FULLNESS];
	unsigned nl = 0;

	if (!zone->spanned_pages || !old)
		return;
	if (base == zone->superpageblock_base_pfn && nr == old_nr) {
		struct superpageblock *sb = &old[old_nr - 1];
		uint64_t lo = MAX((uint64_t)sb->start_pfn, (uint64_t)start);
		uint16_t pbs = (uint16_t)((end - lo + pageblock_nr_pages - 1) / pageblock_nr_pages);

		if (pbs > sb->total_pageblocks) {
			sb->nr_reserved += pbs - sb->total_pageblocks;
			sb->total_pageblocks = pbs;
		}
		return;
	}
	sbs = g_new0(struct superpageblock, nr);
	for (uint32_t i = 0; i < nr; i++) {
		if (i >= off && i < off + old_nr)
			continue;
		init_one_superpageblock(zone, &sbs[i], base + ((uint64_t)i << SUPERPAGEBLOCK_ORDER));
	}
	for (uint32_t i = 0; i < old_nr; i++) {
		struct superpageblock *sb = &sbs[i + off];
		uint64_t s = old[i].start_pfn;
		uint64_t lo = MAX(s, (uint64_t)start), hi = MIN(s + SUPERPAGEBLOCK_NR_PAGES, (uint64_t)end);
		uint16_t pbs = (uint16_t)((hi - lo + pageblock_nr_pages - 1) / pageblock_nr_pages);

		*sb = old[i];
		sb->list_next = shift_index(sb->list_next, off);
		sb->list_prev = shift_index(sb->list_prev, off);
		if (pbs > sb->total_pageblocks) {
			sb->nr_reserved += pbs - sb->total_pageblocks;
			sb->total_pageblocks = pbs;
		}
	}
	lists[nl++] = &zone->spb_empty;
	lists[nl++] = &zone->spb_isolated;
	for (int c = 0; c < __NR_SB_CATEGORIES; c++)
		for (int f = 0; f < __NR_SB_FULLNESS; f++)
			lists[nl++] = &zone->spb_lists[c][f];
	for (unsigned k = 0; k < nl; k++) {
		lists[k]->head = shift_index(lists[k]->head, off);
		lists[k]->tail = shift_index(lists[k]->tail, off);
	}
	zone->superpageblocks = sbs;
	zone->nr_superpageblocks = nr;
	zone->superpageblock_base_pfn = (pfn_t)base;
	g_free(old);
	/* New slots go on the tainted/full list, as at boot. */
	for (uint32_t i = 0; i < nr; i++)
		if ((i < off || i >= off + old_nr) && sbs[i].total_pageblocks)
			spb_list_add_tail(zone, &zone->spb_lists[SB_TAINTED][SB_FULL], &sbs[i]);
}

void free_superpageblocks(struct zone *zone)
{
	g_free(zone->superpageblocks);
	zone->superpageblocks = NULL;
	zone->nr_superpageblocks = 0;
}

/* sb_preferred_for_movable(): the fullest clean superpageblock with a free
 * pageblock, not counting full or empty ones. */
struct superpageblock *sb_preferred_for_movable(struct zone *zone)
{
	for (int full = SB_FULL_75; full < __NR_SB_FULLNESS; full++)
		for_each_spb_on(zone, &zone->spb_lists[SB_CLEAN][full], sb)
			if (sb->nr_free > 0)
				return sb;
	return NULL;
}

void spb_count_states(struct machine *m, struct spb_counts *c)
{
	*c = (struct spb_counts){ 0 };
	for_each_populated_zone(m, z) {
		for (uint32_t i = 0; z->superpageblocks && i < z->nr_superpageblocks; i++) {
			struct superpageblock *sb = &z->superpageblocks[i];

			if (!sb->total_pageblocks)
				continue;
			c->total++;
			if (sb->contig_allocated)
				c->isolated++;
			else if (sb->nr_free == sb->total_pageblocks)
				c->empty++;
			else if (spb_get_category(sb) == SB_CLEAN)
				c->clean++;
			else
				c->tainted++;
		}
	}
}
