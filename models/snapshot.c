/* Importing a captured machine (snapshot.h).  The kernel keeps no record
 * that says which pages an imported frame belonged to, so the import
 * decides from the flags and then makes the counts the kernel printed
 * hold: the free blocks are the buddy heads the flags show, their orders
 * chosen so that buddyinfo comes out exactly; the pageblock types are
 * inferred from the pages in each block and then assigned so that
 * pagetypeinfo's block counts come out exactly. */
#include "snapshot.h"

#include "buddy.h"
#include "huge_memory.h"
#include "hugetlb.h"
#include "memblock.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "page_cache.h"
#include "pbstat.h"
#include "pcp.h"
#include "slub.h"
#include "superpageblock.h"
#include "watermark.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLS(s, pfn) ((enum snap_class)((s)->cls[pfn] & 0x0f))
#define FREE_ORDER(s, pfn) ((unsigned)((s)->cls[pfn] >> 4))

char *snapshot_init(struct snapshot *s, pfn_t nr_frames)
{
	memset(s, 0, sizeof(*s));
	if (!nr_frames)
		return g_strdup("the capture's kpageflags is empty");
	s->cls = g_try_malloc0(nr_frames);
	if (!s->cls)
		return g_strdup_printf("cannot allocate %" G_GUINT64_FORMAT " bytes for the frames' "
				       "classes", (guint64)nr_frames);
	s->nr_frames = nr_frames;
	return NULL;
}

void snapshot_destroy(struct snapshot *s)
{
	g_free(s->cls);
	s->cls = NULL;
}

static enum snap_class classify(struct snapshot *s, uint64_t f)
{
	enum snap_class c;

#define BIT(k) ((f >> (k)) & 1)
	if (f & ~SNAP_KNOWN_FLAGS) {
		s->flags_unknown++;
		s->unknown_bits |= f & ~SNAP_KNOWN_FLAGS;
	}
	if (BIT(KPF_NOPAGE) || BIT(KPF_OFFLINE))
		c = SNAP_HOLE;
	else if (BIT(KPF_BUDDY))
		c = SNAP_BUDDY;
	else if (BIT(KPF_SLAB))
		c = BIT(KPF_COMPOUND_TAIL) ? SNAP_SLAB_TAIL : SNAP_SLAB;
	else if (BIT(KPF_PGTABLE))
		c = SNAP_PGTABLE;
	else if (BIT(KPF_RESERVED))
		c = SNAP_RESERVED;
	else if (BIT(KPF_HUGE))
		c = SNAP_HUGETLB;
	else if (BIT(KPF_ANON))
		c = BIT(KPF_THP) ? SNAP_ANON_THP : SNAP_ANON;
	else if (BIT(KPF_LRU))
		c = SNAP_FILE;
	else if (BIT(KPF_COMPOUND_TAIL))
		c = s->last_head;
	else if (!f)
		c = SNAP_NONE;
	else
		c = SNAP_KERNEL;
	if (BIT(KPF_COMPOUND_HEAD))
		s->last_head = c;
#undef BIT
	return c;
}

void snapshot_feed_flags(struct snapshot *s, const uint64_t *flags, size_t n)
{
	for (size_t i = 0; i < n && s->fed < s->nr_frames; i++)
		s->cls[s->fed++] = (uint8_t)classify(s, flags[i]);
}

/* ---- the text files ---- */

static struct snap_zone *find_zone(struct snapshot *s, unsigned nid, const char *name, bool add)
{
	int idx = -1;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (!strcmp(zone_names[z], name))
			idx = z;
	if (idx < 0)
		return NULL;
	for (unsigned i = 0; i < s->nr_zones; i++)
		if (s->zones[i].nid == nid && (int)s->zones[i].idx == idx)
			return &s->zones[i];
	if (!add || s->nr_zones == G_N_ELEMENTS(s->zones) || nid >= MAX_NUMNODES)
		return NULL;
	s->zones[s->nr_zones] = (struct snap_zone){ .nid = nid, .idx = (enum zone_type)idx };
	return &s->zones[s->nr_zones++];
}

/* "Node N, zone NAME" at the start of line; the rest after it. */
static const char *zone_header(const char *line, unsigned *nid, char name[16])
{
	int used = 0;

	if (sscanf(line, "Node %u, zone %15s%n", nid, name, &used) != 2)
		return NULL;
	return line + used;
}

char *snapshot_parse_zoneinfo(struct snapshot *s, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	struct snap_zone *z = NULL;
	unsigned long v;
	char key[64];

	for (unsigned i = 0; lines[i]; i++) {
		unsigned nid;
		char name[16];

		if (zone_header(lines[i], &nid, name)) {
			z = find_zone(s, nid, name, true);
			if (!z)
				return g_strdup_printf("zoneinfo line %u: unknown zone '%s' of node %u",
						       i + 1, name, nid);
			continue;
		}
		if (!z)
			continue;
		if (sscanf(lines[i], " start_pfn: %lu", &v) == 1)
			z->start = (pfn_t)v;
		else if (sscanf(lines[i], " %63s %lu", key, &v) == 2) {
			if (!strcmp(key, "spanned"))
				z->spanned = (pfn_t)v;
			else if (!strcmp(key, "present"))
				z->present = (pfn_t)v;
			else if (!strcmp(key, "managed"))
				z->managed = (pfn_t)v;
			else if (!strcmp(key, "nr_free_pages"))
				z->free_pages = v;
		}
	}
	if (!s->nr_zones)
		return g_strdup("zoneinfo names no zone");
	return NULL;
}

