/* Memory hot-remove (mm/memory_hotplug.c): offline_pages, scan_movable_pages,
 * do_migrate_range, __offline_isolated_pages and remove_pfn_range_from_zone
 * (shrink_zone_span, and under spb the superpageblock array's resize). */
#include "memory_hotplug.h"
#include "buddy.h"
#include "huge_memory.h"
#include "memblock.h"
#include "migrate.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "page_isolation.h"
#include "pcp.h"
#include "superpageblock.h"
#include "watermark.h"

#include <glib.h>

/* The node's highest populated zone: hot-remove takes memory off its top. */
static struct zone *node_top_zone(struct machine *m, unsigned nid)
{
	for (int z = MAX_NR_ZONES - 1; z >= 0; z--)
		if (populated_zone(&m->node_data[nid].node_zones[z]))
			return &m->node_data[nid].node_zones[z];
	return NULL;
}

static unsigned long node_present_pages(struct machine *m, unsigned nid)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		n += m->node_data[nid].node_zones[z].present_pages;
	return n;
}

static bool node_has_cpus(struct machine *m, unsigned nid)
{
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		if (topology_cpu_to_node(&m->topo, cpu) == nid)
			return true;
	return false;
}

static char *offline_check(struct machine *m, unsigned nid, uint64_t bytes, struct zone **zp)
{
	unsigned long nr = (unsigned long)(bytes >> PAGE_SHIFT);
	struct zone *z;

	if (nid >= m->nr_nodes)
		return g_strdup_printf("node %u does not exist (the machine has nodes 0-%u)", nid,
				       m->nr_nodes - 1);
	if (!bytes || bytes % SECTION_SIZE_BYTES)
		return g_strdup_printf("%" G_GUINT64_FORMAT " bytes is not a whole number of "
				       "128 MiB sections", bytes);
	z = node_top_zone(m, nid);
	if (!z)
		return g_strdup_printf("node %u has no memory", nid);
	if (nr >= node_present_pages(m, nid) && node_has_cpus(m, nid))
		return g_strdup_printf("node %u has CPUs: its last %lu MiB cannot go offline",
				       nid, node_present_pages(m, nid) >> (20 - PAGE_SHIFT));
	if (nr >= z->spanned_pages)
		return g_strdup_printf("%" G_GUINT64_FORMAT " MiB is not below the size of node "
				       "%u's top zone (%s, %lu MiB): a zone is not emptied",
				       bytes >> 20, nid, z->name,
				       (unsigned long)z->spanned_pages >> (20 - PAGE_SHIFT));
	*zp = z;
	return NULL;
}

char *offline_pages_check(struct machine *m, unsigned nid, uint64_t bytes)
{
	struct zone *z;

	return offline_check(m, nid, bytes, &z);
}

/* alloc_migration_target() with do_migrate_range's nodemask: every node
 * with memory but the page's own, unless it is the only one. */
static pfn_t alloc_offline_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	const gfp_t gfp = GFP_USER | __GFP_MOVABLE | __GFP_RETRY_MAYFAIL;
	unsigned nid = *(const unsigned *)private;
	nodemask_t all = m->nr_nodes == MAX_NUMNODES ? ~(nodemask_t)0 :
			 (nodemask_of_node(m->nr_nodes) - 1);
	nodemask_t mask = all & ~nodemask_of_node(nid);

	if (!mask)
		mask = nodemask_of_node(nid);
	if (folio_order(m, src))
		return alloc_thp_migration_target(ctx, m, src, thp_migration_gfp(gfp), (int)nid,
						  mask);
	return __alloc_pages_nodemask(ctx, m, gfp, 0, (int)nid, mask, OWNER_NONE, 0);
}

/* scan_movable_pages() and do_migrate_range() over the whole range: the
 * pages moved, or -1 if a huge page that stays whole is found (*fail set
 * to it: the kernel's "unmovable page").  A page left where it is (on no
 * LRU, or its migration failed) sets *stuck and *fail: a later round
 * tries it again. */
