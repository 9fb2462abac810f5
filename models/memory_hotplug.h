/* Memory hot-remove (mm/memory_hotplug.c: offline_pages): the top of a
 * node's memory taken out of the allocator.  Onlining is in machine.c
 * (online_memory_block). */
#ifndef MMSIM_MEMORY_HOTPLUG_H
#define MMSIM_MEMORY_HOTPLUG_H

#include "mm_env.h"
#include "mmzone.h"

/* What an offline did. */
struct offline_stats {
	pfn_t start_pfn, end_pfn;       /* the range asked for */
	unsigned long migrated;         /* pages moved out */
	unsigned rounds;                /* migration rounds */
	pfn_t fail_pfn;                 /* -MM_EBUSY: the page that stayed */
	const char *reason;             /* -MM_EBUSY: why, in the kernel's words */
};

/* offline_pages() for the top bytes (a multiple of the 128 MiB section)
 * of node nid's memory, which must lie in the node's top zone, and not be
 * all of it: start_isolate_page_range (MIGRATE_ISOLATE; an unmovable page
 * makes it fail at once), drain the pagesets, move the movable pages out
 * (alloc_migration_target on the other nodes, this node only when it is
 * the only one, as do_migrate_range asks), repeat until every page is free
 * in the isolated range, then take the free pages out of the buddy, shrink
 * the zone's span and recompute watermarks and pagesets.  A page on no LRU
 * (isolated elsewhere, or between unmap and free) is skipped and tried
 * again next round, as scan_movable_pages does; a THP that stays whole
 * fails it at once ("unmovable page").  The kernel retries until a fatal
 * signal, which is how userspace's timeout ends it: the model gives up
 * once timeout_ns of simulated time has passed since the first round
 * ("timeout"; without an engine, where no time passes, after
 * OFFLINE_MAX_IDLE_ROUNDS rounds that moved nothing).  Each round charges
 * a read of every frame of the range (pb_scan); a round that moved
 * nothing charges OFFLINE_IDLE_SCANS of them, standing for the kernel's
 * tight rescans.  On failure the range is unisolated and stays online,
 * its data where it is (moved pages stay moved).
 *
 * 0; -MM_EBUSY with st->fail_pfn and st->reason; -MM_EINVAL with *err (a
 * g_malloc'ed message naming the numbers) and nothing changed. */
#define OFFLINE_MAX_IDLE_ROUNDS 5
#define OFFLINE_IDLE_SCANS 100
/* The default timeout, as offline_and_remove_memory's. */
#define OFFLINE_TIMEOUT_NS 30000000000ULL
/* offline_pages()'s checks alone: NULL if the top bytes of node nid may
 * be offlined, else the g_malloc'ed message. */
char *offline_pages_check(struct machine *m, unsigned nid, uint64_t bytes);
int offline_pages(struct mm_ctx *ctx, struct machine *m, unsigned nid, uint64_t bytes,
		  uint64_t timeout_ns, struct offline_stats *st, char **err);

#endif