char *snapshot_parse_buddyinfo(struct snapshot *s, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (unsigned i = 0; lines[i]; i++) {
		unsigned nid;
		char name[16];
		const char *rest = zone_header(lines[i], &nid, name);
		struct snap_zone *z;
		char *end;

		if (!rest) {
			if (*g_strstrip(lines[i]))
				return g_strdup_printf("buddyinfo line %u: not \"Node N, zone NAME "
						       "counts\"", i + 1);
			continue;
		}
		z = find_zone(s, nid, name, false);
		if (!z)
			return g_strdup_printf("buddyinfo line %u: node %u zone %s is not in "
					       "zoneinfo", i + 1, nid, name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++) {
			z->buddy[o] = strtoul(rest, &end, 10);
			if (end == rest)
				return g_strdup_printf("buddyinfo line %u: %d orders, not %d (a kernel "
						       "with another MAX_PAGE_ORDER)", i + 1, o,
						       NR_PAGE_ORDERS);
			rest = end;
		}
		if (strtoul(rest, &end, 10), end != rest)
			return g_strdup_printf("buddyinfo line %u: more than %d orders (a kernel with "
					       "another MAX_PAGE_ORDER)", i + 1, NR_PAGE_ORDERS);
	}
	return NULL;
}

char *snapshot_parse_pagetypeinfo(struct snapshot *s, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	int column[MIGRATE_TYPES + 2];
	int nr_columns = -1;

	for (unsigned i = 0; lines[i]; i++) {
		unsigned nid;
		char name[16];
		const char *rest;

		if (g_str_has_prefix(lines[i], "Number of blocks type")) {
			g_auto(GStrv) names = g_strsplit_set(lines[i] + 21, " \t", -1);

			nr_columns = 0;
			for (unsigned k = 0; names[k]; k++) {
				int mt = -1;

				if (!*names[k])
					continue;
				for (int t = 0; t < MIGRATE_TYPES; t++)
					if (!strcmp(migratetype_names[t], names[k]))
						mt = t;
				if (mt < 0 || nr_columns == (int)G_N_ELEMENTS(column))
					return g_strdup_printf("pagetypeinfo line %u: unknown migratetype "
							       "'%s'", i + 1, names[k]);
				column[nr_columns++] = mt;
			}
			continue;
		}
		if (nr_columns < 0 || !(rest = zone_header(lines[i], &nid, name)))
			continue;
		struct snap_zone *z = find_zone(s, nid, name, false);

		if (!z)
			return g_strdup_printf("pagetypeinfo line %u: node %u zone %s is not in "
					       "zoneinfo", i + 1, nid, name);
		for (int c = 0; c < nr_columns; c++) {
			char *end;

			z->blocks[column[c]] = strtoul(rest, &end, 10);
			if (end == rest)
				return g_strdup_printf("pagetypeinfo line %u: %d block counts, the "
						       "header names %d", i + 1, c, nr_columns);
			rest = end;
		}
	}
	if (nr_columns < 0)
		return g_strdup("pagetypeinfo has no \"Number of blocks type\" table");
	return NULL;
}

static pfn_t zone_limit_start(enum zone_type idx)
{
	return idx == ZONE_DMA ? 0 : idx == ZONE_DMA32 ? DMA_LIMIT_PFN : DMA32_LIMIT_PFN;
}

char *snapshot_topology(const struct snapshot *s, struct topology *t)
{
	pfn_t node_end[MAX_NUMNODES] = { 0 }, node_movable[MAX_NUMNODES] = { 0 };
	unsigned nr_nodes = 0;

	for (unsigned i = 0; i < s->nr_zones; i++) {
		const struct snap_zone *z = &s->zones[i];
		pfn_t end = z->start + z->spanned;

		if (!z->spanned)
			continue;
		if (z->idx == ZONE_DEVICE)
			return g_strdup_printf("node %u has ZONE_DEVICE memory, which the model does "
					       "not have", z->nid);
		/* The model's zones sit at the x86-64 limits, the Movable zone
		 * at a node's top. */
		if (z->idx != ZONE_MOVABLE &&
		    (z->start < zone_limit_start(z->idx) ||
		     (z->idx < ZONE_NORMAL && end > (z->idx == ZONE_DMA ? DMA_LIMIT_PFN :
						    DMA32_LIMIT_PFN))))
			return g_strdup_printf("node %u zone %s spans pfns %" G_GUINT64_FORMAT " to "
					       "%" G_GUINT64_FORMAT ", outside the x86-64 limits of "
					       "that zone (a capture from another architecture?)",
					       z->nid, zone_names[z->idx], (guint64)z->start,
					       (guint64)end);
		if (end > s->nr_frames)
			return g_strdup_printf("node %u zone %s ends at pfn %" G_GUINT64_FORMAT " but "
					       "kpageflags covers %" G_GUINT64_FORMAT " frames: the "
					       "files are from different machines", z->nid,
					       zone_names[z->idx], (guint64)end, (guint64)s->nr_frames);
		node_end[z->nid] = MAX(node_end[z->nid], end);
		if (z->idx == ZONE_MOVABLE)
			node_movable[z->nid] = z->spanned;
		nr_nodes = MAX(nr_nodes, z->nid + 1);
	}
	if (!nr_nodes)
		return g_strdup("zoneinfo gives no zone with memory");
	if (nr_nodes != t->nr_nodes)
		return g_strdup_printf("zoneinfo has %u nodes with memory, the node directories "
				       "%u", nr_nodes, t->nr_nodes);
	for (unsigned n = 0; n < nr_nodes; n++) {
		pfn_t start = n ? node_end[n - 1] : 0;

		for (unsigned i = 0; i < s->nr_zones; i++)
			if (s->zones[i].nid == n && s->zones[i].spanned && s->zones[i].start < start)
				return g_strdup_printf("node %u starts at pfn %" G_GUINT64_FORMAT ", "
						       "inside node %u: the model lays nodes out one "
						       "after the other", n,
						       (guint64)s->zones[i].start, n - 1);
		if (node_end[n] <= start || (node_end[n] - start) % PAGES_PER_SECTION)
			return g_strdup_printf("node %u spans %" G_GUINT64_FORMAT " pages from pfn "
					       "%" G_GUINT64_FORMAT ": not a whole number of 128 MiB "
					       "sections", n, (guint64)(node_end[n] - start),
					       (guint64)start);
		t->node_mem[n] = (uint64_t)(node_end[n] - start) << PAGE_SHIFT;
		t->movable_mem[n] = (uint64_t)node_movable[n] << PAGE_SHIFT;
	}
	return NULL;
}

