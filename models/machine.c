#include "machine.h"
#include "superpageblock.h"
#include "buddy.h"
#include "dcache.h"
#include "huge_memory.h"
#include "kvmalloc.h"
#include "memblock.h"
#include "page_cache.h"
#include "page_frag.h"
#include "mm_space.h"
#include "numa_balancing.h"
#include "pbstat.h"  /* pbstat */
#include "pcp.h"
#include "slub.h"
#include "swap.h"
#include "watermark.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void machine_params_default(struct machine_params *p)
{
	/* Every field defined, those not named below (iw_table) zero. */
	*p = (struct machine_params){ 0 };
	p->min_free_kbytes = -1;
	p->watermark_scale_factor = 10;
	p->watermark_boost_factor = 15000;
	p->thp = THP_MADVISE;
	thp_params_default(&p->thp_opts);
	p->policy = POLICY_UPSTREAM;
	p->spb_walk_indexed = false;
	p->percpu_pagelist_high_fraction = 0;
	p->pcp_high = p->pcp_batch = 0;
	/* Sapphire Rapids: 1.875 MiB of L3 per core. */
	p->cpu_data_slice_kib = 1920;
	p->hotplug_reserve = 0;
	p->pinned_share = 0;
	p->compaction_proactiveness = 20;
	p->vmstat_interval = 1000000000;
	p->kswapd_interval = 1000000;
	p->time_scale = 1;
	numab_params_default(&p->numab);
	p->pin_seed = 1;
	p->boot_reserve = true;
	p->populate = true;
	p->vmap_stack = true;
	p->page_owner = false;
	p->host_bytes = 0;
	p->host_what = NULL;
}

int mm_policy_parse(const char *name)
{
	for (int i = 0; i < NR_MM_POLICIES; i++)
		if (!strcmp(name, mm_policy_names[i]))
			return i;
	return -1;
}

uint64_t host_memory_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

static void zone_init(struct machine *m, struct zone *z, unsigned nid, enum zone_type idx,
		      pfn_t start, pfn_t end)
{
	z->machine = m;
	z->node = nid;
	z->idx = idx;
	z->name = zone_names[idx];
	z->zone_start_pfn = start;
	z->spanned_pages = end > start ? end - start : 0;
	z->present_pages = z->spanned_pages;
	z->managed_pages = 0;   /* counted as memblock_free_range() frees */
	z->ops = &buddy_zone_ops;
	spin_lock_init(&z->lock, LOCK_CLASS_ZONE);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			pfn_list_init(&z->free_area[o].free_list[mt], (unsigned)o);
}

/* free_area_init(): node n's memory follows node n-1's; node 0 holds
 * ZONE_DMA below 16 MiB and ZONE_DMA32 below 4 GiB; each node's optional
 * ZONE_MOVABLE is the top of its memory (movablecore=). */
static void layout_nodes(struct machine *m)
{
	pfn_t base = 0;

	for (unsigned n = 0; n < m->nr_nodes; n++) {
		struct pglist_data *pgdat = &m->node_data[n];
		pfn_t pages = (pfn_t)(m->topo.node_mem[n] >> PAGE_SHIFT);
		pfn_t end = base + pages;
		pfn_t movable = end - (pfn_t)(m->topo.movable_mem[n] >> PAGE_SHIFT);
		pfn_t dma_end = MIN(MIN(DMA_LIMIT_PFN, movable), end);
		pfn_t dma32_end = MIN(DMA32_LIMIT_PFN, movable);

		pgdat->node_id = n;
		spin_lock_init(&pgdat->__lruvec.lru_lock, LOCK_CLASS_LRU);
		pgdat->node_start_pfn = base;
		pgdat->node_spanned_pages = pages;
		pgdat->kcompactd_highest_zoneidx = MAX_NR_ZONES - 1;
		pgdat->kswapd_highest_zoneidx = MAX_NR_ZONES;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			zone_init(m, &pgdat->node_zones[z], n, z, 0, 0);
		if (base < dma_end)
			zone_init(m, &pgdat->node_zones[ZONE_DMA], n, ZONE_DMA, base, dma_end);
		if (MAX(base, DMA_LIMIT_PFN) < dma32_end)
			zone_init(m, &pgdat->node_zones[ZONE_DMA32], n, ZONE_DMA32,
				  MAX(base, DMA_LIMIT_PFN), dma32_end);
		if (MAX(base, DMA32_LIMIT_PFN) < movable)
			zone_init(m, &pgdat->node_zones[ZONE_NORMAL], n, ZONE_NORMAL,
				  MAX(base, DMA32_LIMIT_PFN), movable);
		if (movable < end)
			zone_init(m, &pgdat->node_zones[ZONE_MOVABLE], n, ZONE_MOVABLE, movable, end);
		base = end + m->hotplug_reserve_pages;
	}
}

/* build_zonelists(): nearest node first; among equally distant nodes the
 * kernel prefers the ones numbered above the local node. */
