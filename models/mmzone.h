/* Zones, nodes and the machine (include/linux/mmzone.h). */
#ifndef MMSIM_MMZONE_H
#define MMSIM_MMZONE_H

#include "freelist.h"
#include "histogram.h"
#include "mm_env.h"
#include "thp_params.h"
#include "topology.h"

struct free_area {
	struct pfn_list free_list[MIGRATE_TYPES];
	unsigned long nr_free;
};

enum zone_stat_item {
	NR_FREE_PAGES,
	NR_FREE_CMA_PAGES,
	NR_VM_ZONE_STAT_ITEMS
};

/* Automatic NUMA balancing's sysctls (kernel.numa_balancing*), with the
 * kernel's defaults in numab_params_default(). */
struct numab_params {
	bool enabled;                   /* kernel.numa_balancing */
	unsigned scan_delay_ms;         /* numa_balancing_scan_delay_ms: 1000 */
	unsigned scan_period_min_ms;    /* numa_balancing_scan_period_min_ms: 1000 */
	unsigned scan_period_max_ms;    /* numa_balancing_scan_period_max_ms: 60000 */
	unsigned scan_size_mb;          /* numa_balancing_scan_size_mb: 256 */
	unsigned rate_limit_mbps;       /* numa_balancing_promote_rate_limit_MBps: 65536 */
};

/* The NUMA allocation events, counted per zone (zone_statistics()):
 * /proc/vmstat sums them, a node's numastat and vmstat its zones'. */
enum numa_stat_item {
	NUMA_HIT,
	NUMA_MISS,
	NUMA_FOREIGN,
	NUMA_INTERLEAVE_HIT,
	NUMA_LOCAL,
	NUMA_OTHER,
	NR_VM_NUMA_EVENT_ITEMS
};

/* The vm events this model counts (include/linux/vm_event_item.h),
 * machine-wide. */
enum vm_event_item {
	PGALLOC_DMA,
	PGALLOC_DMA32,
	PGALLOC_NORMAL,
	PGALLOC_MOVABLE,
	PGALLOC_DEVICE,
	PGFREE,
	PGFAULT,
	PGSTEAL_KSWAPD,
	PGSTEAL_DIRECT,
	PGSCAN_KSWAPD,
	PGSCAN_DIRECT,
	NUMA_PTE_UPDATES,
	NUMA_HINT_FAULTS,
	NUMA_HINT_FAULTS_LOCAL,
	NUMA_PAGES_MIGRATED,
	PGMIGRATE_SUCCESS,
	PGMIGRATE_FAIL,
	COMPACTMIGRATE_SCANNED,
	COMPACTFREE_SCANNED,
	COMPACTISOLATED,
	COMPACTSTALL,
	COMPACTFAIL,
	COMPACTSUCCESS,
	KCOMPACTD_WAKE,
	KCOMPACTD_MIGRATE_SCANNED,
	KCOMPACTD_FREE_SCANNED,
	THP_FAULT_ALLOC,
	THP_FAULT_FALLBACK,
	THP_COLLAPSE_ALLOC,
	THP_SPLIT_PAGE,
	THP_DEFERRED_SPLIT_PAGE,
	THP_SPLIT_PMD,
	THP_SPLIT_PUD,
	THP_MIGRATION_SUCCESS,
	THP_MIGRATION_FAIL,
	THP_MIGRATION_SPLIT,
	/* model-only: splits of a mapping refused because the page tables
	 * they need could not be allocated (thp_deposit below full) */
	THP_SPLIT_PMD_FAILED,
	THP_SPLIT_PUD_FAILED,
	ALLOC_FAIL,        /* model-only: requests get_page_from_freelist could not serve */
	/* model-only: pages handed to the zone buddy under zone->lock by
	 * free_pcppages_bulk and free_one_page (what the pagesets did not keep) */
	PGFREE_TO_BUDDY,
	NR_VM_EVENT_ITEMS
};

/* The walks over a zone's superpageblock lists (policy spb), by which
 * visits are counted (spb_walk_names names them). */