/* ---- choosing the free blocks ---- */

static struct snap_zone *snap_zone_of(struct snapshot *s, struct zone *z)
{
	return find_zone(s, z->node, z->name, false);
}

/* The largest order a buddy head at pfn can have: aligned, inside the
 * zone, and no flagged frame inside. */
static unsigned head_max_order(const struct snapshot *s, pfn_t pfn, pfn_t end)
{
	unsigned order = 0;

	while (order < MAX_PAGE_ORDER && !(pfn & ((2u << order) - 1)) &&
	       pfn + (2u << order) <= end) {
		pfn_t next = pfn + (1u << order);
		bool clear = true;

		for (pfn_t p = next; p < next + (1u << order); p++)
			if (CLS(s, p) != SNAP_NONE) {
				clear = false;
				break;
			}
		if (!clear)
			break;
		order++;
	}
	return order;
}

static void set_free(struct snapshot *s, pfn_t pfn, unsigned order)
{
	s->cls[pfn] = (uint8_t)(SNAP_FREE | order << 4);
	for (pfn_t p = pfn + 1; p < pfn + (1u << order); p++)
		s->cls[p] = SNAP_FREE;
}

/* Whether a free block of this order at pfn would merge with its buddy. */
static bool buddy_is_free(const struct snapshot *s, pfn_t pfn, unsigned order, pfn_t lo, pfn_t hi)
{
	pfn_t buddy = pfn ^ (1u << order);

	/* A larger free block holding the buddy would hold pfn too: a free
	 * frame there with this order is the head of a block of this order. */
	return order < MAX_PAGE_ORDER && buddy >= lo && buddy < hi &&
	       CLS(s, buddy) == SNAP_FREE && FREE_ORDER(s, buddy) == order;
}

/* The free blocks of zone [lo, hi) with buddyinfo's counts: each buddy
 * head at its largest order (or, where every free page is flagged, the
 * runs of free pages in buddy blocks), then, from the top order down, the surplus
 * halved (the upper half taken as allocated) and a shortfall made up from
 * unflagged runs.  Returns the blocks that did not come out, by order. */
static void choose_free_blocks(struct snapshot *s, const struct snap_zone *sz, pfn_t lo, pfn_t hi,
			       long miss[NR_PAGE_ORDERS], unsigned long *made_up)
{
	GArray *heads[NR_PAGE_ORDERS];

	unsigned long flagged = 0, blocks = 0;

	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		heads[o] = g_array_new(FALSE, FALSE, sizeof(pfn_t));
		blocks += sz->buddy[o];
	}
	for (pfn_t pfn = lo; pfn < hi; pfn++)
		flagged += CLS(s, pfn) == SNAP_BUDDY;
	if (flagged > blocks + blocks / 2) {
		/* Every free page flagged (kernels whose KPF_BUDDY reads the
		 * folio): the blocks are the runs split as the buddy keeps
		 * them, each aligned block as large as it can be; the tails
		 * become unflagged, as older kernels show them. */
		for (pfn_t pfn = lo; pfn < hi;) {
			unsigned order = 0;

			if (CLS(s, pfn) != SNAP_BUDDY) {
				pfn++;
				continue;
			}
			while (order < MAX_PAGE_ORDER && !(pfn & ((2u << order) - 1)) &&
			       pfn + (2u << order) <= hi) {
				bool run = true;

				for (pfn_t p = pfn + (1u << order); p < pfn + (2u << order) && run; p++)
					run = CLS(s, p) == SNAP_BUDDY;
				if (!run)
					break;
				order++;
			}
			g_array_append_val(heads[order], pfn);
			memset(s->cls + pfn + 1, SNAP_NONE, (1u << order) - 1);
			pfn += 1u << order;
		}
	} else {
		for (pfn_t pfn = lo; pfn < hi; pfn++)
			if (CLS(s, pfn) == SNAP_BUDDY) {
				unsigned order = head_max_order(s, pfn, hi);

				g_array_append_val(heads[order], pfn);
			}
	}
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		unsigned long want = sz->buddy[o];

		while (heads[o]->len > want) {
			pfn_t pfn = g_array_index(heads[o], pfn_t, heads[o]->len - 1);

			g_array_set_size(heads[o], heads[o]->len - 1);
			if (o > 0)
				g_array_append_val(heads[o - 1], pfn);
			else
				s->cls[pfn] = SNAP_NONE;
		}
		for (unsigned i = 0; i < heads[o]->len; i++)
			set_free(s, g_array_index(heads[o], pfn_t, i), (unsigned)o);
		/* Short: unflagged aligned runs whose buddy is not free. */
		for (pfn_t pfn = lo; heads[o]->len < want && pfn + (1u << o) <= hi;
		     pfn += 1u << o) {
			bool clear = true;

			for (pfn_t p = pfn; p < pfn + (1u << o); p++)
				if (CLS(s, p) != SNAP_NONE) {
					clear = false;
					break;
				}
			if (!clear || buddy_is_free(s, pfn, (unsigned)o, lo, hi))
				continue;
			set_free(s, pfn, (unsigned)o);
			g_array_append_val(heads[o], pfn);
			(*made_up)++;
		}
		miss[o] = (long)want - (long)heads[o]->len;
		g_array_free(heads[o], TRUE);
	}
}

