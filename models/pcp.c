/* Per-CPU pagesets: what every variant shares (locking, sizing, the
 * free path, draining, CPU hotplug).  Where the variants differ, each
 * entry point calls the machine's variant through pcp_ops(); the variants
 * are in pcp_upstream.c and pcp_buddy.c. */
#include "pcp_internal.h"
#include "buddy.h"
#include "page_alloc.h"
#include "pbstat.h"  /* pbstat */
#include "watermark.h"

#include <glib.h>

const char *const mm_policy_names[NR_MM_POLICIES] = { "upstream", "pcp_buddy", "spb" };

/* The variant's pagesets by policy; a new variant adds its table here. */
static const struct pcp_ops *const pcp_variants[NR_MM_POLICIES] = {
	[POLICY_UPSTREAM] = &pcp_upstream_ops,
	[POLICY_PCP_BUDDY] = &pcp_buddy_ops,
	/* The superpageblock tip keeps pcp_buddy's pagesets. */
	[POLICY_SPB] = &pcp_spb_ops,
};

static inline const struct pcp_ops *pcp_ops(const struct machine *m)
{
	return pcp_variants[m->policy];
}

unsigned order_to_pindex(const struct machine *m, int mt, unsigned order)
{
	return pcp_ops(m)->pindex[order][mt];
}

unsigned pindex_to_order(const struct machine *m, unsigned pindex)
{
	return pcp_ops(m)->pindex_to_order(pindex);
}

unsigned nr_pcp_lists(const struct machine *m)
{
	return pcp_ops(m)->nr_lists;
}

bool pcp_allowed_order(const struct machine *m, unsigned order)
{
	return pcp_ops(m)->allowed_orders >> order & 1;
}

/* Kinds of work with no units are skipped: the section's fixed charge
 * just before has settled whatever a charge could (a pageset section
 * mostly does list operations only). */
static void charge_work(struct mm_ctx *ctx, struct mm_work *w)
{
	if (w->list_ops)
		mm_charge(ctx, COST_LIST_OP, w->list_ops);
	unsigned long visits = mm_work_spb_visits(w);

	if (w->merge_steps | w->split_steps | w->pb_scan | visits | w->spb_moves) {
		mm_charge(ctx, COST_MERGE_STEP, w->merge_steps);
		mm_charge(ctx, COST_SPLIT_STEP, w->split_steps);
		mm_charge(ctx, COST_PB_SCAN, w->pb_scan);
		mm_charge(ctx, COST_SPB_VISIT, visits);
		mm_charge(ctx, COST_SPB_LIST_MOVE, w->spb_moves);
	}
	*w = (struct mm_work){ 0 };
}

/* The superpageblock defrag back-off reads the time under zone->lock;
 * zone_unlock tells the engine the section's superpageblock work by
 * where the lock was taken. */
static void zone_locked(struct mm_ctx *ctx, struct zone *zone, enum lock_site site)
{
	zone->lock_site = site;
	if (zone->ops->section_hooks)
		zone->machine->now_ns = mm_now(ctx);
}

void zone_lock(struct mm_ctx *ctx, struct zone *zone, enum lock_site site)
{
	spin_lock(ctx, &zone->lock, site);
	zone_locked(ctx, zone, site);
}

bool zone_trylock(struct mm_ctx *ctx, struct zone *zone, enum lock_site site)
{
	if (!spin_trylock(ctx, &zone->lock, site))
		return false;
	zone_locked(ctx, zone, site);
	return true;
}

bool rmqueue_bulk_lock(struct mm_ctx *ctx, struct zone *zone, unsigned alloc_flags)
{
	if (alloc_flags & ALLOC_TRYLOCK)
		return zone_trylock(ctx, zone, SITE_RMQUEUE_BULK);
	zone_lock(ctx, zone, SITE_RMQUEUE_BULK);
	return true;
}