enum spb_walk {
	SPB_WALK_PASS1,     /* __rmqueue_smallest: the preferred category */
	SPB_WALK_PASS2,     /* free pageblocks of tainted ones, for non-movable work */
	SPB_WALK_PASS3,     /* empty ones */
	SPB_WALK_PASS4,     /* tainted ones above their reserve, for movable work */
	SPB_WALK_PREFERRED, /* sb_preferred_for_movable: rmqueue_bulk's Phase 1 */
	SPB_WALK_FALLBACK,  /* __rmqueue_sb_find_fallback: claim and steal */
	SPB_WALK_CONTIG,    /* sb_collect_contig_candidates */
	SPB_WALK_EVACUATE,  /* sb_collect_evacuate_candidates */
	NR_SPB_WALKS
};

/* Work done inside a critical section, priced by the engine when the lock
 * is released: the section lasts as long as what it did. */
struct mm_work {
	unsigned long list_ops;     /* blocks added to or removed from lists */
	unsigned long merge_steps;
	unsigned long split_steps;
	unsigned long pb_scan;      /* frames looked at while scanning pageblocks */
	unsigned long spb_visits[NR_SPB_WALKS]; /* superpageblocks looked at, by walk */
	unsigned long spb_moves;    /* superpageblocks relinked on zone lists */
};

/* Every walk's visits. */
static inline unsigned long mm_work_spb_visits(const struct mm_work *w)
{
	unsigned long n = 0;

	for (int i = 0; i < NR_SPB_WALKS; i++)
		n += w->spb_visits[i];
	return n;
}

/* The allocator variant, chosen per machine (docs/MODEL.md, section 1). */
enum mm_policy {
	POLICY_UPSTREAM,    /* BASE: the parent of the per-cpu pageblock buddy */
	POLICY_PCP_BUDDY,   /* 0352d5f0: per-cpu pageblock buddy allocator */
	POLICY_SPB,         /* the superpageblock series tip (832e6bcd), on top of pcp_buddy */
	NR_MM_POLICIES
};

extern const char *const mm_policy_names[NR_MM_POLICIES];

struct per_cpu_pages;
struct mm_registry;
struct thp_state;
struct khugepaged_scan;
struct folio_batch;
struct page_cache;
struct kvmalloc_stats;

/* zone->flags bits */
#define ZONE_BOOSTED_WATERMARK 0x1
#define ZONE_BELOW_HIGH 0x2
#define ZONE_RECLAIM_ACTIVE 0x4

struct machine;

/* Superpageblocks (policy spb): 1 GiB regions of a zone, each with its own
 * buddy free lists, sorted on zone lists by category and fullness.  The
 * zone embeds its lists; the rest is in superpageblock.h. */
enum sb_category { SB_CLEAN, SB_TAINTED, __NR_SB_CATEGORIES };
enum sb_fullness { SB_FULL, SB_FULL_75, SB_FULL_50, SB_FULL_25, SB_ALMOST_EMPTY,
		   __NR_SB_FULLNESS };

/* A zone list of superpageblocks, linked by index. */
struct spb_list {
	uint32_t head, tail, nr;
};

struct superpageblock;
struct zone;
struct check_report;

/* A zone's free-list operations, chosen once when the zone is set up (as a
 * policy's pagesets are by pcp_ops): the plain buddy's (buddy.c, every zone
 * at first) or, with superpageblocks, their own lists' (superpageblock.c,
 * set by setup_superpageblocks).  A variant is its file and its table;
 * the shared paths never test which one a zone has. */