/* ---- pageblock types ---- */

struct pb_score {
	pfn_t pfn;
	unsigned unmovable, slab;
};

static gint pb_score_cmp(gconstpointer a, gconstpointer b)
{
	const struct pb_score *x = a, *y = b;

	if (x->unmovable != y->unmovable)
		return x->unmovable > y->unmovable ? -1 : 1;
	if (x->slab != y->slab)
		return x->slab > y->slab ? -1 : 1;
	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* Hugetlb pages are not: alloc_contig_range leaves their pageblocks'
 * type as it found it, MOVABLE on most. */
static bool unmovable_class(enum snap_class c)
{
	return c == SNAP_SLAB || c == SNAP_SLAB_TAIL || c == SNAP_PGTABLE || c == SNAP_RESERVED ||
	       c == SNAP_KERNEL || c == SNAP_NONE;
}

/* The zone's pageblocks with memory get pagetypeinfo's counts: the ones
 * with the most unmovable pages are UNMOVABLE, then RECLAIMABLE (most
 * slab first), then HIGHATOMIC and CMA, the rest MOVABLE.  ISOLATE, a
 * passing state, counts as MOVABLE.  Returns the blocks with memory. */
static unsigned long assign_pageblock_types(struct machine *m, struct snapshot *s,
					    const struct snap_zone *sz, pfn_t lo, pfn_t hi,
					    GString *notes, const char *where)
{
	GArray *blocks = g_array_new(FALSE, FALSE, sizeof(struct pb_score));
	unsigned long want[MIGRATE_TYPES], total = 0;
	static const int order[] = { MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_HIGHATOMIC,
				     MIGRATE_CMA };
	unsigned k = 0;

	for (pfn_t pfn = lo; pfn < hi; pfn += pageblock_nr_pages) {
		struct pb_score b = { .pfn = pfn };
		bool memory = false;

		for (pfn_t p = pfn; p < pfn + pageblock_nr_pages; p++) {
			enum snap_class c = CLS(s, p);

			memory |= c != SNAP_HOLE;
			b.unmovable += unmovable_class(c);
			b.slab += c == SNAP_SLAB || c == SNAP_SLAB_TAIL;
		}
		if (memory)
			g_array_append_val(blocks, b);
	}
	g_array_sort(blocks, pb_score_cmp);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		want[mt] = sz->blocks[mt];
		total += want[mt];
	}
	if (total != blocks->len)
		g_string_append_printf(notes, "%s: pagetypeinfo counts %lu pageblocks, the zone "
				       "has %u with memory: the counts are kept in proportion\n",
				       where, total, blocks->len);
	for (unsigned i = 0; i < G_N_ELEMENTS(order); i++) {
		unsigned long n = total ? want[order[i]] * blocks->len / total : 0;

		for (unsigned long j = 0; j < n && k < blocks->len; j++, k++)
			set_pageblock_migratetype(&m->mm, g_array_index(blocks, struct pb_score, k).pfn,
						  order[i]);
	}
	for (; k < blocks->len; k++)
		set_pageblock_migratetype(&m->mm, g_array_index(blocks, struct pb_score, k).pfn,
					  MIGRATE_MOVABLE);
	total = blocks->len;
	g_array_free(blocks, TRUE);
	return total;
}

/* ---- putting the frames in place ---- */

/* The frames waiting for a synthetic process or file, found by class:
 * each pool walks its node's frames once, from a cursor. */
/* The slab pools: one per slab order up to slub_max_order, unmovable
 * then reclaimable (the pageblock's type says which). */
enum pool_kind { POOL_ANON, POOL_THP, POOL_FILE, POOL_PGTABLE, POOL_SPARE, POOL_SLAB,
		 NR_POOLS = POOL_SLAB + 2 * (SLUB_MAX_ORDER + 1) };
static const enum snap_class pool_class[POOL_SLAB] = { SNAP_ANON, SNAP_ANON_THP, SNAP_FILE,
							SNAP_PGTABLE, SNAP_NONE };

static enum pool_kind slab_pool(unsigned order, bool reclaimable)
{
	return (enum pool_kind)(POOL_SLAB + 2 * order + reclaimable);
}

/* The order of the slab whose first page is pfn (its tails follow it),
 * or -1 if they do not make one the allocator could have given. */
static int slab_order(const struct snapshot *s, pfn_t pfn, pfn_t hi)
{
	pfn_t end = pfn + 1;

	while (end < hi && end - pfn <= (1u << SLUB_MAX_ORDER) && CLS(s, end) == SNAP_SLAB_TAIL)
		end++;
	unsigned long n = end - pfn;

	if (n > (1u << SLUB_MAX_ORDER) || (n & (n - 1)) || (pfn & (n - 1)))
		return -1;
	return __builtin_ctzl(n);
}