static long do_migrate_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
			     unsigned nid, pfn_t *fail, bool *stuck)
{
	GArray *pfns = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	struct migrate_stats stats = { 0 };
	enum migrate_status *st;

	*stuck = false;
	for (pfn_t pfn = start; pfn < end; pfn++) {
		pfn_t head;

		if (page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
			continue;
		/* A THP is isolated whole from whichever of its blocks the
		 * scan meets first (its head may lie before the range). */
		head = thp_head(m, pfn);
		if (head != PFN_NONE) {
			g_array_append_val(pfns, head);
			isolate_migratepage(ctx, m, head);
			pfn = MIN(end, head + (1u << folio_order(m, head))) - 1;
			continue;
		}
		if (!isolate_migratepage(ctx, m, pfn)) {
			*fail = pfn;
			if (page_order(&m->mm, pfn)) {
				g_array_free(pfns, TRUE);
				return -1;
			}
			/* Isolated by someone else, or between unmap and
			 * free: scan_movable_pages skips a page on no LRU. */
			*stuck = true;
			continue;
		}
		g_array_append_val(pfns, pfn);
		pfn += (1u << page_order(&m->mm, pfn)) - 1;
	}
	st = g_new(enum migrate_status, MAX(pfns->len, 1u));
	migrate_pages(ctx, m, (pfn_t *)(void *)pfns->data, pfns->len, alloc_offline_target, NULL,
		      &nid, MIGRATE_SYNC, MR_MEMORY_HOTPLUG, st, &stats);
	putback_movable_pages(ctx, st, pfns->len);
	for (unsigned i = 0; i < pfns->len; i++)
		if (st[i] != MIGRATE_MOVED) {
			*fail = g_array_index(pfns, pfn_t, i);
			*stuck = true;
			break;
		}
	g_free(st);
	g_array_free(pfns, TRUE);
	return (long)stats.nr_succeeded;
}

/* __offline_isolated_pages(): the free blocks of the isolated range leave
 * the buddy; zone->lock held. */
static void __offline_isolated_pages(struct machine *m, struct zone *z, pfn_t start, pfn_t end)
{
	for (pfn_t pfn = start; pfn < end;) {
		unsigned order = page_order(&m->mm, pfn);

		g_assert(PageBuddy(&m->mm, pfn));
		del_page_from_free_list(z, pfn, order, MIGRATE_ISOLATE);
		page_clear(&m->mm, pfn);
		pfn += 1u << order;
	}
}

/* remove_pfn_range_from_zone() with shrink_zone_span(): the zone and node
 * end where the range began, the superpageblock array shrinks with them,
 * and the frames become the node's hotplug reserve again, with no
 * pageblock state (no pcp_buddy owner either): onlining labels them anew.
 * zone->lock held. */
static void remove_pfn_range_from_zone(struct machine *m, struct zone *z, pfn_t start, pfn_t end)
{
	unsigned long nr = end - start;

	z->spanned_pages -= nr;
	z->present_pages -= nr;
	z->managed_pages -= nr;
	m->node_data[z->node].node_spanned_pages -= nr;
	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages) {
		/* The variant's resize (superpageblocks: resize_zone_
		 * superpageblocks()) counts the pageblocks leaving as wholly
		 * free ones.  They are all free, but the series'
		 * bits can lag: page_del_and_expand marks every pageblock of
		 * the block it splits used, also a half that expand gives
		 * back whole and that never merges again.  Such a pageblock
		 * is marked free here, as a merge would. */
		z->ops->free_pageblocks(z, pfn, pageblock_order, MIGRATE_ISOLATE);
		clear_pcpblock_owner(m, pfn);
		m->mm.pb_flags[pfn_to_pb(pfn)] = 0;
	}
	if (z->ops->resize)
		z->ops->resize(z);
}

/* The end of offline_pages() once the range is free: out of the buddy and
 * the zone, then init_per_zone_wmark_min() and zone_pcp_update(). */