struct zone_ops {
	/* The list steps of __add_to_free_list, __del_page_from_free_list
	 * and move_to_free_list; the caller keeps the page state, nr_free
	 * and the work counters. */
	void (*add_to_free_list)(struct zone *zone, pfn_t pfn, unsigned order, int mt,
				 bool tail);
	void (*del_from_free_list)(struct zone *zone, pfn_t pfn, unsigned order, int mt);
	void (*move_to_free_list)(struct zone *zone, pfn_t pfn, unsigned order, int old_mt,
				  int new_mt);
	/* __free_one_page's pageblock steps: a block of pageblock_order or
	 * more coming back, and a merge reaching pageblock_order (orig_order
	 * the freed block's); each returns the type the free goes on with. */
	int (*free_pageblocks)(struct zone *zone, pfn_t pfn, unsigned order, int mt);
	int (*merged_pageblock)(struct zone *zone, pfn_t pfn, int mt, unsigned orig_order);
	/* A 2^order block at pfn taken off the free lists for mt (NULL: no
	 * bookkeeping). */
	void (*mark_taken)(struct zone *zone, pfn_t pfn, unsigned order, int mt);
	/* The allocation steps of buddy.h of the same names. */
	pfn_t (*rmqueue_smallest)(struct zone *zone, unsigned order, int mt);
	pfn_t (*try_to_claim_block)(struct zone *zone, pfn_t pfn, unsigned current_order,
				    unsigned order, int start_type, int block_type,
				    unsigned alloc_flags);
	pfn_t (*rmqueue_claim)(struct zone *zone, unsigned order, int start_mt,
			       unsigned alloc_flags);
	pfn_t (*rmqueue_steal)(struct zone *zone, unsigned order, int start_mt,
			       unsigned alloc_flags);
	/* The first free block of order on the zone's mt lists, or PFN_NONE. */
	pfn_t (*first_free)(struct zone *zone, unsigned order, int mt);
	/* The zone's span grew (hotplug): the variant's own structures follow
	 * (NULL: nothing to do). */
	void (*resize)(struct zone *zone);
	/* __alloc_pages_direct_compact's shortcut on this zone before
	 * compaction proper (NULL: none): true if it made a block of 2^order
	 * for mt (*pfn, taken off the free lists) or, *pfn PFN_NONE, room
	 * worth trying the free lists again for. */
	bool (*compact_shortcut)(struct mm_ctx *ctx, struct zone *zone, gfp_t gfp, unsigned order,
				 int mt, pfn_t *pfn);
	/* The checker's look at the lists holding the zone's free blocks of
	 * order o and type mt: the blocks seen, violations to r. */
	uint32_t (*check_free_list)(struct zone *zone, struct check_report *r, unsigned o, int mt);
	/* A __GFP_NORETRY request without direct reclaim "has a fallback" and
	 * gets no fragmenting fallback (the later series' rule). */
	bool noretry_has_fallback;
	/* Whether the variant reads the lock holder's clock (machine->now_ns,
	 * set when zone->lock is taken) and has each zone->lock section
	 * reported to the engine (mm_env's spb_section). */
	bool section_hooks;
};

extern const struct zone_ops buddy_zone_ops;

struct zone {
	struct machine *machine;
	unsigned node;
	enum zone_type idx;
	const char *name;
	pfn_t zone_start_pfn;
	pfn_t spanned_pages;
	pfn_t present_pages;
	unsigned long managed_pages;
	unsigned long _watermark[NR_WMARK];
	unsigned long watermark_boost;
	unsigned long nr_reserved_highatomic;
	unsigned long nr_free_highatomic;
	long lowmem_reserve[MAX_NR_ZONES];
	unsigned long flags;
	long vm_stat[NR_VM_ZONE_STAT_ITEMS];
	unsigned long vm_numa_event[NR_VM_NUMA_EVENT_ITEMS];
	const struct zone_ops *ops;         /* the free lists' variant */
	struct spinlock lock;               /* zone->lock */
	enum lock_site lock_site;           /* where the holder took it */
	struct mm_work work;                /* done under zone->lock, not yet charged */
	struct per_cpu_pages *per_cpu_pageset;  /* one per possible CPU */
	int pageset_high_min, pageset_high_max, pageset_batch;
	/* With superpageblocks, free blocks live on the superpageblocks' lists
	 * and free_area[o].nr_free and free_list[mt].nr are shadow counts. */
	struct free_area free_area[NR_PAGE_ORDERS];
	struct superpageblock *superpageblocks;  /* superpageblock.h */
	uint32_t nr_superpageblocks;
	pfn_t superpageblock_base_pfn;
	struct spb_list spb_empty, spb_isolated;
	struct spb_list spb_lists[__NR_SB_CATEGORIES][__NR_SB_FULLNESS];
	/* Compaction (models/compaction.c): where the scanners restart (0
	 * until the first run sets them), skip-hint flushing, deferral. */
	pfn_t compact_cached_free_pfn;
	pfn_t compact_cached_migrate_pfn[2];    /* [0] async, [1] sync */
	pfn_t compact_init_migrate_pfn, compact_init_free_pfn;
	bool compact_blockskip_flush;
	unsigned compact_considered, compact_defer_shift;
	int compact_order_failed;
};