struct snapshot_pools {
	const struct snapshot *s;
	pfn_t cursor[NR_POOLS][MAX_NUMNODES];
	unsigned long left[NR_POOLS][MAX_NUMNODES];
	struct machine *m;
	int slab_filling;                       /* the slab pool a cache is filled from, or -1 */
	unsigned long from_buddy;               /* requests no pool could serve */
};

#define SNAPSHOT_KERNEL_ID (OWNER_KERNEL_MODEL_ID + 0x800000u)

static void take_block(struct machine *m, pfn_t pfn, unsigned order, int mt, uint32_t owner,
		       uint32_t offset)
{
	struct zone *z = pfn_zone(m, pfn);

	prep_new_page(m, pfn, order, mt, owner, offset);
	zone_mark_taken(z, pfn, order, mt);
}

static void take_frame(struct machine *m, pfn_t pfn, int mt, uint32_t owner, uint32_t offset)
{
	take_block(m, pfn, 0, mt, owner, offset);
}

/* The next frame of kind k, node nid's first, then the other nodes'. */
static pfn_t pool_take(struct snapshot_pools *p, enum pool_kind k, int nid)
{
	for (unsigned i = 0; i < MAX_NUMNODES; i++) {
		unsigned n = (unsigned)(nid + (int)i) % MAX_NUMNODES;

		if (!p->left[k][n])
			continue;
		pfn_t pfn = p->cursor[k][n];
		unsigned long size = 1;

		if (k >= POOL_SLAB) {
			unsigned order = (unsigned)(k - POOL_SLAB) / 2;
			bool reclaimable = (k - POOL_SLAB) % 2;

			while (CLS(p->s, pfn) != SNAP_SLAB ||
			       slab_order(p->s, pfn, p->s->nr_frames) != (int)order ||
			       (get_pfnblock_migratetype(&p->m->mm, pfn) == MIGRATE_RECLAIMABLE) !=
				       reclaimable)
				pfn++;
			size = 1UL << order;
		} else {
			while (CLS(p->s, pfn) != pool_class[k])
				pfn++;
			/* A THP's tails are its own. */
			if (k == POOL_THP)
				size = HPAGE_PMD_NR;
		}
		p->left[k][n]--;
		p->cursor[k][n] = pfn + size;
		return pfn;
	}
	return PFN_NONE;
}
pfn_t snapshot_pool_alloc(struct machine *m, unsigned order, int nid, uint32_t owner,
			  uint32_t offset)
{
	struct snapshot_pools *p = m->snapshot_pools;
	enum owner_kind kind = owner_kind(owner);
	pfn_t pfn = PFN_NONE;
	int mt = MIGRATE_UNMOVABLE;

	if (p->slab_filling >= 0 && slab_owner(m, owner)) {
		pfn = pool_take(p, (enum pool_kind)p->slab_filling, nid);
		if (pfn != PFN_NONE && order == (unsigned)(p->slab_filling - POOL_SLAB) / 2) {
			take_block(m, pfn, order, (p->slab_filling - POOL_SLAB) % 2 ?
				   MIGRATE_RECLAIMABLE : MIGRATE_UNMOVABLE, owner, offset);
			return pfn;
		}
	} else if (order == HPAGE_PMD_ORDER && kind == OWNER_KIND_ANON) {
		pfn = pool_take(p, POOL_THP, nid);
		if (pfn != PFN_NONE) {
			take_block(m, pfn, order, MIGRATE_MOVABLE, owner, offset);
			return pfn;
		}
	} else if (order == 0) {
		if (kind == OWNER_KIND_ANON || kind == OWNER_KIND_FILE) {
			pfn = pool_take(p, kind == OWNER_KIND_ANON ? POOL_ANON : POOL_FILE, nid);
			mt = MIGRATE_MOVABLE;
		} else {
			if (kind == OWNER_KIND_PGTABLE)
				pfn = pool_take(p, POOL_PGTABLE, nid);
			if (pfn == PFN_NONE)
				pfn = pool_take(p, POOL_SPARE, nid);
		}
	}
	if (pfn == PFN_NONE) {
		p->from_buddy++;
		return PFN_NONE;
	}
	take_frame(m, pfn, mt, owner, offset);
	return pfn;
}

/* The memblock reservation a run of reserved or hole frames makes. */
static void reserve_run(struct machine *m, pfn_t start, pfn_t end, enum memblock_use use)
{
	if (start < end)
		memblock_reserve_range(m, start, end, use);
}

/* Whether [pfn, pfn + nr) is aligned, inside [pfn, hi) and all class c. */
static bool whole_folio(const struct snapshot *s, pfn_t pfn, unsigned long nr, pfn_t hi,
			enum snap_class c)
{
	if ((pfn & (nr - 1)) || pfn + nr > hi)
		return false;
	for (pfn_t p = pfn; p < pfn + nr; p++)
		if (CLS(s, p) != c)
			return false;
	return true;
}

/* A captured 1 GiB hugetlb page as alloc_gigantic_folio leaves one. */
static void take_gigantic(struct machine *m, struct zone *z, pfn_t pfn)
{
	struct mm_ctx ctx = mm_ctx_null(0);

	for (unsigned i = 0; i < GIGANTIC_NR_PAGES >> MAX_PAGE_ORDER; i++)
		take_block(m, pfn + (i << MAX_PAGE_ORDER), MAX_PAGE_ORDER, MIGRATE_UNMOVABLE,
			   make_owner(OWNER_KIND_HUGETLB, 0), i);
	z->managed_pages += GIGANTIC_NR_PAGES;
	m->nr_gigantic++;
	superpageblock_contig_mark(&ctx, m, pfn, pfn + GIGANTIC_NR_PAGES, true);
}

