/* The per-CPU pageset checker: list contents, counts and block ownership
 * agree with each other and with the memmap. */
#include "pcp.h"
#include "check_report.h"

unsigned pcp_check_block(struct machine *m, struct zone *z, pfn_t pfn, struct check_report *r)
{
	struct memmap *mm = &m->mm;
	enum page_kind kind = page_kind(mm, pfn);
	unsigned o = page_order(mm, pfn);

	if (kind != PG_KIND_PCP && (mm->flags[pfn].aux & PG_pcp_buddy))
		check_fail(r, "node %u %s: pfn %#x is PagePCPBuddy but not on a per-CPU list",
			   z->node, z->name, pfn);
	/* A block whole again in the zone buddy has lost its owner. */
	if (kind == PG_KIND_BUDDY && o >= pageblock_order &&
	    (get_pcpblock_owner(m, pfn) >= 0 || get_pcpblock_owner(m, pfn + (1u << o) - 1) >= 0))
		check_fail(r, "node %u %s: whole free block at pfn %#x is still owned by a CPU",
			   z->node, z->name, pfn);
	return kind == PG_KIND_PCP;
}

/* One CPU's pageset: its entries, the pages they hold against pcp->count,
 * its owned_blocks.  Returns the entries; adds the blocks listed as owned
 * to *listed_blocks. */
static unsigned long check_one_pcp(struct machine *m, struct zone *z, unsigned cpu,
				   struct check_report *r, unsigned long *listed_blocks)
{
	struct memmap *mm = &m->mm;
	struct per_cpu_pages *pcp = zone_pcp(z, cpu);
	unsigned long entries = 0;
	long pages = 0;

	for (unsigned i = 0; i < nr_pcp_lists(m); i++) {
		struct pfn_list *l = &pcp->lists[i];
		unsigned order = pindex_to_order(m, i);
		uint32_t seen = 0;

		for (pfn_t p = l->head; p != PFN_NONE; p = pfn_list_next(mm, l, p)) {
			if (++seen > l->nr + 1)
				break;
			if (page_kind(mm, p) != PG_KIND_PCP || page_order(mm, p) != order ||
			    order_to_pindex(m, (int)page_extra(mm, p), order) != i)
				check_fail(r, "node %u %s: pfn %#x on CPU %u's list %u is not a "
					   "per-CPU block of order %u", z->node, z->name, p, cpu, i,
					   order);
			if (!zone_spans_pfn(z, p))
				check_fail(r, "node %u %s: pfn %#x on CPU %u's pageset is outside the "
					   "zone", z->node, z->name, p, cpu);
			if (PagePCPBuddy(m, p) && get_pcpblock_owner(m, p) != (int)cpu)
				check_fail(r, "node %u %s: PagePCPBuddy pfn %#x is on CPU %u but its "
					   "block belongs to CPU %d", z->node, z->name, p, cpu,
					   get_pcpblock_owner(m, p));
			pages += 1L << order;
		}
		if (seen != l->nr)
			check_fail(r, "node %u %s: CPU %u list %u holds %u blocks, count says %u",
				   z->node, z->name, cpu, i, seen, l->nr);
		entries += seen;
	}
	if (pages != pcp->count)
		check_fail(r, "node %u %s: CPU %u pcp->count is %d, its lists hold %ld pages",
			   z->node, z->name, cpu, pcp->count, pages);
	for (uint32_t pb = pcp->owned_blocks.head; pb != UINT32_MAX; pb = mm->pb_cpu_next[pb]) {
		pfn_t base = (pfn_t)pb << pageblock_order;

		if (++*listed_blocks > mm->nr_pageblocks)
			break;
		if (!zone_spans_pfn(z, base) || get_pcpblock_owner(m, base) != (int)cpu ||
		    !(mm->pb_flags[pb] & PB_on_cpu_list))
			check_fail(r, "node %u %s: pageblock at %#x on CPU %u's owned_blocks is "
				   "owned by %d", z->node, z->name, base, cpu,
				   get_pcpblock_owner(m, base));
	}
	return entries;
}

void pcp_check_zone(struct machine *m, struct zone *z, unsigned long pcp_heads,
		    struct check_report *r)
{
	struct memmap *mm = &m->mm;
	unsigned long entries = 0, listed_blocks = 0, flagged_blocks = 0;

	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		entries += check_one_pcp(m, z, cpu, r, &listed_blocks);
	for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages)
		flagged_blocks += (mm->pb_flags[pfn_to_pb(pfn)] & PB_on_cpu_list) != 0;
	if (flagged_blocks != listed_blocks)
		check_fail(r, "node %u %s: %lu pageblocks marked as on an owned_blocks list, %lu listed",
			   z->node, z->name, flagged_blocks, listed_blocks);
	if (entries != pcp_heads)
		check_fail(r, "node %u %s: %lu per-CPU blocks in memory, %lu on per-CPU lists",
			   z->node, z->name, pcp_heads, entries);
}