static inline bool populated_zone(const struct zone *z)
{
	return z->present_pages != 0;
}

/* The variant's bookkeeping for a block taken off the free lists. */
static inline void zone_mark_taken(struct zone *z, pfn_t pfn, unsigned order, int mt)
{
	if (z->ops->mark_taken)
		z->ops->mark_taken(z, pfn, order, mt);
}

static inline bool zone_spans_pfn(const struct zone *z, pfn_t pfn)
{
	return pfn >= z->zone_start_pfn && pfn < z->zone_start_pfn + z->spanned_pages;
}

static inline pfn_t zone_end_pfn(const struct zone *z)
{
	return z->zone_start_pfn + z->spanned_pages;
}

static inline unsigned long zone_page_state(const struct zone *z, enum zone_stat_item i)
{
	long v = z->vm_stat[i];

	return v < 0 ? 0 : (unsigned long)v;
}

static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks w)
{
	return z->_watermark[w] + z->watermark_boost;
}

/* A boot-time reservation (memblock.reserved, models/memblock.h). */
struct memblock_region {
	pfn_t base, size;
	unsigned what;                      /* enum memblock_use */
};

/* No memory cgroups: one lruvec per node (pgdat->__lruvec). */
struct lruvec {
	struct spinlock lru_lock;
};

struct pglist_data {
	unsigned node_id;
	pfn_t node_start_pfn;
	pfn_t node_spanned_pages;
	struct zone node_zones[MAX_NR_ZONES];
	/* node_zonelists[ZONELIST_FALLBACK]: zones of every node, nearest node
	 * first, highest zone first within a node. */
	struct zone **zonelist;
	unsigned nr_zonelist;
	/* The order and zone kswapd was last woken for (wakeup_kswapd,
	 * models/page_cache.c); MAX_NR_ZONES: none. */
	int kswapd_order;
	int kswapd_highest_zoneidx;
	bool kswapd_wake;                   /* woken: run a kswapd() turn now */
	int kswapd_failures;                /* passes in a row that reclaimed nothing */
	/* kcompactd's work, set by wakeup_kcompactd() (models/compaction.c). */
	int kcompactd_max_order;
	int kcompactd_highest_zoneidx;
	bool kcompactd_wake;                /* woken: run kcompactd_do_work now */
	/* NUMA balancing's per-node migration rate limit: the current
	 * one-second window's start (ns) and pages migrated to the node in it. */
	uint64_t numab_window_start;
	unsigned long numab_window_pages;
	/* kevacuate/<nid>, the superpageblock defrag queue
	 * (superpageblock_defrag.c); NULL until pageblock_evacuate_init(). */
	struct evacuate_wq *evacuate_wq;
	struct lruvec __lruvec;
};