/* Frames of zone z, [lo, hi): free blocks freed, reserved frames and
 * holes reserved, kernel pages allocated as kernel pages, the rest into
 * the pools for the synthetic processes and files. */
static void place_zone_frames(struct machine *m, struct snapshot *s, struct zone *z,
			      struct snapshot_pools *pools, unsigned long *hole_pages,
			      unsigned long *small_hugetlb, unsigned long *odd_slabs)
{
	pfn_t lo = z->zone_start_pfn, hi = zone_end_pfn(z), run = PFN_NONE;
	enum memblock_use run_use = MEMBLOCK_CAPTURED;

	for (pfn_t pfn = lo; pfn < hi; pfn++) {
		enum snap_class c = CLS(s, pfn);
		enum memblock_use use = c == SNAP_HOLE ? MEMBLOCK_HOLE : MEMBLOCK_CAPTURED;

		if (run != PFN_NONE && (!(c == SNAP_HOLE || c == SNAP_RESERVED) || use != run_use)) {
			reserve_run(m, run, pfn, run_use);
			run = PFN_NONE;
		}
		switch (c) {
		case SNAP_HOLE:
			(*hole_pages)++;
			/* fall through */
		case SNAP_RESERVED:
			if (run == PFN_NONE) {
				run = pfn;
				run_use = use;
			}
			break;
		case SNAP_FREE:
			{
				/* A head: the loop steps over its tail. */
				unsigned order = FREE_ORDER(s, pfn);

				__free_one_page(z, pfn, order, get_pfnblock_migratetype(&m->mm, pfn),
						FPI_TO_TAIL);
				z->managed_pages += 1UL << order;
				pfn += (1u << order) - 1;
			}
			break;
		case SNAP_ANON:
			pools->left[POOL_ANON][z->node]++;
			z->managed_pages++;
			break;
		case SNAP_ANON_THP:
			if (m->thp != THP_NEVER &&
			    whole_folio(s, pfn, HPAGE_PMD_NR, hi, SNAP_ANON_THP)) {
				pools->left[POOL_THP][z->node]++;
				z->managed_pages += HPAGE_PMD_NR;
				pfn += HPAGE_PMD_NR - 1;
				break;
			}
			/* Not a whole PMD-sized folio, or THPs off: 4 KiB pages. */
			s->cls[pfn] = SNAP_ANON;
			pools->left[POOL_ANON][z->node]++;
			z->managed_pages++;
			break;
		case SNAP_FILE:
			pools->left[POOL_FILE][z->node]++;
			z->managed_pages++;
			break;
		case SNAP_PGTABLE:
			pools->left[POOL_PGTABLE][z->node]++;
			z->managed_pages++;
			break;
		case SNAP_NONE:
			pools->left[POOL_SPARE][z->node]++;
			z->managed_pages++;
			break;
		case SNAP_SLAB: {
			int order = slab_order(s, pfn, hi);

			if (order >= 0) {
				bool reclaimable = get_pfnblock_migratetype(&m->mm, pfn) ==
						   MIGRATE_RECLAIMABLE;

				pools->left[slab_pool((unsigned)order, reclaimable)][z->node]++;
				z->managed_pages += 1UL << order;
				pfn += (1UL << order) - 1;
				break;
			}
			(*odd_slabs)++;
			take_frame(m, pfn, MIGRATE_UNMOVABLE,
				   make_owner(OWNER_KIND_KERNEL, SNAPSHOT_KERNEL_ID + c), 0);
			z->managed_pages++;
			break;
		}
		case SNAP_HUGETLB:
			if (whole_folio(s, pfn, GIGANTIC_NR_PAGES, hi, SNAP_HUGETLB)) {
				take_gigantic(m, z, pfn);
				pfn += GIGANTIC_NR_PAGES - 1;
				break;
			}
			/* A 2 MiB hugetlb page: the model has only 1 GiB ones. */
			(*small_hugetlb)++;
			/* fall through */
		default:        /* kernel pages the run keeps, a slab's stray tails too */
			take_frame(m, pfn, MIGRATE_UNMOVABLE,
				   make_owner(OWNER_KIND_KERNEL, SNAPSHOT_KERNEL_ID + c), 0);
			z->managed_pages++;
			break;
		}
	}
	if (run != PFN_NONE)
		reserve_run(m, run, hi, run_use);
}

/* Frames below the zone's captured span or above it are holes; so are
 * the top pageblocks of a zone whose pagetypeinfo counts fewer pageblocks
 * than it has with memory (deferred struct page init: never initialised,
 * not yet the zone's). */
