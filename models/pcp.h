/* Per-CPU page lists (mm/page_alloc.c): the upstream pagesets and the
 * per-cpu pageblock buddy allocator (pcp_buddy, docs/MODEL.md), chosen by the machine's
 * policy (pcp_internal.h says what each variant provides). */
#ifndef MMSIM_PCP_H
#define MMSIM_PCP_H

#include "mmzone.h"

#define CONFIG_PCP_BATCH_SCALE_MAX 5
#define MIN_PERCPU_PAGELIST_HIGH_FRACTION 8
#define HPAGE_PMD_ORDER pageblock_order
/* Upstream: orders 0..3 per type, plus two THP lists. */
#define NR_LOWORDER_PCP_LISTS (MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_LISTS_UPSTREAM (NR_LOWORDER_PCP_LISTS + 2)
/* Per-cpu pageblock buddy: a list per type for every order (up to
 * pageblock_order used). */
#define NR_PCP_ORDERS (MAX_PAGE_ORDER + 1)
#define NR_PCP_LISTS (MIGRATE_PCPTYPES * NR_PCP_ORDERS)

#define PCPF_PREV_FREE_HIGH_ORDER 0x1
#define PCPF_FREE_HIGH_BATCH 0x2
#define PCPF_CPU_DEAD 0x4

/* A list of pageblocks (by pageblock number), linked through
 * pageblock_data.cpu_node. */
struct pb_list {
	uint32_t head, tail;
};

struct per_cpu_pages {
	struct spinlock lock;       /* pcp->lock */
	struct mm_work work;        /* done under pcp->lock, not yet charged */
	unsigned cpu;
	int count;                  /* pages on the lists */
	int high, high_min, high_max, batch;
	uint8_t flags;
	uint8_t alloc_factor;
	/* vmstat passes until the pageset of a remote zone is drained: set
	 * when its CPU last used it (NUMA's "3 seconds idle till flush"). */
	uint8_t expire;
	short free_count;
	struct pb_list owned_blocks;    /* pcp_buddy: blocks to recover in Phase 0 */
	struct pfn_list lists[NR_PCP_LISTS];
};

static inline struct per_cpu_pages *zone_pcp(struct zone *zone, unsigned cpu)
{
	return &zone->per_cpu_pageset[cpu];
}

unsigned order_to_pindex(const struct machine *m, int mt, unsigned order);
unsigned pindex_to_order(const struct machine *m, unsigned pindex);
unsigned nr_pcp_lists(const struct machine *m);
bool pcp_allowed_order(const struct machine *m, unsigned order);

/* Boot pagesets (batch 1, nothing cached), then sizes from the zone. */
void setup_zone_pageset(struct zone *zone);
void zone_pcp_update(struct zone *zone, int cpu_online);
/* A write of vm.percpu_pagelist_high_fraction (0, or 8 and up): every
 * populated zone's pagesets get their high and batch again. */
void percpu_pagelist_high_fraction_sysctl_handler(struct machine *m, int fraction);
int zone_batchsize(const struct zone *zone);
int zone_highsize(const struct zone *zone, int batch, int cpu_online, int high_fraction);

/* The locking wrappers: taking the lock charges the cache-line transfer of
 * the structure, releasing it charges the work done under it. */
void zone_lock(struct mm_ctx *ctx, struct zone *zone, enum lock_site site);
bool zone_trylock(struct mm_ctx *ctx, struct zone *zone, enum lock_site site);
void zone_unlock(struct mm_ctx *ctx, struct zone *zone);
void pcp_lock(struct mm_ctx *ctx, struct per_cpu_pages *pcp, enum lock_site site);
bool pcp_trylock(struct mm_ctx *ctx, struct per_cpu_pages *pcp, enum lock_site site);
void pcp_unlock(struct mm_ctx *ctx, struct per_cpu_pages *pcp);

/* List primitives: the block's migratetype list for its order.  w is the
 * work of the innermost section held: &zone->work inside zone->lock (a
 * refill or a drain), else &pcp->work, so the operation lengthens that
 * lock's hold. */
void pcp_enqueue(struct machine *m, struct per_cpu_pages *pcp, struct mm_work *w, pfn_t pfn,
		 int mt, unsigned order, bool tail);
void pcp_dequeue(struct machine *m, struct per_cpu_pages *pcp, struct mm_work *w, pfn_t pfn);

int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *zone, unsigned order);
int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high);
int nr_pcp_free(struct per_cpu_pages *pcp, int batch, int high, bool free_high);

