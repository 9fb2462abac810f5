#include "page_cache.h"
#include "compaction.h"
#include "dcache.h"
#include "huge_memory.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "pcp.h"
#include "swap.h"
#include "watermark.h"

#include <glib.h>


/* A node's LRU: a ring of pfns, oldest at head.  Every page pushed gets
 * the next sequence number; head_seq is the head's, so the page with
 * sequence s sits s - head_seq places after the head.  A page taken off
 * anywhere but the head leaves a hole (PFN_NONE), dropped when the head
 * reaches it: len counts the holes. */
struct lru {
	pfn_t *ring;
	unsigned long head, len, cap, holes;
	uint32_t head_seq;
};

struct page_cache {
	struct lru *lru;    /* per node */
	uint32_t *seq;      /* per frame: its sequence number, while on an LRU */
};

void page_cache_init(struct machine *m)
{
	m->page_cache = g_new0(struct page_cache, 1);
	m->page_cache->lru = g_new0(struct lru, m->nr_nodes);
	m->page_cache->seq = g_new0(uint32_t, m->mm.nr_frames);
}

void page_cache_destroy(struct machine *m)
{
	if (!m->page_cache)
		return;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		g_free(m->page_cache->lru[n].ring);
	g_free(m->page_cache->lru);
	g_free(m->page_cache->seq);
	g_free(m->page_cache);
	m->page_cache = NULL;
}

static void lru_push(struct page_cache *pc, struct lru *l, pfn_t pfn)
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
	pc->seq[pfn] = l->head_seq + (uint32_t)l->len;
	l->ring[(l->head + l->len++) % l->cap] = pfn;
}

/* The pages on l. */
static unsigned long lru_pages(const struct lru *l)
{
	return l->len - l->holes;
}

/* The oldest page; l holds one. */
static pfn_t lru_pop(struct lru *l)
{
	for (;;) {
		pfn_t pfn = l->ring[l->head];

		l->head = (l->head + 1) % l->cap;
		l->len--;
		l->head_seq++;
		if (pfn != PFN_NONE)
			return pfn;
		l->holes--;
	}
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
	lru_push(m->page_cache, &m->page_cache->lru[pfn_zone(m, pfn)->node], pfn);
	return pfn;
}

/* The ring slot holding pfn, or -1: where its sequence number says, if it
 * is there (a frame keeps a stale number after it left the LRU). */
static long lru_find(const struct page_cache *pc, const struct lru *l, pfn_t pfn)
{
	uint32_t off = pc->seq[pfn] - l->head_seq;
	unsigned long slot;

	if (off >= l->len)
		return -1;
	slot = (l->head + off) % l->cap;
	return l->ring[slot] == pfn ? (long)slot : -1;
}

/* Take pfn off l wherever it is; false if it is not there. */
static bool lru_del(struct page_cache *pc, struct lru *l, pfn_t pfn)
{
	long slot = lru_find(pc, l, pfn);

	if (slot < 0)
		return false;
	l->ring[slot] = PFN_NONE;
	l->holes++;
	return true;
}

bool page_cache_on_lru(struct machine *m, pfn_t pfn)
{
	return m->page_cache &&
	       lru_find(m->page_cache, &m->page_cache->lru[pfn_zone(m, pfn)->node], pfn) >= 0;
}

bool page_cache_replace(struct machine *m, pfn_t old, pfn_t new)
{
	struct page_cache *pc = m->page_cache;
	struct lru *from, *to;
	long slot;

	if (!pc)
		return false;
	from = &pc->lru[pfn_zone(m, old)->node];
	to = &pc->lru[pfn_zone(m, new)->node];
	slot = lru_find(pc, from, old);
	if (slot < 0)
		return false;
	if (from == to) {
		from->ring[slot] = new;
		pc->seq[new] = pc->seq[old];
		return true;
	}
	/* The new node's LRU takes the page as a new one. */
	lru_del(pc, from, old);
	lru_push(pc, to, new);
	return true;
}

unsigned long page_cache_pages(const struct machine *m, int nid)
{
	return m->page_cache ? lru_pages(&m->page_cache->lru[nid]) : 0;
}

