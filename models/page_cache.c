#include "page_cache.h"
#include "compaction.h"
#include "dcache.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "pcp.h"
#include "watermark.h"

#include <glib.h>

#define PAGEVEC_SIZE 31

/* A node's LRU: a ring of pfns, oldest at head. */
struct lru {
	pfn_t *ring;
	unsigned long head, len, cap;
};

struct page_cache {
	struct lru *lru;    /* per node */
};

void page_cache_init(struct machine *m)
{
	m->page_cache = g_new0(struct page_cache, 1);
	m->page_cache->lru = g_new0(struct lru, m->nr_nodes);
}

void page_cache_destroy(struct machine *m)
{
	if (!m->page_cache)
		return;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		g_free(m->page_cache->lru[n].ring);
	g_free(m->page_cache->lru);
	g_free(m->page_cache);
	m->page_cache = NULL;
}

static void lru_push(struct lru *l, pfn_t pfn)
{
	if (l->len == l->cap) {
		unsigned long cap = l->cap ? l->cap * 2 : 1024;
		pfn_t *ring = g_new(pfn_t, cap);

		for (unsigned long i = 0; i < l->len; i++)
			ring[i] = l->ring[(l->head + i) % l->cap];
		g_free(l->ring);
		l->ring = ring;
		l->cap = cap;
		l->head = 0;
	}
	l->ring[(l->head + l->len++) % l->cap] = pfn;
}

static pfn_t lru_pop(struct lru *l)
{
	pfn_t pfn = l->ring[l->head];

	l->head = (l->head + 1) % l->cap;
	l->len--;
	return pfn;
}

pfn_t page_cache_add(struct mm_ctx *ctx, struct machine *m, int nid, uint32_t file,
		     uint32_t index)
{
	if (!m->page_cache)
		page_cache_init(m);
	/* A file's first read looks it up: its dentry and inode (slab model). */
	if (!index)
		d_alloc_file(ctx, m, file);
	pfn_t pfn = __alloc_pages(ctx, m, GFP_HIGHUSER_MOVABLE, 0, nid,
				  make_owner(OWNER_KIND_FILE, file), index);

	if (pfn == PFN_NONE)
		return PFN_NONE;
	if (xa_node_get(ctx, m, file, index)) {
		__free_pages(ctx, m, pfn);
		return PFN_NONE;
	}
	lru_push(&m->page_cache->lru[pfn_zone(m, pfn)->node], pfn);
	return pfn;
}

/* The ring slot holding pfn, or -1.  A linear search: the model keeps no
 * per-page link into the LRU. */
static long lru_find(const struct lru *l, pfn_t pfn)
{
	for (unsigned long i = 0; i < l->len; i++)
		if (l->ring[(l->head + i) % l->cap] == pfn)
			return (long)((l->head + i) % l->cap);
	return -1;
}

bool page_cache_on_lru(struct machine *m, pfn_t pfn)
{
	return m->page_cache && lru_find(&m->page_cache->lru[pfn_zone(m, pfn)->node], pfn) >= 0;
}

bool page_cache_replace(struct machine *m, pfn_t old, pfn_t new)
{
	struct lru *from, *to;
	long slot;

	if (!m->page_cache)
		return false;
	from = &m->page_cache->lru[pfn_zone(m, old)->node];
	to = &m->page_cache->lru[pfn_zone(m, new)->node];
	slot = lru_find(from, old);
	if (slot < 0)
		return false;
	if (from == to) {
		from->ring[slot] = new;
		return true;
	}
	/* Close the gap, then the new node's LRU takes the page as a new one. */
	for (unsigned long i = ((unsigned long)slot + from->cap - from->head) % from->cap;
	     i + 1 < from->len; i++)
		from->ring[(from->head + i) % from->cap] = from->ring[(from->head + i + 1) % from->cap];
	from->len--;
	lru_push(to, new);
	return true;
}

unsigned long page_cache_pages(const struct machine *m, int nid)
{
	return m->page_cache ? m->page_cache->lru[nid].len : 0;
}