/* From the local pageset: PFN_NONE if its lock is busy or neither it nor
 * a refill could serve. */
pfn_t rmqueue_pcplist(struct mm_ctx *ctx, struct zone *zone, unsigned order, int mt,
		      unsigned alloc_flags);
/* Refill pcp under zone->lock; pages added, 0 if none (or, with
 * ALLOC_TRYLOCK, if zone->lock was busy). */
unsigned long rmqueue_bulk(struct mm_ctx *ctx, struct zone *zone, unsigned order,
			   unsigned long count, int mt, unsigned alloc_flags,
			   struct per_cpu_pages *pcp);
/* Give count pages of pcp back to the zone, in the order the variant
 * chooses (upstream: from list pindex on); caller holds pcp->lock; takes
 * zone->lock. */
void free_pcppages_bulk(struct mm_ctx *ctx, struct zone *zone, int count,
			struct per_cpu_pages *pcp, int pindex);
/* Queue a freed block on pcp (locked by the caller) and trim the pageset
 * under high; false if the variant gave up the pcp lock while trimming
 * (it is not held then).  owned: the block belongs to pcp's CPU and may
 * merge there. */
bool free_frozen_page_commit(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp,
			     pfn_t pfn, int mt, unsigned order, unsigned fpi, bool owned);
/* Free the allocated block starting at pfn: to a pageset if the variant
 * caches its order and can lock one, else straight to the zone. */
void __free_frozen_pages(struct mm_ctx *ctx, struct machine *m, pfn_t pfn, unsigned order,
			 unsigned fpi);
/* Free a batch of allocated blocks, relocking only when the
 * zone or the target pageset changes. */
void free_unref_folios(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr);

void drain_pages_zone(struct mm_ctx *ctx, unsigned cpu, struct zone *zone);
void drain_pages(struct mm_ctx *ctx, struct machine *m, unsigned cpu);
/* Every online CPU's pagesets of every zone, or of zone if not NULL. */
void drain_all_pages(struct mm_ctx *ctx, struct machine *m, struct zone *zone);
bool decay_pcp_high(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp);
/* drain_zone_pages(): give a batch of the pageset back to the zone. */
void drain_zone_pages(struct mm_ctx *ctx, struct zone *zone, struct per_cpu_pages *pcp);
/* The vmstat worker's per-CPU pass: decay_pcp_high on every zone, and a
 * batch drained from the pageset of each zone of another node the CPU has
 * not used for three passes. */
void refresh_cpu_vm_stats(struct mm_ctx *ctx, struct machine *m);
/* The vmstat worker of the CPU it runs on (vmstat_update every
 * sysctl_stat_interval, m->vmstat_interval; an engine's kernel thread,
 * machine_boot): refresh_cpu_vm_stats each pass.  It ends the run when
 * the engine finds it stuck (kthread_should_stop). */
void vmstat_worker(struct mm_ctx *ctx, void *arg);
void page_alloc_cpu_dead(struct mm_ctx *ctx, struct machine *m, unsigned cpu);
void page_alloc_cpu_online(struct mm_ctx *ctx, struct machine *m, unsigned cpu);

/* Seed 001 pageblock ownership (pageblock_data.cpu). */
static inline int get_pcpblock_owner(const struct machine *m, pfn_t pfn)
{
	return (int)m->mm.pb_cpu[pfn_to_pb(pfn)] - 1;
}

void clear_pcpblock_owner(struct machine *m, pfn_t pfn);

static inline bool PagePCPBuddy(const struct machine *m, pfn_t pfn)
{
	return m->mm.flags[pfn].aux & PG_pcp_buddy;
}

/* Total pages on every pageset of the zone. */
unsigned long zone_pcp_pages(struct zone *zone);

/* The checker (pcp_check.c), for check_invariants().  pcp_check_block: one
 * block head met while walking zone z; only per-CPU blocks carry
 * PagePCPBuddy, and a block whole in the zone buddy has no owner; returns
 * 1 for a per-CPU block.  pcp_check_zone: every pageset of z is consistent
 * (lists, counts, owned_blocks) and holds the pcp_heads per-CPU blocks the
 * walk met. */
struct check_report;
unsigned pcp_check_block(struct machine *m, struct zone *z, pfn_t pfn, struct check_report *r);
void pcp_check_zone(struct machine *m, struct zone *z, unsigned long pcp_heads,
		    struct check_report *r);

#endif