unsigned reclaim_clean_pages_from_list(struct mm_ctx *ctx, struct machine *m, pfn_t *pfns,
				       unsigned nr)
{
	pfn_t batch[FOLIO_BATCH_SIZE];
	unsigned kept = 0, n = 0;

	for (unsigned i = 0; i < nr; i++) {
		pfn_t pfn = pfns[i];

		/* Looked at and taken off with no engine call between. */
		if (!m->page_cache || page_kind(&m->mm, pfn) != PG_KIND_ALLOC ||
		    owner_kind(page_owner(m, pfn)) != OWNER_KIND_FILE ||
		    !lru_del(m->page_cache, &m->page_cache->lru[pfn_zone(m, pfn)->node], pfn)) {
			pfns[kept++] = pfn;
			continue;
		}
		mm_charge(ctx, COST_RECLAIM_UNMAP, 1);
		xa_node_put(ctx, m, page_owner(m, pfn) & OWNER_ID_MASK, page_owner_offset(m, pfn));
		batch[n++] = pfn;
		if (n == FOLIO_BATCH_SIZE) {
			free_unref_folios(ctx, m, batch, n);
			n = 0;
		}
	}
	if (n)
		free_unref_folios(ctx, m, batch, n);
	return nr - kept;
}

unsigned long shrink_page_cache(struct mm_ctx *ctx, struct machine *m, int nid,
				unsigned long nr, bool direct, int priority)
{
	pfn_t batch[FOLIO_BATCH_SIZE];
	/* The deferred split shrinker runs with the others of the pass. */
	unsigned long split = deferred_split_shrink(ctx, m, nid);

	if (!m->page_cache)
		return split;
	struct lru *l = &m->page_cache->lru[nid];
	unsigned long freed = 0;
	unsigned n = 0;

	/* Counted as they leave the LRU: a run that ends mid-batch still adds up. */
	while (freed < nr && lru_pages(l)) {
		mm_charge(ctx, COST_RECLAIM_SCAN, 1);
		mm_charge(ctx, COST_RECLAIM_UNMAP, 1);
		batch[n++] = lru_pop(l);
		xa_node_put(ctx, m, page_owner(m, batch[n - 1]) & OWNER_ID_MASK,
			    page_owner_offset(m, batch[n - 1]));
		freed++;
		m->vm_events[direct ? PGSCAN_DIRECT : PGSCAN_KSWAPD]++;
		m->vm_events[direct ? PGSTEAL_DIRECT : PGSTEAL_KSWAPD]++;
		if (n == FOLIO_BATCH_SIZE) {
			free_unref_folios(ctx, m, batch, n);
			n = 0;
		}
	}
	if (n)
		free_unref_folios(ctx, m, batch, n);
	shrink_slab(ctx, m, nid, priority);
	/* Progress: a node kswapd had given up on is worth trying again. */
	freed += split;
	if (freed)
		m->node_data[nid].kswapd_failures = 0;
	return freed;
}

/* compaction_ready(): for a costly order, the allocation would already
 * succeed, or compaction can go ahead with a compact_gap of room above the
 * high watermark: reclaim has done its part. */
static bool compaction_ready(struct zone *zone, int order, int highest_zoneidx)
{
	if (zone_watermark_ok(zone, (unsigned)order, wmark_pages(zone, WMARK_MIN), highest_zoneidx, 0))
		return true;
	if (!compaction_suitable(zone, order, wmark_pages(zone, WMARK_MIN), highest_zoneidx))
		return false;
	return zone_watermark_ok(zone, 0, wmark_pages(zone, WMARK_HIGH) + compact_gap(order),
				 highest_zoneidx, 0);
}

/* in_reclaim_compaction(): reclaim that makes room for compaction. */
static bool in_reclaim_compaction(int order, int priority)
{
	return order && (order > PAGE_ALLOC_COSTLY_ORDER || priority < DEF_PRIORITY - 2);
}

/* should_continue_reclaim() after a pass that reclaimed got pages: in
 * reclaim for compaction, on until an eligible zone of the node could
 * allocate or compact, while the LRU holds more than a compact_gap. */
static bool should_continue_reclaim(struct machine *m, int nid, int order, int highest_zoneidx,
				    int priority, unsigned long got)
{
	if (!in_reclaim_compaction(order, priority) || !got)
		return false;
	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (!populated_zone(z))
			continue;
		if (zone_watermark_ok(z, (unsigned)order, wmark_pages(z, WMARK_MIN), highest_zoneidx,
				      0) ||
		    compaction_suitable(z, order, wmark_pages(z, WMARK_MIN), highest_zoneidx))
			return false;
	}
	return page_cache_pages(m, nid) > compact_gap(order);
}