static void build_zonelists(struct machine *m, struct pglist_data *pgdat)
{
	unsigned order[MAX_NUMNODES], nr = m->nr_nodes, local = pgdat->node_id;

	for (unsigned i = 0; i < nr; i++)
		order[i] = i;
	for (unsigned i = 1; i < nr; i++) {
		for (unsigned j = i; j > 0; j--) {
			unsigned a = order[j - 1], b = order[j];
			unsigned ka = topology_node_distance(&m->topo, local, a) * 2 + (a < local);
			unsigned kb = topology_node_distance(&m->topo, local, b) * 2 + (b < local);

			if (ka < kb || (ka == kb && a < b))
				break;
			order[j - 1] = b;
			order[j] = a;
		}
	}
	pgdat->zonelist = g_new0(struct zone *, nr * MAX_NR_ZONES);
	pgdat->nr_zonelist = 0;
	for (unsigned i = 0; i < nr; i++)
		for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
			struct zone *zone = &m->node_data[order[i]].node_zones[z];

			if (populated_zone(zone))
				pgdat->zonelist[pgdat->nr_zonelist++] = zone;
		}
}

/* memmap_init_range() labels every pageblock of [start, end) MOVABLE,
 * reserved or not; memblock_free_all() (or onlining) then hands what is
 * not reserved to the buddy. */
static void zone_init_and_free_range(struct machine *m, struct zone *z, pfn_t start, pfn_t end,
				     bool populate)
{
	unsigned id = z->node * MAX_NR_ZONES + z->idx;

	_Static_assert(MAX_NUMNODES * MAX_NR_ZONES <= UINT16_MAX + 1, "pb_zone ids are 16-bit");

	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages) {
		init_pageblock_migratetype(z, pfn, MIGRATE_MOVABLE);
		m->mm.pb_cl[pfn_to_pb(pfn)].last_cpu = -1;
		m->mm.pb_zone[pfn_to_pb(pfn)] = (uint16_t)id;
	}
	if (populate)
		memblock_free_range(z, start, end);
}

static void zone_boot_free(struct machine *m, struct zone *z, bool populate)
{
	if (m->policy == POLICY_SPB)
		setup_superpageblocks(z);
	zone_init_and_free_range(m, z, z->zone_start_pfn, zone_end_pfn(z), populate);
}

int online_memory_block(struct mm_ctx *ctx, struct machine *m, unsigned nid, uint64_t bytes)
{
	struct pglist_data *pgdat;
	struct zone *z;
	pfn_t start, end, limit, nr;

	if (nid >= m->nr_nodes || bytes == 0 || bytes % SECTION_SIZE_BYTES)
		return ONLINE_EINVAL;
	pgdat = &m->node_data[nid];
	/* default_zone_for_pfn(): a range next to the Movable zone joins it
	 * (as with movable_node), else the Normal zone grows. */
	z = &pgdat->node_zones[ZONE_MOVABLE];
	if (!populated_zone(z))
		z = &pgdat->node_zones[ZONE_NORMAL];
	if (!populated_zone(z))
		return ONLINE_NO_ZONE;
	limit = nid + 1 < m->nr_nodes ? m->node_data[nid + 1].node_start_pfn : m->mm.nr_frames;
	start = zone_end_pfn(z);
	if ((uint64_t)start + (bytes >> PAGE_SHIFT) > limit)
		return ONLINE_NO_ROOM;
	nr = (pfn_t)(bytes >> PAGE_SHIFT);
	end = start + nr;
	zone_lock(ctx, z, SITE_OTHER);
	/* move_pfn_range_to_zone(): the span grows, then the superpageblocks. */
	z->spanned_pages += nr;
	pgdat->node_spanned_pages += nr;
	if (z->ops->resize)
		z->ops->resize(z);
	/* online_pages(): the new pages go to the buddy. */
	zone_init_and_free_range(m, z, start, end, true);
	z->present_pages += nr;
	z->work = (struct mm_work){ 0 };
	zone_unlock(ctx, z);
	m->topo.node_mem[nid] += bytes;
	/* init_per_zone_wmark_min() and zone_pcp_update() after onlining. */
	init_per_zone_wmark_min(m, m->thp);
	zone_pcp_update(z, 1);
	return 0;
}

