/* Superpageblocks (policy spb, the series tip 832e6bcd): per-pageblock
 * usage bits, per-superpageblock counters and the zone lists that sort
 * superpageblocks by category and fullness.  Callers hold the zone lock.
 *
 * A zone with superpageblocks has their zone_ops (spb_zone_ops, set by
 * setup_superpageblocks): the shared buddy paths (buddy.c) reach its free
 * lists only through them; the lists and counters are kept by
 * superpageblock.c alone (superpageblock_internal.h). */
#ifndef MMSIM_SUPERPAGEBLOCK_H
#define MMSIM_SUPERPAGEBLOCK_H

#include "mm_env.h"
#include "mmzone.h"

struct migrate_stats;
#include <glib.h>

#define SUPERPAGEBLOCK_NR_PAGEBLOCKS (SUPERPAGEBLOCK_NR_PAGES / pageblock_nr_pages)
/* Movable work leaves this many free pageblocks of a tainted superpageblock
 * to non-movable work. */
#define SPB_TAINTED_RESERVE 4
#define SPB_NONE UINT32_MAX

struct superpageblock {
	uint16_t nr_free;           /* pageblocks with PB_all_free */
	uint16_t nr_unmovable, nr_reclaimable, nr_movable;  /* PB_has_* counts */
	uint16_t nr_reserved;       /* slots in the zone span never initialised */
	uint16_t total_pageblocks;  /* slots inside the zone span */
	bool contig_allocated;
	unsigned long nr_free_pages;    /* pages on this superpageblock's free lists */
	/* The defrag worker (superpageblock_defrag.c): queued or running,
	 * where the last pass stopped, and the back-off after a pass that
	 * freed no pageblock (time 0: none). */
	bool defrag_active;
	pfn_t defrag_cursor;
	uint64_t defrag_last_no_progress_ns;
	unsigned long defrag_last_no_progress_pages;
	uint32_t list_next, list_prev;  /* the list link */
	struct spb_list *on_list;       /* the zone list it is on, NULL if none */
	pfn_t start_pfn;
	struct zone *zone;
	struct free_area free_area[NR_PAGE_ORDERS];
};

/* The zone's free blocks live on superpageblocks (its ops are
 * spb_zone_ops).  Policy spb gives every zone populated at boot a
 * superpageblock array and no other zone ever gets one: zonelists hold
 * only populated zones and hotplug grows only those, so for every zone the
 * allocator uses this equals m->policy == POLICY_SPB. */
static inline bool zone_has_spb(const struct zone *z)
{
	return z->superpageblocks != NULL;
}

/* The machine's zones have superpageblocks (zone_boot_free sets them up
 * under policy spb): what kevacuate, the superpageblock map and the
 * superpageblocks file need. */
static inline bool machine_has_superpageblocks(const struct machine *m)
{
	return m->policy == POLICY_SPB;
}

/* pfn_to_superpageblock(): NULL if the zone has no array or pfn is outside it. */
static inline struct superpageblock *pfn_to_superpageblock(struct zone *zone, pfn_t pfn)
{
	uint32_t idx;

	if (!zone_has_spb(zone))
		return NULL;
	idx = (pfn - zone->superpageblock_base_pfn) >> SUPERPAGEBLOCK_ORDER;
	return idx < zone->nr_superpageblocks ? &zone->superpageblocks[idx] : NULL;
}

/* __rmqueue_from_sb(): from one superpageblock's mt lists, order and up. */
pfn_t __rmqueue_from_sb(struct zone *zone, struct superpageblock *sb, unsigned order, int mt);
/* sb_preferred_for_movable(): NULL if none. */
struct superpageblock *sb_preferred_for_movable(struct zone *zone);

enum sb_category spb_get_category(const struct superpageblock *sb);
enum sb_fullness sb_get_fullness(const struct superpageblock *sb);
/* init_pageblock_migratetype(): the pageblock at pfn becomes real memory,
 * labelled mt; its superpageblock has one reserved slot fewer. */
void init_pageblock_migratetype(struct zone *zone, pfn_t pfn, int mt);
/* setup_superpageblocks() (mm_init.c) for one zone. */
void setup_superpageblocks(struct zone *zone);
void free_superpageblocks(struct zone *zone);
/* resize_zone_superpageblocks() (mm_init.c): after the zone span grew
 * (onlining) or shrank (offlining, whose pageblocks leave wholly free). */
void resize_zone_superpageblocks(struct zone *zone);

/* superpageblock_clear_has_movable(): compaction scanned the pageblock at
 * pfn whole and found only free pages: it holds no movable page any more,
 * unless a movable free fragment below pageblock order is still there. */