unsigned long rmqueue_bulk_pages(struct zone *zone, struct per_cpu_pages *pcp, unsigned order,
				 int mt, unsigned alloc_flags, enum rmqueue_mode *mode,
				 unsigned long refilled, unsigned long needed)
{
	while (refilled < needed) {
		pfn_t pfn = __rmqueue(zone, order, mt, alloc_flags, mode);

		if (pfn == PFN_NONE)
			break;
		/* Tail: physically ordered pages help IO request merging. */
		pcp_enqueue(zone->machine, pcp, &zone->work, pfn, mt, order, true);
		refilled += 1UL << order;
	}
	return refilled;
}

void zone_unlock(struct mm_ctx *ctx, struct zone *zone)
{
	if (zone->ops->section_hooks && ctx->env->spb_section)
		ctx->env->spb_section(ctx, zone->lock_site, &zone->work);
	/* The kernel's hold times differ in their fixed part by direction
	 * (docs/COSTS.md). */
	if (zone->lock_site == SITE_FREE_PCPPAGES_BULK || zone->lock_site == SITE_FREE_ONE_PAGE)
		mm_charge(ctx, COST_ZONE_SECTION_FREE, 1);
	else
		mm_charge(ctx, COST_ZONE_SECTION, 1);
	charge_work(ctx, &zone->work);
	spin_unlock(ctx, &zone->lock);
}

/* The lock word shares its cache line with count and the other hot
 * fields, so the lock's own transfer covers them. */
void pcp_lock(struct mm_ctx *ctx, struct per_cpu_pages *pcp, enum lock_site site)
{
	spin_lock(ctx, &pcp->lock, site);
}

bool pcp_trylock(struct mm_ctx *ctx, struct per_cpu_pages *pcp, enum lock_site site)
{
	return spin_trylock(ctx, &pcp->lock, site);
}

/* PCP_EXPIRE_PASSES: the vmstat passes a remote zone's pageset stays. */
#define PCP_EXPIRE_PASSES 3

void pcp_unlock(struct mm_ctx *ctx, struct per_cpu_pages *pcp)
{
	/* Its own CPU used the pageset, so the zone's counters moved on it:
	 * refresh_cpu_vm_stats() would restart the countdown. */
	if (ctx->cpu == pcp->cpu)
		pcp->expire = PCP_EXPIRE_PASSES;
	mm_charge(ctx, COST_PCP_SECTION, 1);
	charge_work(ctx, &pcp->work);
	spin_unlock(ctx, &pcp->lock);
}

void pcp_enqueue(struct machine *m, struct per_cpu_pages *pcp, struct mm_work *w, pfn_t pfn,
		 int mt, unsigned order, bool tail)
{
	page_set(&m->mm, pfn, PG_KIND_PCP, order, (unsigned)mt);
	pfn_list_add(&m->mm, &pcp->lists[order_to_pindex(m, mt, order)], pfn, tail);
	pcp->count += 1 << order;
	pbstat_pcp(m->pbstat, pfn, order, +1);  /* pbstat */
	w->list_ops++;
}

void pcp_dequeue(struct machine *m, struct per_cpu_pages *pcp, struct mm_work *w, pfn_t pfn)
{
	unsigned order = page_order(&m->mm, pfn);
	int mt = (int)page_extra(&m->mm, pfn);

	pfn_list_del(&m->mm, &pcp->lists[order_to_pindex(m, mt, order)], pfn);
	m->mm.flags[pfn].aux &= (uint8_t)~PG_pcp_buddy;
	page_clear(&m->mm, pfn);
	pcp->count -= 1 << order;
	pbstat_pcp(m->pbstat, pfn, order, -1);  /* pbstat */
	w->list_ops++;
}

/* ---- sizing: zone_batchsize, zone_highsize, pageset setup ---- */

static unsigned rounddown_pow_of_two(unsigned x)
{
	unsigned r = 1;

	while (r * 2 <= x)
		r *= 2;
	return r;
}