struct machine *machine_create(const struct topology *t, const struct machine_params *p,
			       char **err)
{
	struct machine *m;

	*err = topology_validate(t, p->host_bytes ? p->host_bytes : host_memory_bytes(),
				 p->host_bytes ? p->host_what : NULL);
	if (*err)
		return NULL;
	if (!(p->pinned_share >= 0 && p->pinned_share <= 1)) {
		*err = g_strdup_printf("pinned_share must be between 0 and 1, got %g", p->pinned_share);
		return NULL;
	}
	if (p->spb_walk_indexed && p->policy != POLICY_SPB) {
		*err = g_strdup_printf("the indexed superpageblock walk needs policy spb, not %s",
				       mm_policy_names[p->policy]);
		return NULL;
	}
	m = g_new0(struct machine, 1);
	m->topo = *t;
	m->nr_nodes = t->nr_nodes;
	m->min_free_kbytes = 0;
	m->user_min_free_kbytes = -1;
	m->watermark_scale_factor = p->watermark_scale_factor;
	m->watermark_boost_factor = p->watermark_boost_factor;
	m->lowmem_reserve_ratio[ZONE_DMA] = 256;
	m->lowmem_reserve_ratio[ZONE_DMA32] = 256;
	m->lowmem_reserve_ratio[ZONE_NORMAL] = 32;
	m->policy = p->policy;
	m->spb_walk_indexed = p->spb_walk_indexed;
	m->thp = p->thp;
	m->thp_opts = p->thp_opts;
	m->extfrag_threshold = 500;
	m->compaction_proactiveness = p->compaction_proactiveness;
	m->vmstat_interval = p->vmstat_interval;
	m->kswapd_interval = p->kswapd_interval;
	m->time_scale = p->time_scale;
	for (unsigned n = 0; n < MAX_NUMNODES; n++)
		m->iw_table[n] = p->iw_table[n] ? p->iw_table[n] : 1;
	m->numab = p->numab;
	m->hotplug_reserve_pages = (pfn_t)(p->hotplug_reserve >> PAGE_SHIFT);
	m->percpu_pagelist_high_fraction = p->percpu_pagelist_high_fraction;
	m->pcp_high = p->pcp_high;
	m->pcp_batch = p->pcp_batch;
	m->cpu_data_slice_kib = p->cpu_data_slice_kib;
	m->pinned_share = p->pinned_share;
	m->pin_seed = p->pin_seed;
	m->vmap_stack = p->vmap_stack;
	m->nr_cpus = topology_nr_cpus(t);
	m->cpu_online = g_new(bool, m->nr_cpus);
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		m->cpu_online[cpu] = true;
	if (memmap_init(&m->mm, (pfn_t)((topology_total_mem(t) +
					  (uint64_t)t->nr_nodes * p->hotplug_reserve) >> PAGE_SHIFT))) {
		*err = g_strdup_printf("cannot allocate the memmap for %" G_GUINT64_FORMAT
				       " frames", topology_total_mem(t) >> PAGE_SHIFT);
		g_free(m);
		return NULL;
	}
	m->pbstat = pbstat_create(m->mm.nr_frames);  /* pbstat */
	if (p->page_owner)
		m->page_owner_ts = g_new0(uint64_t, m->mm.nr_frames);
	kvmalloc_init(m);
	m->node_data = g_new0(struct pglist_data, m->nr_nodes);
	layout_nodes(m);
	if (p->boot_reserve) {
		*err = memblock_reserve_boot(m);
		if (*err) {
			machine_destroy(m);
			return NULL;
		}
	}
	for (unsigned n = 0; n < m->nr_nodes; n++)
		build_zonelists(m, &m->node_data[n]);
	for_each_populated_zone(m, z)
		zone_boot_free(m, z, p->populate);
	for_each_populated_zone(m, z) {
		setup_zone_pageset(z);
		/* Boot takes no simulated time: no section is charged for it. */
		z->work = (struct mm_work){ 0 };
	}
	init_per_zone_wmark_min(m, p->thp);
	/* Writing vm.min_free_kbytes after boot: the value is taken as is. */
	if (p->min_free_kbytes >= 0)
		min_free_kbytes_sysctl_handler(m, p->min_free_kbytes);
	return m;
}

void machine_destroy(struct machine *m)
{
	if (!m)
		return;
	page_cache_destroy(m);
	mm_free_all(m);
	thp_state_destroy(m);
	g_free(m->khugepaged);
	dcache_destroy(m);
	page_frag_destroy(m);
	slub_destroy(m);
	pageblock_evacuate_exit(m);
	lru_batches_destroy(m);
	for (unsigned n = 0; n < m->nr_nodes; n++)
		g_free(m->node_data[n].zonelist);
	for_each_zone(m, z) {
		g_free(z->per_cpu_pageset);
		free_superpageblocks(z);
	}
	g_free(m->cpu_online);
	g_free(m->node_data);
	g_free(m->memblock_reserved);
	memmap_destroy(&m->mm);
	pbstat_destroy(m->pbstat);  /* pbstat */
	g_free(m->page_owner_ts);
	kvmalloc_destroy(m);
	g_free(m);
}

unsigned long machine_free_pages(const struct machine *m)
{
	unsigned long sum = 0;

	for_each_zone(m, z)
		sum += zone_page_state(z, NR_FREE_PAGES);
	return sum;
}

unsigned long machine_pcp_pages(struct machine *m)
{
	unsigned long sum = 0;

	for_each_zone(m, z)
		sum += zone_pcp_pages(z);
	return sum;
}

unsigned long machine_managed_pages(const struct machine *m)
{
	unsigned long sum = 0;

	for_each_zone(m, z)
		sum += z->managed_pages;
	return sum;
}