unsigned long do_try_to_free_pages(struct mm_ctx *ctx, struct machine *m, int nid, int order,
				   int highest_zoneidx)
{
	const unsigned long nr = SWAP_CLUSTER_MAX;
	unsigned long reclaimed = 0, got;
	int priority = DEF_PRIORITY;

	do {
		/* shrink_zones(): a costly order leaves a zone where compaction
		 * can do the rest, and the passes end there. */
		if (order > PAGE_ALLOC_COSTLY_ORDER) {
			bool ready = false;

			for (int i = 0; i <= highest_zoneidx && !ready; i++) {
				struct zone *z = &m->node_data[nid].node_zones[i];

				ready = populated_zone(z) && compaction_ready(z, order, highest_zoneidx);
			}
			if (ready)
				break;
		}
		/* shrink_node(): a pass, more while reclaim for compaction
		 * should continue. */
		do {
			unsigned long scan = page_cache_pages(m, nid) >> priority;

			got = shrink_page_cache(ctx, m, nid, MIN(scan, reclaimed < nr ? nr - reclaimed : nr),
						true, priority);
			reclaimed += got;
		} while (should_continue_reclaim(m, nid, order, highest_zoneidx, priority, got));
	} while (reclaimed < nr && --priority >= 0);
	return reclaimed;
}

unsigned long drop_slab(struct mm_ctx *ctx, struct machine *m)
{
	unsigned long freed, total = 0;
	unsigned shift = 0;

	do {
		freed = 0;
		for (unsigned nid = 0; nid < m->nr_nodes; nid++) {
			freed += deferred_split_scan(ctx, m, (int)nid,
						     deferred_split_count(m, (int)nid));
			/* The super shrinker's freeable objects: its dentries and
			 * inodes, both of which dcache_inodes counts. */
			freed += super_cache_scan(ctx, m, (int)nid, dcache_inodes(m, (int)nid));
		}
		total += freed;
	} while ((freed >> shift++) > 1 && shift < 64);
	return total;
}

/* pgdat_balanced(): an eligible zone meets its high watermark, boost
 * included, at order; a node with no managed zone up to highest_zoneidx
 * needs no balancing. */
static bool pgdat_balanced(struct machine *m, int nid, int order, int highest_zoneidx)
{
	bool managed = false;

	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (!z->managed_pages)
			continue;
		managed = true;
		if (zone_watermark_ok(z, (unsigned)order, wmark_pages(z, WMARK_HIGH), highest_zoneidx, 0))
			return true;
	}
	return !managed;
}

static bool pgdat_watermark_boosted(struct machine *m, int nid, int highest_zoneidx)
{
	for (int i = highest_zoneidx; i >= 0; i--) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (z->managed_pages && z->watermark_boost)
			return true;
	}
	return false;
}

void wakeup_kswapd(struct machine *m, struct zone *zone, gfp_t gfp, int order,
		   int highest_zoneidx)
{
	struct pglist_data *pgdat = &m->node_data[zone->node];
	int nid = (int)zone->node;

	if (!zone->managed_pages)
		return;
	if (pgdat->kswapd_highest_zoneidx == MAX_NR_ZONES ||
	    pgdat->kswapd_highest_zoneidx < highest_zoneidx)
		pgdat->kswapd_highest_zoneidx = highest_zoneidx;
	pgdat->kswapd_order = MAX(pgdat->kswapd_order, order);
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES ||
	    (pgdat_balanced(m, nid, order, highest_zoneidx) &&
	     !pgdat_watermark_boosted(m, nid, highest_zoneidx))) {
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			wakeup_kcompactd(m, nid, order, highest_zoneidx);
		return;
	}
	pgdat->kswapd_wake = true;
}

/* update_reclaim_active(): pagesets shrink to a few batches while reclaim
 * runs, so what it frees reaches the zone (nr_pcp_high). */
static void update_reclaim_active(struct machine *m, int nid, int highest_zoneidx, bool on)
{
	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &m->node_data[nid].node_zones[i];

		if (!z->managed_pages)
			continue;
		if (on)
			z->flags |= ZONE_RECLAIM_ACTIVE;
		else
			z->flags &= ~ZONE_RECLAIM_ACTIVE;
	}
}