int zone_batchsize(const struct zone *zone)
{
	/* 0.025% of the zone or 256 KiB, whichever is smaller, clamped to a
	 * 2^n - 1 value for better cache colouring. */
	unsigned long b = zone->managed_pages >> 12;
	int batch = (int)(b < 64 ? b : 64);

	if (batch <= 1)
		return 1;
	return (int)rounddown_pow_of_two((unsigned)(batch + batch / 2)) - 1;
}

static unsigned online_cpus_of_node(const struct machine *m, unsigned nid)
{
	unsigned n = 0;

	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		n += m->cpu_online[cpu] && topology_cpu_to_node(&m->topo, cpu) == nid;
	return n;
}

static unsigned num_online_cpus(const struct machine *m)
{
	unsigned n = 0;

	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		n += m->cpu_online[cpu];
	return n;
}

int zone_highsize(const struct zone *zone, int batch, int cpu_online, int high_fraction)
{
	const struct machine *m = zone->machine;
	unsigned long total;
	unsigned nr_split_cpus;
	int high;

	/* Based on the low watermark, so that full pagesets do not wake
	 * kswapd prematurely; or a fraction of the zone if tuned. */
	total = high_fraction ? zone->managed_pages / (unsigned long)high_fraction
			      : wmark_pages(zone, WMARK_LOW);
	nr_split_cpus = online_cpus_of_node(m, zone->node) + (unsigned)cpu_online;
	if (!nr_split_cpus)
		nr_split_cpus = num_online_cpus(m);
	high = (int)(total / nr_split_cpus);
	return high > batch << 2 ? high : batch << 2;
}

void zone_pcp_update(struct zone *zone, int cpu_online)
{
	struct machine *m = zone->machine;
	int batch, high_min, high_max;

	/* Before the pagesets exist (and in a zone with no machine) nothing
	 * is read. */
	if (!zone->per_cpu_pageset)
		return;
	batch = m->pcp_batch ? m->pcp_batch : zone_batchsize(zone);
	if (m->pcp_high) {
		/* An older kernel's pageset: high_min = high_max, so
		 * nothing tunes it (decay_pcp_high, nr_pcp_high). */
		high_min = high_max = m->pcp_high;
	} else if (m->percpu_pagelist_high_fraction) {
		/* Tuned by hand: no auto-tuning between min and max. */
		high_min = high_max = zone_highsize(zone, batch, cpu_online,
						    m->percpu_pagelist_high_fraction);
	} else {
		high_min = zone_highsize(zone, batch, cpu_online, 0);
		high_max = zone_highsize(zone, batch, cpu_online, MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	}
	if (zone->pageset_high_min == high_min && zone->pageset_high_max == high_max &&
	    zone->pageset_batch == batch)
		return;
	zone->pageset_high_min = high_min;
	zone->pageset_high_max = high_max;
	zone->pageset_batch = batch;
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

		pcp->batch = batch;
		pcp->high_min = high_min;
		pcp->high_max = high_max;
		/* zone_pcp_update_cacheinfo(): a CPU whose share of the data
		 * cache holds more than three batches keeps a batch of
		 * high-order frees on the pcp. */
		if ((((unsigned long)m->cpu_data_slice_kib << 10) >> PAGE_SHIFT) > 3UL * (unsigned)batch)
			pcp->flags |= PCPF_FREE_HIGH_BATCH;
		else
			pcp->flags &= (uint8_t)~PCPF_FREE_HIGH_BATCH;
	}
}

void percpu_pagelist_high_fraction_sysctl_handler(struct machine *m, int fraction)
{
	if (fraction == m->percpu_pagelist_high_fraction)
		return;
	m->percpu_pagelist_high_fraction = fraction;
	for_each_populated_zone(m, z)
		zone_pcp_update(z, 0);
}

void setup_zone_pageset(struct zone *zone)
{
	struct machine *m = zone->machine;

	zone->per_cpu_pageset = g_new0(struct per_cpu_pages, m->nr_cpus);
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

		spin_lock_init(&pcp->lock, LOCK_CLASS_PCP);
		pcp->cpu = cpu;
		for (unsigned i = 0; i < NR_PCP_LISTS; i++)
			pfn_list_init(&pcp->lists[i], pindex_to_order(m, i));
		pcp->owned_blocks.head = pcp->owned_blocks.tail = UINT32_MAX;
		/* Boot pagesets never cache: high 0, batch 1. */
		pcp->batch = 1;
	}
	zone->pageset_high_min = zone->pageset_high_max = 0;
	zone->pageset_batch = 1;
	zone_pcp_update(zone, 0);
}

