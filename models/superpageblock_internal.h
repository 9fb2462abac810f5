/* The superpageblock lists and counters, shared by superpageblock.c and
 * its checker (superpageblock_check.c); not part of the API. */
#ifndef MMSIM_SUPERPAGEBLOCK_INTERNAL_H
#define MMSIM_SUPERPAGEBLOCK_INTERNAL_H

#include "superpageblock.h"

#include <glib.h>

/* The zone_ops of a zone with superpageblocks (setup_superpageblocks sets
 * them); its shortcut and checker live in superpageblock_defrag.c and
 * superpageblock_check.c. */
extern const struct zone_ops spb_zone_ops;
bool spb_compact_shortcut(struct mm_ctx *ctx, struct zone *zone, gfp_t gfp, unsigned order, int mt,
			  pfn_t *pfn);
uint32_t spb_check_free_list(struct zone *zone, struct check_report *r, unsigned o, int mt);

static inline struct superpageblock *spb_list_first(struct zone *zone, const struct spb_list *l)
{
	return l->head == SPB_NONE ? NULL : &zone->superpageblocks[l->head];
}

static inline struct superpageblock *spb_list_next(struct zone *zone, const struct superpageblock *sb)
{
	return sb->list_next == SPB_NONE ? NULL : &zone->superpageblocks[sb->list_next];
}

/* Whether walk passes sb by, taking nothing from it, because sb has no
 * free page.  Those are what the what-if index (machine->spb_walk_indexed)
 * spares the walk: a list, per bucket, of the superpageblocks with a free
 * page, in the bucket's order.  Skipping them changes nothing the walk
 * finds. */
static inline bool spb_walk_passes_by(enum spb_walk walk, const struct superpageblock *sb)
{
	if (sb->nr_free_pages)
		return false;
	switch (walk) {
	case SPB_WALK_PREFERRED:
		/* Its test is a free pageblock, which has free pages. */
		return !sb->nr_free;
	case SPB_WALK_CONTIG:
	case SPB_WALK_EVACUATE:
		/* Candidates whatever their free pages. */
		return false;
	default:
		return true;
	}
}

/* A walk reads sb's struct under zone->lock: one visit of that section. */
static inline void spb_visit(struct zone *zone, enum spb_walk walk, const struct superpageblock *sb)
{
	if (!zone->machine->spb_walk_indexed || !spb_walk_passes_by(walk, sb))
		zone->work.spb_visits[walk]++;
}

/* sb was relinked on a zone list: one move, and its link on the what-if
 * index's list too if it has a free page. */
static inline void spb_relinked(struct zone *zone, const struct superpageblock *sb)
{
	zone->work.spb_moves += 1 + (zone->machine->spb_walk_indexed && sb->nr_free_pages);
}

/* Every superpageblock on l, head to tail, read by walk. */
#define for_each_spb_on(zone, walk, l, sb)                                        \
	for (struct superpageblock *sb = spb_list_first(zone, l);                  \
	     sb && (spb_visit(zone, walk, sb), true); sb = spb_list_next(zone, sb))

/* Every superpageblock of category cat, fullest bucket first, each bucket
 * head to tail.  A break leaves only the current bucket. */
#define for_each_spb_in_category(zone, walk, cat, sb)                  \
	for (int _full = 0; _full < __NR_SB_FULLNESS; _full++)        \
		for_each_spb_on(zone, walk, &(zone)->spb_lists[cat][_full], sb)

/* spb_span(): the part [*lo, *hi) of the superpageblock starting at s that
 * lies inside the zone span (empty: *hi <= *lo); returns its pageblocks. */
static inline uint16_t spb_span(const struct zone *zone, uint64_t s, pfn_t *lo, pfn_t *hi)
{
	uint64_t l = MAX(s, (uint64_t)zone->zone_start_pfn);
	uint64_t h = MIN(s + SUPERPAGEBLOCK_NR_PAGES, (uint64_t)zone_end_pfn(zone));

	*lo = (pfn_t)l;
	*hi = (pfn_t)h;
	return h > l ? (uint16_t)((h - l + pageblock_nr_pages - 1) / pageblock_nr_pages) : 0;
}

#define NR_ZONE_SPB_LISTS (2 + __NR_SB_CATEGORIES * __NR_SB_FULLNESS)

/* Fills lists with every zone list of superpageblocks; returns
 * NR_ZONE_SPB_LISTS. */
static inline unsigned zone_spb_lists(struct zone *zone, struct spb_list **lists)
{
	unsigned nl = 0;

	lists[nl++] = &zone->spb_empty;
	lists[nl++] = &zone->spb_isolated;
	for (int c = 0; c < __NR_SB_CATEGORIES; c++)
		for (int f = 0; f < __NR_SB_FULLNESS; f++)
			lists[nl++] = &zone->spb_lists[c][f];
	return nl;
}

/* The zone list a superpageblock belongs on given its counters. */
struct spb_list *spb_target_list(struct zone *zone, const struct superpageblock *sb);
/* Link sb at the tail of l / unlink it from its list (none: no-op); the
 * caller keeps sb->on_list's category and fullness right. */
void spb_list_add_tail(struct zone *zone, struct spb_list *l, struct superpageblock *sb);
void spb_list_del(struct zone *zone, struct superpageblock *sb);

/* kevacuate/<nid>: superpageblocks waiting for the defrag worker, as
 * spb_queue_key()s, first queued first run (max_active 1). */
struct evacuate_wq {
	GQueue queue;
};

/* A queued superpageblock by zone and first pfn, which stay valid when
 * hotplug reallocates the array. */
static inline gpointer spb_queue_key(const struct superpageblock *sb)
{
	return GSIZE_TO_POINTER(((gsize)sb->zone->idx << 32) | sb->start_pfn);
}

#endif
