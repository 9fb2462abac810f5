#include "gbyield.h"
#include "hugetlb.h"
#include "machine.h"
#include "memblock.h"
#include "migrate.h"
#include "pbstat.h"
#include "pcp.h"

const char pb_class_chars[NR_PB_CLASSES] = { '.', 'M', 'R', 'U', 'X', ' ' };

/* Whether GiB r is a region: all memory, all in one zone. */
static bool is_region(struct machine *m, uint32_t r)
{
	pfn_t first = r << GB_REGION_ORDER;
	pfn_t last = first + (pfn_t)(GB_REGION_PAGES - 1);
	struct zone *z;

	if ((uint64_t)last >= m->mm.nr_frames)
		return false;
	/* A zone spans one pfn range: holding both ends is holding it all.
	 * Checking the span, not just the zone ids, leaves out memmap room
	 * no zone spans (for hotplug). */
	z = pfn_zone(m, first);
	return zone_spans_pfn(z, first) && zone_spans_pfn(z, last);
}

/* Whether GiB r holds a boot reservation (few ranges: a scan of them). */
static bool region_reserved(const struct machine *m, uint32_t r)
{
	pfn_t first = (pfn_t)r << GB_REGION_ORDER, end = first + (pfn_t)GB_REGION_PAGES;

	for (unsigned i = 0; i < m->nr_memblock_reserved; i++) {
		const struct memblock_region *mr = &m->memblock_reserved[i];

		if (mr->base < end && first < mr->base + mr->size)
			return true;
	}
	return false;
}

void gb_yield(struct machine *m, struct gb_yield *y)
{
	gb_yield_node(m, -1, y);
}

void gb_yield_node(struct machine *m, int nid, struct gb_yield *y)
{
	const struct pbstat *ps = m->pbstat;

	*y = (struct gb_yield){ 0 };
	for (uint32_t r = 0; r < ps->nr_regions; r++) {
		const uint32_t *c = ps->region[r];

		if (!is_region(m, r) ||
		    (nid >= 0 && pfn_zone(m, r << GB_REGION_ORDER)->node != (unsigned)nid))
			continue;
		y->total_regions++;
		y->possible += !region_reserved(m, r);
		if (c[PBSTAT_UNMOVABLE] || c[PBSTAT_RECLAIMABLE])
			continue;
		y->movable_only++;
		y->free_now += !c[PBSTAT_MOVABLE] && !c[PBSTAT_PCP];
	}
}

void gb_yield_attempt(struct mm_ctx *ctx, struct machine *m, int node, struct gb_attempt *a)
{
	GArray *got = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	struct migrate_stats st = { 0 };
	uint64_t start = mm_now(ctx);

	for (unsigned nid = 0; nid < m->nr_nodes; nid++) {
		pfn_t pfn;

		if (node >= 0 && nid != (unsigned)node)
			continue;
		while ((pfn = alloc_gigantic_folio(ctx, m, (int)nid, &st)) != PFN_NONE)
			g_array_append_val(got, pfn);
	}
	for (unsigned i = 0; i < got->len; i++)
		free_gigantic_folio(ctx, m, g_array_index(got, pfn_t, i));
	a->obtained = got->len;
	a->pages_migrated = st.nr_succeeded;
	a->time_ns = mm_now(ctx) - start;
	g_array_free(got, TRUE);
}

enum pb_class pageblock_class(struct machine *m, uint32_t pb)
{
	static const enum pb_class single[MIGRATE_PCPTYPES] = {
		[MIGRATE_UNMOVABLE] = PB_CLASS_UNMOVABLE,
		[MIGRATE_MOVABLE] = PB_CLASS_MOVABLE,
		[MIGRATE_RECLAIMABLE] = PB_CLASS_RECLAIMABLE,
	};
	const uint16_t *c;
	enum pb_class cls = PB_CLASS_FREE;

	if (pb >= m->pbstat->nr_pageblocks ||
	    !zone_spans_pfn(pfn_zone(m, pb << pageblock_order), pb << pageblock_order) ||
	    (m->mm.pb_flags[pb] & PB_hole))
		return PB_CLASS_NONE;
	c = m->pbstat->pb[pb];
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		if (!c[mt])
			continue;
		if (cls != PB_CLASS_FREE)
			return PB_CLASS_MIXED;
		cls = single[mt];
	}
	return cls;
}

void gb_memory_map_matrix(struct machine *m, GString *out,
			  unsigned long counts[NR_PB_CLASSES])
{
	const struct pbstat *ps = m->pbstat;

	g_string_append_printf(out, "# mmsim memory map: one row per GiB of physical memory from "
			       "pfn 0, one column per %u KiB pageblock\n",
			       pageblock_nr_pages * (unsigned)(PAGE_SIZE >> 10));
	g_string_append(out, "# 0 free (pcp pages count as free), 1 movable, 2 reclaimable, "
			"3 unmovable, 4 mixed, 5 no memory\n");
	for (uint32_t r = 0; r < ps->nr_regions; r++) {
		for (uint32_t i = 0; i < PAGEBLOCKS_PER_GB_REGION; i++) {
			enum pb_class cls = pageblock_class(m, r * PAGEBLOCKS_PER_GB_REGION + i);

			if (counts)
				counts[cls]++;
			g_string_append_c(out, (char)('0' + cls));
			g_string_append_c(out, i + 1 < PAGEBLOCKS_PER_GB_REGION ? ' ' : '\n');
		}
	}
}