unsigned long zone_pcp_pages(struct zone *zone)
{
	unsigned long sum = 0;

	if (!zone->per_cpu_pageset)
		return 0;
	for (unsigned cpu = 0; cpu < zone->machine->nr_cpus; cpu++)
		sum += (unsigned long)zone_pcp(zone, cpu)->count;
	return sum;
}

/* ---- sizing decisions on the hot paths ---- */

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *zone, unsigned order)
{
	int base_batch = pcp->batch, high_min = pcp->high_min, high_max = pcp->high_max;
	int high, batch;

	high = pcp->high = clamp_int(pcp->high, high_min, high_max);
	if (high < base_batch)          /* boot pageset or pcp disabled */
		return 1;
	batch = order ? base_batch : base_batch << pcp->alloc_factor;
	/* A larger high would have spared this trip to the zone. */
	if (high_min != high_max && !(zone->flags & ZONE_BELOW_HIGH)) {
		high = high + batch < high_max ? high + batch : high_max;
		pcp->high = high;
	}
	if (!order) {
		int max_nr_alloc = high - pcp->count - base_batch;

		if (max_nr_alloc < base_batch)
			max_nr_alloc = base_batch;
		/* Consecutive order-0 refills without a free double the batch. */
		if (batch <= max_nr_alloc && pcp->alloc_factor < CONFIG_PCP_BATCH_SCALE_MAX)
			pcp->alloc_factor++;
		if (batch > max_nr_alloc)
			batch = max_nr_alloc;
	}
	if (batch > 1) {
		batch >>= order;
		if (batch < 2)
			batch = 2;
	}
	return batch;
}

int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high)
{
	int high_min = pcp->high_min, high_max = pcp->high_max;
	int high = pcp->high = clamp_int(pcp->high, high_min, high_max);

	if (!high)
		return 0;
	if (free_high) {
		int h = high - (batch << CONFIG_PCP_BATCH_SCALE_MAX);

		pcp->high = h > high_min ? h : high_min;
		return 0;
	}
	/* While kswapd reclaims, keep little on the pagesets. */
	if (zone->flags & ZONE_RECLAIM_ACTIVE) {
		int free_count = pcp->free_count > batch ? pcp->free_count : batch;
		int h = high - free_count;

		pcp->high = h > high_min ? h : high_min;
		return batch << 2 < pcp->high ? batch << 2 : pcp->high;
	}
	if (high_min == high_max)
		return high;
	if (zone->flags & ZONE_BELOW_HIGH) {
		int free_count = pcp->free_count > batch ? pcp->free_count : batch;
		int h = high - free_count;

		pcp->high = h > high_min ? h : high_min;
		high = pcp->count > high_min ? pcp->count : high_min;
	} else if (pcp->count >= high) {
		int need_high = pcp->free_count + batch;

		/* Hold at least the pages being freed in a row. */
		if (pcp->high < need_high)
			pcp->high = clamp_int(need_high, high_min, high_max);
	}
	return high;
}

int nr_pcp_free(struct per_cpu_pages *pcp, int batch, int high, bool free_high)
{
	if (free_high) {
		int most = batch << CONFIG_PCP_BATCH_SCALE_MAX;

		return pcp->count < most ? pcp->count : most;
	}
	if (high < batch)
		return 1;
	/* Free as many as were freed in a row, keeping a batch. */
	return clamp_int(pcp->free_count, batch, high - batch);
}

/* ---- allocation ---- */