int balance_pgdat(struct mm_ctx *ctx, struct machine *m, int nid, int order, int highest_zoneidx)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	unsigned long zone_boosts[MAX_NR_ZONES] = { 0 }, nr_boost_reclaim = 0, reclaimed = 0;
	unsigned long nr_to_reclaim = 0;
	bool boosted;

	/* The boosts stay in the watermarks while kswapd works, so that
	 * allocations near them stall or reclaim until it is done. */
	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &pgdat->node_zones[i];

		if (!z->managed_pages)
			continue;
		zone_boosts[i] = z->watermark_boost;
		nr_boost_reclaim += z->watermark_boost;
	}
	boosted = nr_boost_reclaim;
	/* kswapd_shrink_node's target: a pass that reclaims less than the
	 * zones' high watermarks raises the priority. */
	for (int i = 0; i <= highest_zoneidx; i++) {
		struct zone *z = &pgdat->node_zones[i];

		if (z->managed_pages)
			nr_to_reclaim += MAX(wmark_pages(z, WMARK_HIGH), (unsigned long)SWAP_CLUSTER_MAX);
	}
	update_reclaim_active(m, nid, highest_zoneidx, true);
	for (int priority = DEF_PRIORITY; priority >= 1;) {
		bool balanced = pgdat_balanced(m, nid, order, highest_zoneidx);
		unsigned long got;

		/* An unbalanced node is reclaimed for its watermarks alone; the
		 * boosts are reset at the end all the same. */
		if (!balanced)
			nr_boost_reclaim = 0;
		if (balanced && !nr_boost_reclaim)
			break;
		got = shrink_page_cache(ctx, m, nid, page_cache_pages(m, nid) >> priority, false,
					priority);
		reclaimed += got;
		nr_boost_reclaim -= MIN(nr_boost_reclaim, got);
		/* Twice the request reclaimed: fragmentation is compaction's
		 * problem, balance at order 0 (kswapd_shrink_node). */
		if (order && reclaimed >= 2UL << order)
			order = 0;
		if (got < nr_to_reclaim)
			priority--;
	}
	if (!reclaimed)
		pgdat->kswapd_failures++;
	update_reclaim_active(m, nid, highest_zoneidx, false);
	if (boosted) {
		for (int i = 0; i <= highest_zoneidx; i++) {
			struct zone *z = &pgdat->node_zones[i];

			if (!zone_boosts[i])
				continue;
			zone_lock(ctx, z, SITE_OTHER);
			z->watermark_boost -= MIN(z->watermark_boost, zone_boosts[i]);
			zone_unlock(ctx, z);
		}
		/* Reclaim made room: kcompactd defragments pageblocks. */
		wakeup_kcompactd(m, nid, pageblock_order, highest_zoneidx);
	}
	return order;
}

bool kswapd_try_to_sleep(struct machine *m, int nid, int alloc_order, int reclaim_order,
			 int highest_zoneidx)
{
	struct pglist_data *pgdat = &m->node_data[nid];

	/* prepare_kswapd_sleep(): a hopeless node is left to direct reclaim. */
	if (pgdat->kswapd_failures < MAX_RECLAIM_RETRIES &&
	    !pgdat_balanced(m, nid, reclaim_order, highest_zoneidx))
		return false;
	reset_isolation_suitable(m, nid);
	wakeup_kcompactd(m, nid, alloc_order, highest_zoneidx);
	return true;
}

void kswapd(struct mm_ctx *ctx, struct machine *m, int nid)
{
	struct pglist_data *pgdat = &m->node_data[nid];
	int alloc_order = pgdat->kswapd_order, reclaim_order;
	int highest = pgdat->kswapd_highest_zoneidx == MAX_NR_ZONES ? MAX_NR_ZONES - 1 :
		      pgdat->kswapd_highest_zoneidx;

	pgdat->kswapd_wake = false;
	pgdat->kswapd_order = 0;
	pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
	reclaim_order = balance_pgdat(ctx, m, nid, alloc_order, highest);
	if (!kswapd_try_to_sleep(m, nid, alloc_order, reclaim_order, highest)) {
		/* Not balanced: it does not sleep, and goes on for the same work. */
		pgdat->kswapd_order = MAX(pgdat->kswapd_order, alloc_order);
		pgdat->kswapd_highest_zoneidx = highest;
		pgdat->kswapd_wake = true;
	}
}

void kswapd_thread(struct mm_ctx *ctx, void *arg)
{
	struct machine *m = arg;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	struct pglist_data *pgdat = &m->node_data[nid];

	for (;;) {
		while (!pgdat->kswapd_wake)
			schedule_timeout(ctx, m->kswapd_interval);
		/* A node it could not balance leaves it woken: no sleep. */
		kswapd(ctx, m, nid);
		schedule_timeout(ctx, 0);
	}
}