static void mark_uninitialised(struct snapshot *s, const struct snap_zone *sz, pfn_t lo, pfn_t hi,
			       GString *notes, const char *where)
{
	unsigned long counted = 0, with_memory = 0, marked = 0;

	for (pfn_t p = lo; p < hi; p++)
		if (p < sz->start || p >= sz->start + sz->spanned)
			s->cls[p] = SNAP_HOLE;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		counted += sz->blocks[mt];
	for (pfn_t pfn = lo; pfn < hi; pfn += pageblock_nr_pages)
		for (pfn_t p = pfn; p < pfn + pageblock_nr_pages; p++)
			if (CLS(s, p) != SNAP_HOLE) {
				with_memory++;
				break;
			}
	for (pfn_t pfn = hi; pfn > lo && with_memory - marked > counted;
	     pfn -= pageblock_nr_pages) {
		bool empty = true, hole = true;

		for (pfn_t p = pfn - pageblock_nr_pages; p < pfn; p++) {
			empty &= CLS(s, p) == SNAP_NONE || CLS(s, p) == SNAP_HOLE;
			hole &= CLS(s, p) == SNAP_HOLE;
		}
		if (!empty)
			break;
		if (hole)
			continue;
		memset(s->cls + pfn - pageblock_nr_pages, SNAP_HOLE, pageblock_nr_pages);
		marked++;
	}
	if (marked)
		g_string_append_printf(notes, "%s: %lu pageblocks at the top unflagged and not in "
				       "pagetypeinfo's counts (a hole, or struct pages never "
				       "initialised) imported as a hole\n", where, marked);
}

/* The largest object size whose caches have slabs of this order on m's
 * CPUs (calculate_order): the fewest objects to fill them.  0 if none. */
static unsigned size_for_order(const struct machine *m, unsigned order)
{
	for (unsigned size = PAGE_SIZE << SLUB_MAX_ORDER; size >= 8; size -= 8)
		if (calculate_order(size, m->nr_cpus) == order)
			return size;
	return 0;
}

/* The captured slabs: for each order and reclaimability one cache
 * ("snapshot-oN", "snapshot-oN-reclaimable"), its objects allocated on
 * each node until it holds that node's slabs, all full (the flags do not
 * say how full a slab was). */
/* The first CPU of node n, whose context the synthetic users run in. */
static struct mm_ctx node_ctx(const struct machine *m, unsigned n)
{
	unsigned cpu = 0;

	while (cpu + 1 < m->nr_cpus && topology_cpu_to_node(&m->topo, cpu) != n)
		cpu++;
	return mm_ctx_null(cpu);
}

static char *make_synthetic_slabs(struct machine *m, struct snapshot_pools *pools)
{
	for (unsigned order = 0; order <= SLUB_MAX_ORDER; order++)
		for (int r = 0; r < 2; r++) {
			enum pool_kind k = slab_pool(order, r);
			unsigned size = size_for_order(m, order);
			struct kmem_cache *cache = NULL;

			for (unsigned n = 0; n < m->nr_nodes; n++) {
				if (!pools->left[k][n] || !size)
					continue;
				if (!cache) {
					g_autofree char *name = g_strdup_printf(
						"snapshot-o%u%s", order, r ? "-reclaimable" : "");

					cache = kmem_cache_create(m, name, size, 0,
								  r ? SLAB_RECLAIM_ACCOUNT : 0);
				}
				struct mm_ctx ctx = node_ctx(m, n);
				unsigned long objects = pools->left[k][n] * order_objects(order, size);

				pools->slab_filling = k;
				for (unsigned long i = 0; i < objects; i++)
					if (kmem_cache_alloc(&ctx, m, cache, GFP_KERNEL) == SLAB_OBJ_NONE) {
						pools->slab_filling = -1;
						return g_strdup_printf("node %u: slab object %lu of %lu of "
								       "order %u could not be allocated", n,
								       i, objects, order);
					}
				pools->slab_filling = -1;
			}
		}
	return NULL;
}

static char *make_synthetic_users(struct machine *m, struct snapshot_pools *pools)
{
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		unsigned long anon = pools->left[POOL_ANON][n], thp = pools->left[POOL_THP][n];
		unsigned long file = pools->left[POOL_FILE][n];
		struct mm_ctx ctx = node_ctx(m, n);

		if (anon || thp) {
			struct mm_struct *mm = mm_alloc(&ctx, m);
			uint64_t addr, done = 0, len = (thp + 1) * HPAGE_PMD_NR << PAGE_SHIFT;
			int err = 0;

			if (!mm)
				return g_strdup_printf("node %u: no page for a process's page table", n);
			if (anon) {
				addr = mmap_anon(mm, anon << PAGE_SHIFT, PROT_READ | PROT_WRITE, &err);
				if (!addr)
					return g_strdup_printf("node %u: %lu anonymous pages do not fit "
							       "an address space", n, anon);
				do_madvise(&ctx, mm, addr, anon << PAGE_SHIFT, MADV_NOHUGEPAGE);
				if (touch_range(&ctx, mm, addr, anon << PAGE_SHIFT, &done))
					return g_strdup_printf("node %u: mapping the anonymous pages "
							       "failed after %" G_GUINT64_FORMAT, n,
							       (guint64)done);
			}
			/* The THPs: one fault per PMD of a MADV_HUGEPAGE mapping. */
			if (thp) {
				addr = mmap_anon(mm, len, PROT_READ | PROT_WRITE, &err);
				if (!addr)
					return g_strdup_printf("node %u: %lu THPs do not fit an address "
							       "space", n, thp);
				addr = (addr + (HPAGE_PMD_NR << PAGE_SHIFT) - 1) &
				       ~((uint64_t)(HPAGE_PMD_NR << PAGE_SHIFT) - 1);
				do_madvise(&ctx, mm, addr, thp * HPAGE_PMD_NR << PAGE_SHIFT,
					   MADV_HUGEPAGE);
				for (unsigned long i = 0; i < thp; i++)
					if (handle_mm_fault(&ctx, mm, addr + (i * HPAGE_PMD_NR << PAGE_SHIFT),
							    true) ||
					    pools->left[POOL_THP][n] != thp - i - 1)
						return g_strdup_printf("node %u: THP %lu of %lu could not "
								       "be mapped whole", n, i, thp);
			}
		}
		for (unsigned long i = 0; i < file; i++)
			if (page_cache_add(&ctx, m, (int)n, SNAPSHOT_FILE_ID + n, (uint32_t)i) ==
			    PFN_NONE)
				return g_strdup_printf("node %u: no page for file page %lu", n, i);
	}
	return NULL;
}

