/* Memory compaction (mm/compaction.c, and the fragmentation index of
 * mm/vmstat.c).  The migrate scanner walks a zone up from its start,
 * pageblock by pageblock, isolating movable pages COMPACT_CLUSTER_MAX at a
 * time; the free scanner walks down from the zone's end isolating free
 * pages as their destinations; migrate_pages() moves the first to the
 * second, until the scanners meet in the same pageblock or (for an
 * allocation) a free block of the requested order exists.
 *
 * Locks: the free scanner holds zone->lock from the first free page it
 * takes until the next COMPACT_CLUSTER_MAX-aligned pfn, as the kernel
 * does; the migrate scanner's lru lock is a cost per page
 * (isolate_migratepage), the model having no lruvec lock.
 *
 * Not modelled: the fast free-list searches (fast_isolate_freepages,
 * fast_find_migrateblock), the capture of a freed page by the direct
 * compactor, too_many_isolated() throttling, the LRU add caches, and the
 * pageblock-by-pageblock walk of __reset_isolation_suitable (every skip
 * hint of the zone is cleared at once). */
#ifndef MMSIM_COMPACTION_H
#define MMSIM_COMPACTION_H

#include "migrate.h"
#include "mm_env.h"
#include "mmzone.h"

#include <glib.h>

#define COMPACT_CLUSTER_MAX 32              /* SWAP_CLUSTER_MAX */
#define COMPACT_MAX_DEFER_SHIFT 6
#define COMPACTION_HPAGE_ORDER pageblock_order
#define HPAGE_FRAG_CHECK_INTERVAL_MSEC 500

enum compact_priority {
	COMPACT_PRIO_SYNC_FULL,
	MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_FULL,
	COMPACT_PRIO_SYNC_LIGHT,
	COMPACT_PRIO_ASYNC,
	INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC,
};
#define MIN_COMPACT_COSTLY_PRIORITY COMPACT_PRIO_SYNC_LIGHT
#define DEF_COMPACT_PRIORITY COMPACT_PRIO_SYNC_LIGHT

/* In the kernel's order: callers take the max over zones. */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE,
	COMPACT_SKIPPED,
	COMPACT_DEFERRED,
	COMPACT_NO_SUITABLE_PAGE,
	COMPACT_CONTINUE,
	COMPACT_COMPLETE,
	COMPACT_PARTIAL_SKIPPED,
	COMPACT_CONTENDED,
	COMPACT_SUCCESS,
};

struct compact_control {
	/* Isolated free blocks by order, as pfns: each is an allocated block
	 * of that order (owner OWNER_NONE, movable) until used or released. */
	GQueue freepages[NR_PAGE_ORDERS];
	GArray *migratepages;           /* pfn_t: isolated pages to move */
	unsigned long nr_freepages, nr_migratepages;
	unsigned long total_migrate_scanned, total_free_scanned;
	pfn_t free_pfn, migrate_pfn;
	struct zone *zone;
	int order;                      /* -1: the whole zone (compact_memory, proactive) */
	int migratetype;
	gfp_t gfp_mask;
	enum migrate_mode mode;
	unsigned alloc_flags;
	int highest_zoneidx;
	bool direct_compaction, whole_zone, proactive_compaction;
	bool ignore_skip_hint, no_set_skip_hint, ignore_block_suitable;
	bool alloc_contig, finish_pageblock, contended;
};

/* The lists of a compact_control, empty; and freeing them (they must be
 * empty: release_free_list and putback first). */
void compact_control_init_lists(struct compact_control *cc);
void compact_control_free_lists(struct compact_control *cc);

/* mm/vmstat.c: fragmentation_index() in thousandths (-1000: a block of
 * the order is free; towards 0: failure from lack of memory; towards
 * 1000: from fragmentation), and extfrag_for_order() in percent of free
 * memory not in blocks of the order. */
int fragmentation_index(struct zone *zone, unsigned order);
unsigned extfrag_for_order(struct zone *zone, unsigned order);
/* Proactive compaction's scores: the zone's (extfrag at
 * COMPACTION_HPAGE_ORDER) and the node's (zones weighted by size). */
unsigned fragmentation_score_zone(struct zone *zone);
unsigned fragmentation_score_node(struct machine *m, int nid);

/* compact_gap(): room for the pages isolated on both sides at once. */
static inline unsigned long compact_gap(int order)
{
	return 2UL << order;
}

/* compaction_suitable(): order-0 free pages above watermark plus the
 * compaction gap, and for costly orders a fragmentation index above
 * vm.extfrag_threshold. */
bool compaction_suitable(struct zone *zone, int order, unsigned long watermark,
			 int highest_zoneidx);
void defer_compaction(struct zone *zone, int order);
bool compaction_deferred(struct zone *zone, int order);
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);

/* compact_zone(): one run over cc->zone with cc's settings; the scanned
 * and isolated counts go to vmstat and to cc. */
enum compact_result compact_zone(struct mm_ctx *ctx, struct compact_control *cc);

struct alloc_context;
/* try_to_compact_pages(): direct compaction of the request's zonelist. */
enum compact_result try_to_compact_pages(struct mm_ctx *ctx, struct machine *m, gfp_t gfp,
					 unsigned order, unsigned alloc_flags,
					 const struct alloc_context *ac,
					 enum compact_priority prio);

/* compact_node(): every zone of node nid, whole; proactive runs stop at
 * the fragmentation score's low mark.  compact_nodes(): every node, the
 * write to /proc/sys/vm/compact_memory. */
void compact_node(struct mm_ctx *ctx, struct machine *m, int nid, bool proactive);
void compact_nodes(struct mm_ctx *ctx, struct machine *m);

/* kcompactd: wakeup_kcompactd() records the order kswapd balanced for
 * and wakes the thread (pgdat->kcompactd_wake) if compaction could help;
 * kcompactd(ctx, machine) is the thread of the node of the CPU it runs
 * on (an engine's kernel thread, machine_boot), compacting the node's
 * zones when woken and proactively at its timeout. */
void wakeup_kcompactd(struct machine *m, int nid, int order, int highest_zoneidx);
void kcompactd(struct mm_ctx *ctx, void *arg);
/* A write of vm.compaction_proactiveness: a non-zero value wakes every
 * node's kcompactd for a proactive pass now, as the kernel's handler
 * does, instead of at its next timeout. */
void compaction_proactiveness_sysctl_handler(struct machine *m, int proactiveness);
/* reset_isolation_suitable(): kswapd going to sleep clears the skip hints
 * of zones a direct compaction finished. */
void reset_isolation_suitable(struct machine *m, int nid);

/* For alloc_contig_range (models/page_alloc.c): isolate the movable pages
 * of [start, end) onto cc->migratepages (stopping after
 * COMPACT_CLUSTER_MAX; cc->migrate_pfn says where); take every free block
 * of [start, end) strictly (returns the pfn after the last, or 0 and
 * nothing taken if a page in the range is not free); give isolated free
 * blocks back to the allocator. */
void isolate_migratepages_range(struct mm_ctx *ctx, struct compact_control *cc, pfn_t start,
				pfn_t end);
pfn_t isolate_freepages_range(struct mm_ctx *ctx, struct compact_control *cc, pfn_t start,
			      pfn_t end);
void release_free_list(struct mm_ctx *ctx, struct compact_control *cc);
/* putback_movable_pages() of every page on cc->migratepages, which it
 * empties (the lru lock, per page). */
void putback_isolated(struct mm_ctx *ctx, struct compact_control *cc);

#endif