void superpageblock_clear_has_movable(struct zone *zone, pfn_t pfn);
/* superpageblock_contig_mark(): [start, end) was taken by (allocated) or
 * is given back from a contiguous allocation: every superpageblock wholly
 * inside it goes to (leaves) spb_isolated.  Takes zone->lock. */
void superpageblock_contig_mark(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
				bool allocated);

/* ---- the defrag worker (seed 004) and the contiguous shortcuts (seed
 * 005): superpageblock_defrag.c ---- */

/* Seconds a pass that freed no pageblock holds off the next, unless
 * pageblock_nr_pages more pages became free meanwhile. */
#define SPB_DEFRAG_NOOP_COOLDOWN_NS (5ULL * 1000000000ULL)
/* Clean superpageblocks are compacted only with a quarter of them free. */
#define SPB_DEFRAG_FREE_PAGES_TARGET (SUPERPAGEBLOCK_NR_PAGES / 4)

bool spb_needs_defrag(const struct superpageblock *sb);
bool spb_defrag_done(const struct superpageblock *sb);
/* pageblock_evacuate_init(): the late initcall making each node's
 * kevacuate queue; until it runs no defrag is queued.  machine_boot calls
 * it before it starts the workers; tests call it themselves. */
void pageblock_evacuate_init(struct machine *m);
void pageblock_evacuate_exit(struct machine *m);
/* Whether node nid's queue holds work; spb_defrag_run_one(): the queue's
 * first item, spb_defrag_work_fn() on it (false if none). */
bool spb_defrag_pending(struct machine *m, int nid);
bool spb_defrag_run_one(struct mm_ctx *ctx, struct machine *m, int nid);
/* kevacuate<N>, the worker of the defrag queue of the node of the CPU it
 * runs on (the kernel's kevacuate/<nid> workqueue, max_active 1; an
 * engine's kernel thread, machine_boot): it runs the queued items one
 * after the other, looking for new ones every m->kswapd_interval (or
 * every 1 ms). */
void kevacuate_thread(struct mm_ctx *ctx, void *arg);
/* evacuate_pageblock(): move the movable pages of the pageblock at pfn
 * out, to anywhere on the zone's node (force: even if it is labelled
 * MOVABLE). */
void evacuate_pageblock(struct mm_ctx *ctx, struct zone *zone, pfn_t pfn, bool force);
/* spb_try_alloc_contig(): nr_pages (pageblock_nr_pages or more, a power
 * of two) taken with alloc_contig_range, as gfp's type, from at most
 * SPB_CONTIG_MAX_CANDIDATES places the lists name as best (for 1 GiB:
 * empty superpageblocks, then clean ones emptiest first), each tried
 * twice, a failed one's superpageblock rotated to its list's tail; the
 * first pfn or PFN_NONE.  Migration counts go to stats (may be NULL). */
#define SPB_CONTIG_MAX_CANDIDATES 4
pfn_t spb_try_alloc_contig(struct mm_ctx *ctx, struct zone *zone, unsigned long nr_pages,
			   gfp_t gfp, uint32_t owner, struct migrate_stats *stats);
/* spb_evacuate_for_order(): evacuate one pageblock labelled mt with
 * movable pages in a tainted superpageblock holding mt; whether it did. */
bool spb_evacuate_for_order(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt);

/* Superpageblocks of the machine by state (all 0 without policy spb). */
struct spb_counts {
	unsigned long total, empty, clean, tainted, isolated;
};
void spb_count_states(struct machine *m, struct spb_counts *c);
/* What a superpageblock is now: empty (every pageblock free), clean (only
 * movable allocations), tainted, or isolated (taken whole by a contiguous
 * allocation). */
enum spb_state { SPB_STATE_EMPTY, SPB_STATE_CLEAN, SPB_STATE_TAINTED, SPB_STATE_ISOLATED };
enum spb_state spb_state(const struct superpageblock *sb);
/* One line per superpageblock of the machine, lowest address first:
 * "GIB STATE FREE_PAGEBLOCKS PAGEBLOCKS" (a superpageblock is 1 GiB) after a
 * '#' comment line; nothing without policy spb.  Superpageblocks of zones
 * sharing a GiB are one line: the latest state of enum spb_state, the
 * sums of the counts. */
void spb_state_map(struct machine *m, GString *out);

/* The checker (superpageblock_check.c): counters against the pageblocks'
 * bits and the free lists, and the zone lists against each superpageblock's
 * state; violations go to r. */
struct check_report;
void check_superpageblocks(struct zone *z, struct check_report *r);

extern const char *const sb_category_names[__NR_SB_CATEGORIES];
extern const char *const sb_fullness_names[__NR_SB_FULLNESS];
/* enum spb_walk's names: "pass1" ... "evacuate". */
extern const char *const spb_walk_names[NR_SPB_WALKS];

#endif