char *snapshot_import(struct machine *m, struct snapshot *s, GString *notes)
{
	struct snapshot_pools *pools = g_new0(struct snapshot_pools, 1);
	unsigned long made_up = 0, hole_pages, left[NR_POOLS] = { 0 }, small_hugetlb = 0;
	unsigned long odd_slabs = 0;
	char *err = NULL;

	pools->s = s;
	pools->m = m;
	pools->slab_filling = -1;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		for (int k = 0; k < NR_POOLS; k++)
			pools->cursor[k][n] = m->node_data[n].node_start_pfn;

	if (s->fed < s->nr_frames)
		return g_strdup_printf("kpageflags ends after %" G_GUINT64_FORMAT " of %"
				       G_GUINT64_FORMAT " frames", (guint64)s->fed,
				       (guint64)s->nr_frames);
	/* Frames past the captured ones (the model's memmap is whole
	 * sections) are holes. */
	for_each_populated_zone(m, z) {
		struct snap_zone *sz = snap_zone_of(s, z);
		g_autofree char *where = g_strdup_printf("node %u zone %s", z->node, z->name);
		pfn_t lo = z->zone_start_pfn, hi = zone_end_pfn(z);
		long miss[NR_PAGE_ORDERS];

		if (!sz) {
			err = g_strdup_printf("%s is not in the capture's zoneinfo", where);
			goto out;
		}
		if (hi > s->nr_frames) {
			err = g_strdup_printf("%s ends past the captured frames", where);
			goto out;
		}
		mark_uninitialised(s, sz, lo, hi, notes, where);
		choose_free_blocks(s, sz, lo, hi, miss, &made_up);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			if (miss[o])
				g_string_append_printf(notes, "%s: %ld order-%d free blocks of "
						       "buddyinfo not found in the flags\n", where,
						       miss[o], o);
		assign_pageblock_types(m, s, sz, lo, hi, notes, where);
		hole_pages = 0;
		place_zone_frames(m, s, z, pools, &hole_pages, &small_hugetlb, &odd_slabs);
		z->present_pages -= hole_pages;
		for (pfn_t pfn = lo; pfn < hi; pfn += pageblock_nr_pages) {
			bool hole = true;

			for (pfn_t p = pfn; p < pfn + pageblock_nr_pages && hole; p++)
				hole = CLS(s, p) == SNAP_HOLE;
			if (hole)
				m->mm.pb_flags[pfn_to_pb(pfn)] |= PB_hole;
		}
	}
	if (s->flags_unknown)
		g_string_append_printf(notes, "%lu frames with flags the model does not know (bits "
				       "%#" G_GINT64_MODIFIER "x) classed by the flags it knows\n",
				       s->flags_unknown, (guint64)s->unknown_bits);
	if (odd_slabs)
		g_string_append_printf(notes, "%lu slabs not of an order 0 to %d slab the allocator "
				       "gives (larger, or cut by the capture) kept as kernel pages\n",
				       odd_slabs, SLUB_MAX_ORDER);
	if (small_hugetlb)
		g_string_append_printf(notes, "%lu hugetlb frames not in a whole 1 GiB page (2 MiB "
				       "hugetlb pages) kept as kernel pages\n", small_hugetlb);
	if (made_up)
		g_string_append_printf(notes, "%lu free blocks of buddyinfo made from unflagged "
				       "frames (the free lists changed while the flags were read)\n",
				       made_up);
	for_each_populated_zone(m, z)
		zone_pcp_update(z, 1);
	init_per_zone_wmark_min(m, m->thp != THP_NEVER);
	m->snapshot_pools = pools;
	err = make_synthetic_users(m, pools);
	if (!err)
		err = make_synthetic_slabs(m, pools);
	m->snapshot_pools = NULL;
	if (err)
		goto out;
	/* What no process or file took stays kernel memory. */
	for (unsigned n = 0; n < m->nr_nodes; n++)
		for (int k = 0; k < NR_POOLS; k++) {
			pfn_t pfn;

			while ((pfn = pool_take(pools, (enum pool_kind)k, (int)n)) != PFN_NONE) {
				unsigned long size = k >= POOL_SLAB ? 1UL << (k - POOL_SLAB) / 2 : 1;

				for (pfn_t p = pfn; p < pfn + size; p++)
					take_frame(m, p, MIGRATE_UNMOVABLE,
						   make_owner(OWNER_KIND_KERNEL, SNAPSHOT_KERNEL_ID +
							      (k == POOL_PGTABLE ? SNAP_PGTABLE :
							       SNAP_NONE)), 0);
				left[k]++;
			}
		}
	if (left[POOL_PGTABLE])
		g_string_append_printf(notes, "%lu page-table pages beyond what the synthetic "
				       "processes map kept as kernel pages\n", left[POOL_PGTABLE]);
	if (pools->from_buddy)
		g_string_append_printf(notes, "%lu allocations of the import served by the "
				       "allocator (free counts moved by as much)\n", pools->from_buddy);
	/* The import's faults and reads are not the run's. */
	memset(m->vm_events, 0, sizeof(m->vm_events));
out:
	g_free(pools);
	return err;
}