struct machine {
	struct topology topo;
	unsigned nr_nodes;
	struct pglist_data *node_data;
	struct memmap mm;
	/* sysctls */
	int min_free_kbytes;
	int user_min_free_kbytes;        /* -1: not set by the user */
	int watermark_scale_factor;
	int watermark_boost_factor;
	int lowmem_reserve_ratio[MAX_NR_ZONES];
	int percpu_pagelist_high_fraction;  /* 0: automatic high tuning */
	int pcp_high, pcp_batch;            /* fixed pagesets (machine_params); 0: sized */
	enum mm_policy policy;
	/* Policy spb's zone-list walks: the series' own, or the what-if of
	 * an index that lets them skip superpageblocks without a free page
	 * (models/superpageblock_internal.h). */
	bool spb_walk_indexed;
	enum thp_enabled thp;               /* 2 MiB THP; not never: khugepaged raises min_free_kbytes */
	struct thp_params thp_opts;         /* the other THP knobs (models/huge_memory.c) */
	struct thp_state *thp_state;        /* THP folios and their split queues, NULL until a THP fault */
	struct khugepaged_scan *khugepaged; /* khugepaged's place, NULL until its first pass */
	int extfrag_threshold;              /* vm.extfrag_threshold, default 500 */
	int compaction_proactiveness;       /* vm.compaction_proactiveness, default 20 */
	/* The kernel threads' timing (machine_params). */
	uint64_t vmstat_interval, kswapd_interval;
	double time_scale;                  /* machine_params.time_scale */
	/* /sys/kernel/mm/mempolicy/weighted_interleave/nodeN: 1 to 255, default 1 */
	uint8_t iw_table[MAX_NUMNODES];
	struct numab_params numab;          /* automatic NUMA balancing (models/numa_balancing.c) */
	/* Long-term pins (models/mm_space_pgtable.c): the share of anonymous
	 * pages pinned when faulted, and the run's seed that picks them. */
	double pinned_share;
	uint64_t pin_seed;
	pfn_t hotplug_reserve_pages;        /* memmap room above each node for hotplug */
	/* Boot-time reservations, by address; none with boot_reserve off. */
	struct memblock_region *memblock_reserved;
	unsigned nr_memblock_reserved;
	unsigned nr_cpus;
	bool *cpu_online;
	unsigned cpu_data_slice_kib;        /* LLC share per CPU, for PCPF_FREE_HIGH_BATCH */
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	/* The model's jiffies: simulated time when zone->lock of a zone with
	 * superpageblocks was last taken (their defrag back-off reads it). */
	uint64_t now_ns;
	unsigned long nr_gigantic;          /* 1 GiB hugetlb pages held (models/hugetlb.c) */
	/* Simulated time of __alloc_pages calls from simulated threads, as a
	 * function-latency tracer would see it. */
	struct log_hist alloc_latency;
	struct mm_registry *procs;          /* processes (models/mm_space.c) */
	struct page_cache *page_cache;      /* file pages and their LRUs (models/page_cache.c) */
	struct kvmalloc_stats *kvmalloc;    /* what kvmalloc did (models/kvmalloc.c) */
	struct slub *slub;                  /* slab caches, NULL until one is made (models/slub.c) */
	struct dcache *dcache;              /* dentries and inodes (models/dcache.c) */
	struct page_frag_state *page_frag;  /* network buffer fragments (models/page_frag.c) */
	/* CONFIG_VMAP_STACK: threads' stacks are vmalloc'ed order-0 pages,
	 * else order-2 blocks (models/fork.c), and the stacks made so far. */
	bool vmap_stack;
	struct { unsigned long allocated, freed; } kstacks;
	struct pbstat *pbstat;              /* pbstat: per-pageblock accounting (models/pbstat.h) */
	uint64_t *page_owner_ts;            /* page_owner=on: per frame (models/page_owner.h), or NULL */
	struct folio_batch *lru_add;        /* per CPU, made on first use (models/swap.c) */
	/* While a capture is imported: the frames allocations are served
	 * from (models/snapshot.c); NULL otherwise. */
	struct snapshot_pools *snapshot_pools;
};

/* page_zone(): zone boundaries are pageblock aligned, so each pageblock
 * records its zone as node * MAX_NR_ZONES + zone index. */
static inline struct zone *pfn_zone(struct machine *m, pfn_t pfn)
{
	unsigned id = m->mm.pb_zone[pfn_to_pb(pfn)];

	return &m->node_data[id / MAX_NR_ZONES].node_zones[id % MAX_NR_ZONES];
}

#define for_each_zone(m, z)                                                         \
	for (unsigned _n = 0; _n < (m)->nr_nodes; _n++)                              \
		for (struct zone *z = (m)->node_data[_n].node_zones;                  \
		     z < (m)->node_data[_n].node_zones + MAX_NR_ZONES; z++)

#define for_each_populated_zone(m, z) for_each_zone(m, z) if (!populated_zone(z)) {} else

/* One of the kernel's periods or timeouts (ns) on this machine's clock:
 * divided by a time-compressed scenario's compression, so that its
 * daemons run as often, against its compressed rates, as the kernel's do
 * against real ones. */
static inline uint64_t machine_period_ns(const struct machine *m, uint64_t ns)
{
	return (uint64_t)((double)ns / m->time_scale);
}

#endif