unsigned long shrink_page_cache(struct mm_ctx *ctx, struct machine *m, int nid,
				unsigned long nr, bool direct)
{
	pfn_t batch[PAGEVEC_SIZE];

	if (!m->page_cache)
		return 0;
	struct lru *l = &m->page_cache->lru[nid];
	unsigned long eligible = l->len, freed = 0;
	unsigned n = 0;

	/* Counted as they leave the LRU: a run that ends mid-batch still adds up. */
	while (freed < nr && l->len) {
		batch[n++] = lru_pop(l);
		xa_node_put(ctx, m, page_owner(m, batch[n - 1]) & OWNER_ID_MASK,
			    page_owner_offset(m, batch[n - 1]));
		freed++;
		m->vm_events[direct ? PGSCAN_DIRECT : PGSCAN_KSWAPD]++;
		m->vm_events[direct ? PGSTEAL_DIRECT : PGSTEAL_KSWAPD]++;
		if (n == PAGEVEC_SIZE) {
			free_unref_folios(ctx, m, batch, n);
			n = 0;
		}
	}
	if (n)
		free_unref_folios(ctx, m, batch, n);
	/* shrink_node(): the slab shrinkers get pressure in proportion. */
	shrink_slab(ctx, m, nid, freed, eligible);
	return freed;
}

static bool zone_below(struct zone *z, enum zone_watermarks w)
{
	return !zone_watermark_ok(z, 0, wmark_pages(z, w), (int)z->idx, 0);
}

bool pgdat_needs_kswapd(struct machine *m, int nid)
{
	if (m->node_data[nid].kswapd_order)
		return true;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (populated_zone(z) && zone_below(z, WMARK_LOW))
			return true;
	}
	return false;
}

/* pgdat_balanced(): an eligible zone meets its high watermark at order. */
static bool pgdat_balanced(struct machine *m, int nid, int order, int highest_zoneidx)
{
	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (populated_zone(z) &&
		    zone_watermark_ok(z, (unsigned)order, wmark_pages(z, WMARK_HIGH), highest_zoneidx, 0))
			return true;
	}
	return false;
}

void wakeup_kswapd(struct machine *m, struct zone *zone, gfp_t gfp, int order,
		   int highest_zoneidx)
{
	struct pglist_data *pgdat = &m->node_data[zone->node];

	if (pgdat_balanced(m, (int)zone->node, order, highest_zoneidx)) {
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			wakeup_kcompactd(m, (int)zone->node, order, highest_zoneidx);
		return;
	}
	if (pgdat->kswapd_highest_zoneidx == MAX_NR_ZONES ||
	    pgdat->kswapd_highest_zoneidx < highest_zoneidx)
		pgdat->kswapd_highest_zoneidx = highest_zoneidx;
	pgdat->kswapd_order = MAX(pgdat->kswapd_order, order);
}

void kswapd_try_to_sleep(struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	int highest = pgdat->kswapd_highest_zoneidx;

	reset_isolation_suitable(m, nid);
	wakeup_kcompactd(m, nid, pgdat->kswapd_order,
			 highest == MAX_NR_ZONES ? MAX_NR_ZONES - 1 : highest);
	pgdat->kswapd_order = 0;
	pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
}

static void set_reclaim_active(struct machine *m, int nid, bool on)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (on)
			z->flags |= ZONE_RECLAIM_ACTIVE;
		else
			z->flags &= ~ZONE_RECLAIM_ACTIVE;
	}
}

unsigned long kswapd_balance(struct mm_ctx *ctx, struct machine *m, int nid)
{
	unsigned long reclaimed = 0;

	/* Pagesets shrink to a few batches while reclaim runs, so what it
	 * frees reaches the zone (nr_pcp_high). */
	set_reclaim_active(m, nid, true);
	for (;;) {
		bool below = false;

		for (int i = 0; i < MAX_NR_ZONES; i++) {
			struct zone *z = &m->node_data[nid].node_zones[i];

			below |= populated_zone(z) && zone_below(z, WMARK_HIGH);
		}
		unsigned long got = below ? shrink_page_cache(ctx, m, nid, SWAP_CLUSTER_MAX, false) : 0;

		if (!got)
			break;
		reclaimed += got;
	}
	set_reclaim_active(m, nid, false);
	return reclaimed;
}
