/* Superpageblocks (policy spb, the series tip 832e6bcd): per-pageblock
 * usage bits, per-superpageblock counters and the zone lists that sort
 * superpageblocks by category and fullness.  Callers hold the zone lock. */
#ifndef MMSIM_SUPERPAGEBLOCK_H
#define MMSIM_SUPERPAGEBLOCK_H

#include "mmzone.h"

/* pfn_to_superpageblock(): NULL if the zone has no array or pfn is outside it. */
static inline struct superpageblock *pfn_to_superpageblock(struct zone *zone, pfn_t pfn)
{
	uint32_t idx;

	if (!zone->superpageblocks)
		return NULL;
	idx = (pfn - zone->superpageblock_base_pfn) >> SUPERPAGEBLOCK_ORDER;
	return idx < zone->nr_superpageblocks ? &zone->superpageblocks[idx] : NULL;
}

/* migratetype_to_has_bit(): 0 for types that leave no mark. */
static inline uint16_t migratetype_to_has_bit(int mt)
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

enum sb_category spb_get_category(const struct superpageblock *sb);
enum sb_fullness sb_get_fullness(const struct superpageblock *sb);
void spb_list_add_tail(struct zone *zone, struct spb_list *l, struct superpageblock *sb);
void spb_list_del(struct zone *zone, struct superpageblock *sb);
static inline struct superpageblock *spb_list_first(struct zone *zone, const struct spb_list *l)
{
	return l->head == SPB_NONE ? NULL : &zone->superpageblocks[l->head];
}
static inline struct superpageblock *spb_list_next(struct zone *zone, const struct superpageblock *sb)
{
	return sb->list_next == SPB_NONE ? NULL : &zone->superpageblocks[sb->list_next];
}
#define for_each_spb_on(zone, l, sb) \
	for (struct superpageblock *sb = spb_list_first(zone, l); sb; sb = spb_list_next(zone, sb))

/* The zone list an SPB belongs on given its counters (spb_update_list's choice). */
struct spb_list *spb_target_list(struct zone *zone, const struct superpageblock *sb);
void spb_update_list(struct superpageblock *sb);
void __spb_set_has_type(struct zone *zone, pfn_t pfn, int mt);
void __spb_clear_has_type(struct zone *zone, pfn_t pfn, int mt);
void superpageblock_pb_now_free(struct zone *zone, pfn_t pfn);
void superpageblock_pb_now_used(struct zone *zone, pfn_t pfn);
/* mark_pageblock_free(): may relabel the block MOVABLE and update *mt. */
void mark_pageblock_free(struct zone *zone, pfn_t pfn, int *mt);
void init_pageblock_migratetype(struct zone *zone, pfn_t pfn, int mt);
/* setup_superpageblocks() (mm_init.c) for one zone. */
void setup_superpageblocks(struct zone *zone);
void free_superpageblocks(struct zone *zone);
/* resize_zone_superpageblocks() (mm_init.c): after the zone span grew. */
void resize_zone_superpageblocks(struct zone *zone);
/* sb_preferred_for_movable(): NULL if none. */
struct superpageblock *sb_preferred_for_movable(struct zone *zone);

/* Superpageblocks of the machine by state (all 0 without policy spb). */
struct spb_counts {
	unsigned long total, empty, clean, tainted, isolated;
};
void spb_count_states(struct machine *m, struct spb_counts *c);

extern const char *const sb_category_names[__NR_SB_CATEGORIES];
extern const char *const sb_fullness_names[__NR_SB_FULLNESS];

#endif