pfn_t rmqueue_pcplist(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
		      unsigned alloc_flags)
{
	struct machine *m = zone->machine;
	struct per_cpu_pages *pcp = zone_pcp(zone, ctx->cpu);
	pfn_t pfn;

	if (!pcp_trylock(ctx, pcp, SITE_RMQUEUE_PCPLIST))
		return PFN_NONE;
	/* An allocation cuts the run of frees that sizes bulk frees. */
	pcp->free_count >>= 1;
	pfn = pcp_ops(m)->rmqueue(ctx, zone, order, mt, alloc_flags, pcp);
	pcp_unlock(ctx, pcp);
	if (pfn != PFN_NONE)
		m->vm_events[PGALLOC_DMA + zone->idx] += 1UL << order;
	return pfn;
}

unsigned long rmqueue_bulk(struct mm_ctx *ctx, struct zone *zone, unsigned order,
			   unsigned long count, int mt, unsigned alloc_flags,
			   struct per_cpu_pages *pcp)
{
	return pcp_ops(zone->machine)->rmqueue_bulk(ctx, zone, order, count, mt, alloc_flags, pcp);
}

/* ---- freeing ---- */

void free_pcppages_bulk(struct mm_ctx *ctx, struct zone *zone, int count,
			struct per_cpu_pages *pcp, int pindex)
{
	pcp_ops(zone->machine)->free_bulk(ctx, zone, count, pcp, pindex);
}

static void clear_below_high_if_recovered(struct zone *zone)
{
	if ((zone->flags & ZONE_BELOW_HIGH) &&
	    zone_watermark_ok(zone, 0, wmark_pages(zone, WMARK_HIGH), ZONE_MOVABLE, 0))
		zone->flags &= ~ZONE_BELOW_HIGH;
}

bool free_frozen_page_commit(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
			     pfn_t pfn, int mt, unsigned order, unsigned fpi, bool owned)
{
	struct machine *m = zone->machine;
	bool free_high = false;
	int batch, high, to_free;

	pcp->alloc_factor >>= 1;
	m->vm_events[PGFREE] += 1UL << order;
	/* Only pages of blocks this pcp owns may merge on it. */
	if (owned)
		m->mm.flags[pfn].aux |= PG_pcp_buddy;
	pcp_enqueue(m, pcp, &pcp->work, pfn, mt, order, false);

	batch = pcp->batch;
	/* High-order pages other than THPs fragment memory while cached:
	 * when freeing them without allocating, free in big batches. */
	if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
		free_high = pcp->free_count >= batch + pcp->high_min / 2 &&
			    (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) &&
			    (!(pcp->flags & PCPF_FREE_HIGH_BATCH) || pcp->count >= batch);
		pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	} else if (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) {
		pcp->flags &= (uint8_t)~PCPF_PREV_FREE_HIGH_ORDER;
	}
	if (pcp->free_count < batch << CONFIG_PCP_BATCH_SCALE_MAX)
		pcp->free_count += 1 << order;
	if (fpi & FPI_TRYLOCK)
		return true;      /* may go over high until the next free */

	high = nr_pcp_high(pcp, zone, batch, free_high);
	if (pcp->count < high)
		return true;
	to_free = nr_pcp_free(pcp, batch, high, free_high);
	if (!pcp_ops(m)->free_to_high(ctx, zone, pcp, to_free, (int)order_to_pindex(m, mt, order)))
		return false;
	clear_below_high_if_recovered(zone);
	return true;
}

/* free_pages_prepare(): the head stops being an allocated block. */
static void free_pages_prepare(struct machine *m, pfn_t pfn)
{
	pbstat_free(m->pbstat, pfn, page_order(&m->mm, pfn), page_extra(&m->mm, pfn));  /* pbstat */
	page_clear(&m->mm, pfn);
}