static void offline_isolated_pages(struct mm_ctx *ctx, struct machine *m, struct zone *z,
				   pfn_t start, pfn_t end)
{
	zone_lock(ctx, z, SITE_OTHER);
	__offline_isolated_pages(m, z, start, end);
	remove_pfn_range_from_zone(m, z, start, end);
	z->work = (struct mm_work){ 0 };
	zone_unlock(ctx, z);
	m->topo.node_mem[z->node] -= (uint64_t)(end - start) << PAGE_SHIFT;
	init_per_zone_wmark_min(m, m->thp);
	zone_pcp_update(z, 1);
}

/* The kernel says "failure to isolate range" whatever the page; a block
 * that boot reserved (its memmap, most often) can never go, so say that. */
static const char *isolate_failure_reason(struct machine *m, pfn_t pfn)
{
	static const char *const reserved[NR_MEMBLOCK_USES] = {
		[MEMBLOCK_LOW_1M] = "block holds boot reservations (low 1M)",
		[MEMBLOCK_KERNEL_IMAGE] = "block holds boot reservations (kernel image)",
		[MEMBLOCK_MEMMAP] = "block holds boot reservations (memmap)",
		[MEMBLOCK_PERCPU] = "block holds boot reservations (per-CPU areas)",
	};
	uint32_t owner;

	if (pfn == PFN_NONE || page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
		return "failure to isolate range";
	owner = page_owner(m, pfn);
	if (owner_kind(owner) == OWNER_KIND_RESERVED && (owner & OWNER_ID_MASK) < NR_MEMBLOCK_USES)
		return reserved[owner & OWNER_ID_MASK];
	return "failure to isolate range";
}

int offline_pages(struct mm_ctx *ctx, struct machine *m, unsigned nid, uint64_t bytes,
		  uint64_t timeout_ns, struct offline_stats *st, char **err)
{
	struct zone *z = NULL;
	pfn_t start, end;
	unsigned idle = 0;
	uint64_t t0;
	int ret;

	*st = (struct offline_stats){ .fail_pfn = PFN_NONE };
	*err = offline_check(m, nid, bytes, &z);
	if (*err)
		return -MM_EINVAL;
	end = zone_end_pfn(z);
	start = end - (pfn_t)(bytes >> PAGE_SHIFT);
	st->start_pfn = start;
	st->end_pfn = end;
	ret = start_isolate_page_range(ctx, m, start, end, &st->fail_pfn);
	if (ret) {
		st->reason = isolate_failure_reason(m, st->fail_pfn);
		return ret;
	}
	drain_all_pages(ctx, m, z);
	t0 = mm_now(ctx);
	for (;;) {
		uint64_t elapsed = mm_now(ctx) - t0;
		bool stuck;
		long moved;

		/* Where the kernel checks for a fatal signal.  No time passes
		 * without an engine: there idle rounds stand for the timeout. */
		if (fatal_signal_pending()) {
			st->reason = "signal backoff";
			ret = -MM_EINTR;
			break;
		}
		if (st->rounds && (elapsed >= timeout_ns ||
				   (!elapsed && idle == OFFLINE_MAX_IDLE_ROUNDS))) {
			st->reason = "timeout";
			ret = -MM_EBUSY;
			break;
		}
		moved = do_migrate_range(ctx, m, start, end, nid, &st->fail_pfn, &stuck);
		st->rounds++;
		if (moved < 0) {
			st->reason = "unmovable page";
			ret = -MM_EBUSY;
			break;
		}
		st->migrated += (unsigned long)moved;
		/* scan_movable_pages and test_pages_isolated read every frame. */
		mm_charge(ctx, COST_PB_SCAN, end - start);
		if (!stuck && !test_pages_isolated(ctx, m, start, end, &st->fail_pfn)) {
			ret = 0;
			break;
		}
		idle = moved ? 0 : idle + 1;
		/* The kernel rescans at once, again and again; the model looks
		 * once for OFFLINE_IDLE_SCANS of its scans and charges them all. */
		if (!moved)
			mm_charge(ctx, COST_PB_SCAN, (unsigned long)(end - start) * (OFFLINE_IDLE_SCANS - 1));
	}
	if (ret) {
		undo_isolate_page_range(ctx, m, start, end);
		return ret;
	}
	offline_isolated_pages(ctx, m, z, start, end);
	return 0;
}