void gb_memory_map_gib(struct machine *m, GString *out)
{
	/* How far a class keeps a GiB from a 1 GiB page: the worst wins. */
	static const int rank[NR_PB_CLASSES] = {
		[PB_CLASS_NONE] = 0, [PB_CLASS_FREE] = 1, [PB_CLASS_MOVABLE] = 2,
		[PB_CLASS_RECLAIMABLE] = 3, [PB_CLASS_MIXED] = 4, [PB_CLASS_UNMOVABLE] = 5,
	};

	g_string_append(out, "# mmsim memory map by GiB: gib worst free movable reclaimable "
			"unmovable mixed none (worst: the class codes of memmap.dat)\n");
	for (uint32_t r = 0; r < m->pbstat->nr_regions; r++) {
		unsigned long n[NR_PB_CLASSES] = { 0 };
		enum pb_class w = PB_CLASS_NONE;

		for (uint32_t i = 0; i < PAGEBLOCKS_PER_GB_REGION; i++) {
			enum pb_class cls = pageblock_class(m, r * PAGEBLOCKS_PER_GB_REGION + i);

			n[cls]++;
			if (rank[cls] > rank[w])
				w = cls;
		}
		g_string_append_printf(out, "%u %d", r, (int)w);
		for (int c = 0; c < NR_PB_CLASSES; c++)
			g_string_append_printf(out, " %lu", n[c]);
		g_string_append_c(out, '\n');
	}
}

static void append_tic(GString *out, const GString *label, long row)
{
	g_string_append_printf(out, "%s\"%s\" %ld", out->len ? ", " : "", label->str, row);
}

void gb_memory_map_tics(struct machine *m, GString *out)
{
	GString *label = g_string_new(NULL);
	/* Two-line labels closer than 1/10 of the map would overlap (on a
	 * 64 GiB map DMA32 and Normal start 4 rows, 28 pixels, apart). */
	long near = (long)(m->pbstat->nr_regions / 10), row = -1;
	unsigned node = 0;

	for_each_populated_zone(m, z) {
		long r = (long)(z->zone_start_pfn >> GB_REGION_ORDER);

		/* Zones starting in the same row or near it share a label: "+"
		 * within a node, two more lines for the next node (a gnuplot
		 * "\n" each). */
		if (row >= 0 && r - row <= near) {
			if (z->node == node)
				g_string_append_printf(label, "+%s", z->name);
			else
				g_string_append_printf(label, "\\nnode %u\\n%s", z->node, z->name);
			node = z->node;
			continue;
		}
		if (row >= 0)
			append_tic(out, label, row);
		g_string_printf(label, "node %u\\n%s", z->node, z->name);
		row = r;
		node = z->node;
	}
	if (row >= 0)
		append_tic(out, label, row);
	g_string_free(label, TRUE);
}

void pageblock_spread(struct machine *m, struct pageblock_spread *out)
{
	const struct pbstat *ps = m->pbstat;
	uint16_t *reserved = g_new0(uint16_t, ps->nr_pageblocks);

	*out = (struct pageblock_spread){ .pageblocks = ps->nr_pageblocks,
					  .regions = ps->nr_regions };
	for (unsigned i = 0; i < m->nr_memblock_reserved; i++) {
		const struct memblock_region *r = &m->memblock_reserved[i];

		for (pfn_t pfn = r->base; pfn < r->base + r->size;) {
			pfn_t end = MIN(r->base + r->size, (pfn_to_pb(pfn) + 1) << pageblock_order);

			reserved[pfn_to_pb(pfn)] += (uint16_t)(end - pfn);
			pfn = end;
		}
		out->reserved_pages += r->size;
	}
	for (uint32_t pb = 0; pb < ps->nr_pageblocks; pb++) {
		unsigned un = ps->pb[pb][PBSTAT_UNMOVABLE], rec = ps->pb[pb][PBSTAT_RECLAIMABLE];

		out->unmovable_pages += un;
		out->reclaimable_pages += rec;
		out->unmovable_pageblocks += un > 0;
		out->nonmovable_pageblocks += un + rec > 0;
		out->runtime_unmovable_pageblocks += un > reserved[pb];
		out->runtime_nonmovable_pageblocks += un + rec > reserved[pb];
	}
	out->runtime_unmovable_pages = out->unmovable_pages - out->reserved_pages;
	for (uint32_t r = 0; r < ps->nr_regions; r++)
		out->unmovable_regions += ps->region[r][PBSTAT_UNMOVABLE] > 0;
	g_free(reserved);
}