void __free_frozen_pages(struct mm_ctx *ctx, struct machine *m, pfn_t pfn, unsigned order,
			 unsigned fpi)
{
	struct zone *zone = pfn_zone(m, pfn);
	int mt;

	free_pages_prepare(m, pfn);
	if (!pcp_allowed_order(m, order)) {
		free_one_page(ctx, zone, pfn, order, fpi);
		return;
	}
	/* Isolated blocks bypass the pcp; highatomic and CMA pages are
	 * cached on the movable list. */
	mt = get_pfnblock_migratetype(&m->mm, pfn);
	if (mt >= MIGRATE_PCPTYPES) {
		if (mt == MIGRATE_ISOLATE) {
			free_one_page(ctx, zone, pfn, order, fpi);
			return;
		}
		mt = MIGRATE_MOVABLE;
	}

	const struct pcp_ops *ops = pcp_ops(m);
	unsigned cpu = ops->free_target_cpu(ctx, m, pfn);
	struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

	if (!ops->lock_for_free(ctx, pcp, fpi)) {
		free_one_page(ctx, zone, pfn, order, fpi);
		return;
	}
	if (pcp->flags & PCPF_CPU_DEAD) {
		pcp_unlock(ctx, pcp);
		free_one_page(ctx, zone, pfn, order, fpi);
		return;
	}
	if (free_frozen_page_commit(ctx, zone, pcp, pfn, mt, order, fpi,
				    (int)cpu == get_pcpblock_owner(m, pfn)))
		pcp_unlock(ctx, pcp);
}

void free_unref_folios(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr)
{
	const struct pcp_ops *ops = pcp_ops(m);
	struct per_cpu_pages *pcp = NULL;
	struct zone *locked_zone = NULL;

	for (unsigned i = 0; i < nr; i++) {
		pfn_t pfn = pfns[i];
		unsigned order = page_order(&m->mm, pfn);
		struct zone *zone = pfn_zone(m, pfn);
		int mt;

		free_pages_prepare(m, pfn);
		if (!pcp_allowed_order(m, order)) {
			free_one_page(ctx, zone, pfn, order, FPI_NONE);
			continue;
		}
		mt = get_pfnblock_migratetype(&m->mm, pfn);
		unsigned cpu = ops->free_target_cpu(ctx, m, pfn);

		/* Relock when the zone or the target pageset changes. */
		if (zone != locked_zone || mt == MIGRATE_ISOLATE || !pcp || pcp->cpu != cpu) {
			if (pcp) {
				pcp_unlock(ctx, pcp);
				pcp = NULL;
				locked_zone = NULL;
			}
			if (mt == MIGRATE_ISOLATE) {
				free_one_page(ctx, zone, pfn, order, FPI_NONE);
				continue;
			}
			pcp = zone_pcp(zone, cpu);
			if (!ops->lock_for_folios(ctx, pcp, FPI_NONE)) {
				pcp = NULL;
				free_one_page(ctx, zone, pfn, order, FPI_NONE);
				continue;
			}
			if (pcp->flags & PCPF_CPU_DEAD) {
				pcp_unlock(ctx, pcp);
				pcp = NULL;
				free_one_page(ctx, zone, pfn, order, FPI_NONE);
				continue;
			}
			locked_zone = zone;
		}
		if (mt >= MIGRATE_PCPTYPES)
			mt = MIGRATE_MOVABLE;
		if (!free_frozen_page_commit(ctx, zone, pcp, pfn, mt, order, FPI_NONE,
					     (int)cpu == get_pcpblock_owner(m, pfn))) {
			pcp = NULL;
			locked_zone = NULL;
		}
	}
	if (pcp)
		pcp_unlock(ctx, pcp);
}

/* ---- draining ---- */

void drain_pages_zone(struct mm_ctx *ctx, unsigned cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = zone_pcp(zone, cpu);
	int count;

	do {
		pcp_lock(ctx, pcp, SITE_DRAIN_PAGES_ZONE);
		count = pcp->count;
		if (count) {
			int to_drain = pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX;

			if (to_drain > count)
				to_drain = count;
			free_pcppages_bulk(ctx, zone, to_drain, pcp, 0);
			count -= to_drain;
		}
		pcp_unlock(ctx, pcp);
	} while (count);
}

void drain_pages(struct mm_ctx *ctx, struct machine *m, unsigned cpu)
{
	for_each_populated_zone(m, z)
		drain_pages_zone(ctx, cpu, z);
}

