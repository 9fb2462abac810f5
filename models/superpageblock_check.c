/* The superpageblock checker (check_superpageblocks), called by
 * check_invariants() for each zone. */
#include "superpageblock_internal.h"
#include "check_report.h"

/* zone_ops' check_free_list: every superpageblock's list of order o and
 * type mt; the zone's own list stays empty and its count shadows theirs. */
uint32_t spb_check_free_list(struct zone *z, struct check_report *r, unsigned o, int mt)
{
	struct free_area *area = &z->free_area[o];
	uint32_t seen = 0;

	if (area->free_list[mt].head != PFN_NONE)
		check_fail(r, "node %u %s: zone order-%u %s list is in use beside superpageblocks",
			   z->node, z->name, o, migratetype_names[mt]);
	for (uint32_t i = 0; i < z->nr_superpageblocks; i++) {
		struct superpageblock *sb = &z->superpageblocks[i];

		seen += check_one_list(z, r, &sb->free_area[o].free_list[mt], o, mt, sb);
	}
	if (seen != area->free_list[mt].nr)
		check_fail(r, "node %u %s: zone order-%u %s shadow count %u, superpageblocks hold "
			   "%u", z->node, z->name, o, migratetype_names[mt], area->free_list[mt].nr,
			   seen);
	return seen;
}

/* Superpageblocks: counters are the popcounts of their pageblocks' bits,
 * nr_free_pages and each area's nr_free match the lists, debugfs invariant
 * 1 holds, a wholly free pageblock is inside a free block of pageblock
 * order or more and carries no usage bits, and every superpageblock with
 * pageblocks is on exactly the zone list its state selects. */
void check_superpageblocks(struct zone *z, struct check_report *r)
{
	struct memmap *mm = &z->machine->mm;
	uint32_t on_lists = 0, with_pbs = 0;
	struct spb_list *lists[NR_ZONE_SPB_LISTS];

	if (!zone_has_spb(z))
		return;
	for (uint32_t i = 0; i < z->nr_superpageblocks; i++) {
		struct superpageblock *sb = &z->superpageblocks[i];
		unsigned cnt[4] = { 0 }, total = 0;
		unsigned long pages = 0;
		pfn_t s, e;

		spb_span(z, sb->start_pfn, &s, &e);
		for (pfn_t pfn = s; pfn < e; pfn += pageblock_nr_pages) {
			uint16_t f = mm->pb_flags[pfn_to_pb(pfn)];

			total++;
			cnt[0] += !!(f & PB_has_unmovable);
			cnt[1] += !!(f & PB_has_reclaimable);
			cnt[2] += !!(f & PB_has_movable);
			cnt[3] += !!(f & PB_all_free);
			if (f & PB_all_free) {
				pfn_t head = pfn;
				unsigned o = pageblock_order;

				while (!PageBuddy(mm, head) && o < MAX_PAGE_ORDER) {
					o++;
					head &= ~((1u << o) - 1);
				}
				if (!PageBuddy(mm, head) || page_order(mm, head) < pageblock_order ||
				    head + (1u << page_order(mm, head)) <= pfn)
					check_fail(r, "node %u %s: pageblock at %#x is "
						"PB_all_free but not in a free block", z->node,
						z->name, pfn);
				if (f & (PB_has_unmovable | PB_has_reclaimable | PB_has_movable))
					check_fail(r, "node %u %s: pageblock at %#x is "
						"PB_all_free with usage bits %#x", z->node, z->name,
						pfn, f);
			}
		}
		if (total != sb->total_pageblocks || cnt[0] != sb->nr_unmovable ||
		    cnt[1] != sb->nr_reclaimable || cnt[2] != sb->nr_movable ||
		    cnt[3] != sb->nr_free)
			check_fail(r, "node %u %s: sb[%u] counts unmov=%u recl=%u mov=%u "
				"free=%u total=%u, pageblock bits say %u %u %u %u %u", z->node,
				z->name, i, sb->nr_unmovable, sb->nr_reclaimable, sb->nr_movable,
				sb->nr_free, sb->total_pageblocks, cnt[0], cnt[1], cnt[2], cnt[3],
				total);
		if ((unsigned)sb->nr_unmovable + sb->nr_reclaimable + sb->nr_movable + sb->nr_free <
		    (unsigned)sb->total_pageblocks - sb->nr_reserved)
			check_fail(r, "node %u %s: sb[%u] types and free undercount the %u "
				"initialised pageblocks", z->node, z->name, i,
				sb->total_pageblocks - sb->nr_reserved);
		for (unsigned o = 0; o < NR_PAGE_ORDERS; o++) {
			unsigned long n = 0;

			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				n += sb->free_area[o].free_list[mt].nr;
			if (n != sb->free_area[o].nr_free)
				check_fail(r, "node %u %s: sb[%u] free_area[%u].nr_free %lu, "
					"lists hold %lu", z->node, z->name, i, o,
					sb->free_area[o].nr_free, n);
			pages += n << o;
		}
		if (pages != sb->nr_free_pages)
			check_fail(r, "node %u %s: sb[%u] nr_free_pages %lu, lists hold %lu",
				z->node, z->name, i, sb->nr_free_pages, pages);
		if (sb->total_pageblocks) {
			with_pbs++;
			if (sb->on_list != spb_target_list(z, sb))
				check_fail(r, "node %u %s: sb[%u] is on the wrong zone list",
					z->node, z->name, i);
		} else if (sb->on_list) {
			check_fail(r, "node %u %s: sb[%u] has no pageblocks but is listed",
				z->node, z->name, i);
		}
	}
	/* Walk the zone lists: each SPB appears once, on the list it names. */
	for (unsigned k = 0, nl = zone_spb_lists(z, lists); k < nl; k++) {
		uint32_t n = 0, prev = SPB_NONE;

		for (uint32_t i = lists[k]->head; i != SPB_NONE;
		     i = z->superpageblocks[i].list_next) {
			struct superpageblock *sb = &z->superpageblocks[i];

			if (++n > z->nr_superpageblocks || i >= z->nr_superpageblocks)
				break;
			if (sb->on_list != lists[k] || sb->list_prev != prev)
				check_fail(r, "node %u %s: zone superpageblock list %u is "
					"corrupt at sb[%u]", z->node, z->name, k, i);
			prev = i;
		}
		if (n != lists[k]->nr || lists[k]->tail != prev)
			check_fail(r, "node %u %s: zone superpageblock list %u holds %u, "
				"count %u", z->node, z->name, k, n, lists[k]->nr);
		on_lists += n;
	}
	if (on_lists != with_pbs)
		check_fail(r, "node %u %s: %u superpageblocks on zone lists, %u have "
			"pageblocks", z->node, z->name, on_lists, with_pbs);
}
