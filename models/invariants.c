#include "invariants.h"
#include "check_report.h"
#include "buddy.h"
#include "fork.h"
#include "mm_space.h"
#include "page_frag.h"
#include "pcp.h"
#include "slub.h"
#include "superpageblock.h"

#include <glib.h>


/* Every free list, as the zone's variant keeps them (zone_ops'
 * check_free_list); counts equal list contents. */
static unsigned long check_free_lists(struct zone *z, struct check_report *r,
				      unsigned long *entries)
{
	unsigned long free_pages = 0, highatomic = 0;

	for (unsigned o = 0; o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &z->free_area[o];
		unsigned long in_area = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			uint32_t seen = z->ops->check_free_list(z, r, o, mt);

			in_area += seen;
			if (mt != MIGRATE_ISOLATE)
				free_pages += (unsigned long)seen << o;
			if (mt == MIGRATE_HIGHATOMIC)
				highatomic += (unsigned long)seen << o;
		}
		if (in_area != area->nr_free)
			check_fail(r, "node %u %s: free_area[%u].nr_free is %lu, lists hold %lu",
				   z->node, z->name, o, area->nr_free, in_area);
		*entries += in_area;
	}
	if (free_pages != zone_page_state(z, NR_FREE_PAGES))
		check_fail(r, "node %u %s: NR_FREE_PAGES is %lu, free lists hold %lu pages",
			   z->node, z->name, zone_page_state(z, NR_FREE_PAGES), free_pages);
	if (highatomic != z->nr_free_highatomic)
		check_fail(r, "node %u %s: nr_free_highatomic is %lu, HighAtomic lists hold %lu",
			   z->node, z->name, z->nr_free_highatomic, highatomic);
	return free_pages;
}

/* Walk the zone block by block: every frame belongs to exactly one block
 * whose head carries its state, so blocks neither overlap nor leave gaps;
 * two free buddies that could merge must have merged. */
static void check_blocks(struct machine *m, struct zone *z, struct check_report *r,
			 unsigned long *buddy_heads, unsigned long *pcp_heads)
{
	struct memmap *mm = &m->mm;
	pfn_t end = zone_end_pfn(z);

	for (pfn_t pfn = z->zone_start_pfn; pfn < end;) {
		enum page_kind kind = page_kind(mm, pfn);
		unsigned o = page_order(mm, pfn);

		if (kind == PG_KIND_NONE) {
			check_fail(r, "node %u %s: pfn %#x belongs to no block", z->node, z->name, pfn);
			pfn++;
			continue;
		}
		if ((pfn & ((1u << o) - 1)) || pfn + (1u << o) > end) {
			check_fail(r, "node %u %s: order-%u block at pfn %#x is misaligned or crosses the "
				   "zone end", z->node, z->name, o, pfn);
			pfn++;
			continue;
		}
		for (pfn_t t = pfn + 1; t < pfn + (1u << o); t++)
			if (page_kind(mm, t) != PG_KIND_NONE || mm->flags[t].aux) {
				check_fail(r, "node %u %s: pfn %#x inside the order-%u block at %#x is "
					   "itself a block head (overlap)", z->node, z->name, t, o, pfn);
				break;
			}
		if (kind != PG_KIND_ALLOC && (mm->flags[pfn].aux & PG_pinned))
			check_fail(r, "node %u %s: pfn %#x is pinned but not allocated", z->node,
				   z->name, pfn);
		*pcp_heads += pcp_check_block(m, z, pfn, r);
		if (kind == PG_KIND_BUDDY) {
			pfn_t buddy = pfn ^ (1u << o);

			(*buddy_heads)++;
			if (o < MAX_PAGE_ORDER && buddy > pfn && zone_spans_pfn(z, buddy) &&
			    PageBuddy(mm, buddy) && page_order(mm, buddy) == o) {
				int a = get_pfnblock_migratetype(mm, pfn);
				int b = get_pfnblock_migratetype(mm, buddy);

				if (o < pageblock_order || a == b ||
				    (migratetype_is_mergeable(a) && migratetype_is_mergeable(b)))
					check_fail(r, "node %u %s: free order-%u buddies %#x and %#x did not "
						   "merge", z->node, z->name, o, pfn, buddy);
			}
		}
		pfn += 1u << o;
	}
}

static void check_pageblocks(struct machine *m, struct zone *z, struct check_report *r)
{
	unsigned long counts[MIGRATE_TYPES] = { 0 }, sum = 0;
	unsigned id = z->node * MAX_NR_ZONES + z->idx;

	for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages) {
		int mt = get_pfnblock_migratetype(&m->mm, pfn);

		if (m->mm.pb_zone[pfn_to_pb(pfn)] != id)
			check_fail(r, "node %u %s: pageblock at pfn %#x is recorded in another zone",
				   z->node, z->name, pfn);
		if (mt >= MIGRATE_TYPES) {
			check_fail(r, "node %u %s: pageblock at pfn %#x has migratetype %d",
				   z->node, z->name, pfn, mt);
			continue;
		}
		counts[mt]++;
	}
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		sum += counts[mt];
	if (sum != (z->spanned_pages + pageblock_nr_pages - 1) / pageblock_nr_pages)
		check_fail(r, "node %u %s: pageblock types add up to %lu, the zone has %u pageblocks",
			   z->node, z->name, sum, (z->spanned_pages + pageblock_nr_pages - 1) /
			   pageblock_nr_pages);
}

char *check_invariants(struct machine *m)
{
	struct check_report r = { g_string_new(NULL), 0 };

	for_each_populated_zone(m, z) {
		unsigned long entries = 0, heads = 0, pcp_heads = 0;

		/* A check of a large machine takes seconds: SIGINT ends it. */
		if (fatal_signal_pending())
			break;
		check_free_lists(z, &r, &entries);
		check_superpageblocks(z, &r);
		check_blocks(m, z, &r, &heads, &pcp_heads);
		check_pageblocks(m, z, &r);
		pcp_check_zone(m, z, pcp_heads, &r);
		if (entries != heads)
			check_fail(&r, "node %u %s: %lu free blocks in memory, %lu on free lists",
				   z->node, z->name, heads, entries);
	}
	char *spaces = mm_check_all(m);
	if (spaces) {
		check_fail(&r, "%s", spaces);
		g_free(spaces);
	}
	char *kernel[] = { slub_check(m), kstack_check(m), page_frag_check(m) };
	for (unsigned i = 0; i < G_N_ELEMENTS(kernel); i++)
		if (kernel[i]) {
			check_fail(&r, "%s", kernel[i]);
			g_free(kernel[i]);
		}
	/* Cut short, the check has not passed. */
	if (fatal_signal_pending())
		check_fail(&r, "check cut short by a signal");
	return check_report_finish(&r);
}