void drain_all_pages(struct mm_ctx *ctx, struct machine *m, struct zone *zone)
{
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++) {
		bool has_pcps = false;

		if (!m->cpu_online[cpu])
			continue;
		if (zone) {
			has_pcps = zone_pcp(zone, cpu)->count != 0;
		} else {
			for_each_populated_zone(m, z)
				has_pcps |= zone_pcp(z, cpu)->count != 0;
		}
		if (!has_pcps)
			continue;
		if (zone)
			drain_pages_zone(ctx, cpu, zone);
		else
			drain_pages(ctx, m, cpu);
	}
}

bool decay_pcp_high(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp)
{
	int high_min = pcp->high_min, batch = pcp->batch, to_drain;
	bool todo = false;

	/* Shrink high step by step so idle pagesets give their pages back,
	 * without freeing too many at once. */
	if (pcp->high > high_min) {
		int a = pcp->count - (batch << CONFIG_PCP_BATCH_SCALE_MAX);
		int b = pcp->high - (pcp->high >> 3);
		int h = a > b ? a : b;

		pcp->high = h > high_min ? h : high_min;
		if (pcp->high > high_min)
			todo = true;
	}
	to_drain = pcp->count - pcp->high;
	while (to_drain > 0) {
		int chunk = to_drain < batch ? to_drain : batch;

		pcp_lock(ctx, pcp, SITE_DECAY_PCP_HIGH);
		free_pcppages_bulk(ctx, zone, chunk, pcp, 0);
		pcp_unlock(ctx, pcp);
		todo = true;
		to_drain -= chunk;
	}
	return todo;
}

void drain_zone_pages(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp)
{
	int to_drain = MIN(pcp->count, pcp->batch);

	if (to_drain <= 0)
		return;
	pcp_lock(ctx, pcp, SITE_DRAIN_PAGES_ZONE);
	free_pcppages_bulk(ctx, zone, to_drain, pcp, 0);
	pcp_unlock(ctx, pcp);
}

void refresh_cpu_vm_stats(struct mm_ctx *ctx, struct machine *m)
{
	unsigned nid = topology_cpu_to_node(&m->topo, ctx->cpu);

	for_each_populated_zone(m, z) {
		struct per_cpu_pages *pcp = zone_pcp(z, ctx->cpu);

		decay_pcp_high(ctx, z, pcp);
		if (!pcp->expire || !pcp->count)
			continue;
		/* A zone of the CPU's own node is never drained here. */
		if (z->node == nid) {
			pcp->expire = 0;
			continue;
		}
		if (--pcp->expire)
			continue;
		drain_zone_pages(ctx, z, pcp);
	}
}

void vmstat_worker(struct mm_ctx *ctx, void *arg)
{
	struct machine *m = arg;

	for (;;) {
		schedule_timeout(ctx, machine_period_ns(m, m->vmstat_interval));
		if (kthread_should_stop(ctx))
			return;
		refresh_cpu_vm_stats(ctx, m);
	}
}

void page_alloc_cpu_dead(struct mm_ctx *ctx, struct machine *m, unsigned cpu)
{
	m->cpu_online[cpu] = false;
	for_each_populated_zone(m, z)
		pcp_ops(m)->cpu_dead(ctx, z, zone_pcp(z, cpu));
	for_each_populated_zone(m, z)
		zone_pcp_update(z, 0);
}

void page_alloc_cpu_online(struct mm_ctx *ctx, struct machine *m, unsigned cpu)
{
	for_each_populated_zone(m, z) {
		struct per_cpu_pages *pcp = zone_pcp(z, cpu);

		pcp_lock(ctx, pcp, SITE_OTHER);
		pcp->flags &= (uint8_t)~PCPF_CPU_DEAD;
		pcp_unlock(ctx, pcp);
		/* The CPU is not in the node's mask yet: count it in. */
		zone_pcp_update(z, 1);
	}
	m->cpu_online[cpu] = true;
}
