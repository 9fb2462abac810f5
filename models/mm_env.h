/* The narrow interface through which the model takes time and locks.
 *
 * models/ never sleeps, waits or reads a clock itself: it tells the
 * engine what it does (charge a cost, write a shared cache line, take or
 * release a spinlock) and the engine turns that into simulated time.  The
 * SimGrid engine in sim/ is one implementation; mm_env_null below, used by
 * unit tests and by scenario code that runs outside any simulated CPU,
 * takes no time at all. */
#ifndef MMSIM_MM_ENV_H
#define MMSIM_MM_ENV_H

#include <stdbool.h>
#include <stdint.h>

/* Kinds of work the model charges; the engine's cost model prices them. */
enum mm_cost {
	COST_LIST_OP,       /* add or remove one block on a free or per-CPU list */
	COST_MERGE_STEP,    /* one buddy merge step in __free_one_page */
	COST_SPLIT_STEP,    /* one split step in expand() */
	COST_PB_SCAN,       /* look at one frame of a pageblock (claim, Phase 0) */
	COST_SPB_VISIT,     /* read one superpageblock on a zone list walk */
	COST_SPB_LIST_MOVE, /* move a superpageblock to another zone list (spb_update_list) */
	COST_ZONE_SECTION,  /* fixed cost of a zone->lock section that takes pages (rmqueue_bulk) or another */
	COST_ZONE_SECTION_FREE, /* fixed cost of a zone->lock section that gives pages back (free_pcppages_bulk) */
	COST_PCP_SECTION,   /* fixed cost of a pcp->lock critical section */
	COST_ZERO_PAGE,     /* clear one 4 KiB page */
	COST_ZERO_PMD_PAGE, /* clear one 4 KiB page of a 2 MiB folio cleared whole */
	COST_ZERO_PUD_PAGE, /* clear one 4 KiB page of a 1 GiB folio cleared whole */
	COST_FAULT,         /* a page fault's entry, handle_mm_fault and return */
	COST_PTE,           /* set or clear one page-table entry */
	COST_TLB_FLUSH,     /* flush the TLB after unmapping (munmap, madvise, exit) */
	COST_MIGRATE_ISOLATE,   /* take a page off its LRU for migration, or put one on (lru_lock) */
	COST_MIGRATE_UNMAP,     /* rmap walk and PTE turned into a migration entry, per mapping */
	COST_MIGRATE_COPY,      /* copy one 4 KiB page to a node of the same socket */
	COST_MIGRATE_COPY_REMOTE,   /* copy one 4 KiB page to another socket */
	COST_MIGRATE_REMAP,     /* point a mapping (PTE or page-cache slot) at the new page */
	COST_TLB_SHOOTDOWN,     /* flush one CPU's TLB for an address space after migration */
	COST_NUMA_HINT_FAULT,   /* a NUMA hinting fault's own work: PTE restored, placement checks */
	COST_RECLAIM_SCAN,      /* reclaim: take one page off the LRU and check its references */
	COST_RECLAIM_UNMAP,     /* reclaim: unmap one page and take it out of its mapping */
	COST_LRU_MOVE,          /* add one folio to an LRU list or take it off, under lru_lock */
	COST_SPLIT_TAIL,        /* rewrite one tail struct page when a folio splits */
	NR_MM_COSTS
};

/* A cache line shared between CPUs: the engine charges the transfer
 * latency when a CPU writes a line another CPU wrote last. */
struct cacheline {
	int32_t last_cpu;   /* -1: not written yet */
};

enum lock_class_id {
	LOCK_CLASS_ZONE,
	LOCK_CLASS_PCP,
	LOCK_CLASS_LRU,     /* lruvec->lru_lock */
	LOCK_CLASS_PTL,     /* a PTE table's split page-table lock */
	LOCK_CLASS_MMAP,    /* mm->mmap_lock: a sleeping lock (below) */
	NR_LOCK_CLASSES
};

/* mmap_lock is an rwsem: its holder may be preempted and its waiters
 * sleep off the CPU.  The others are spinlocks. */
static inline bool lock_class_sleeps(enum lock_class_id cls)
{
	return cls == LOCK_CLASS_MMAP;
}

struct spinlock {
	int32_t owner;      /* CPU holding it, -1 when free */
	uint8_t class_id;   /* enum lock_class_id */
	struct cacheline cl;
	void *impl;         /* the engine's per-lock state */
};

/* Where a lock is taken from, for lock_stat's contention points. */
enum lock_site {
	SITE_RMQUEUE_BULK,
	SITE_FREE_PCPPAGES_BULK,
	SITE_FREE_ONE_PAGE,
	SITE_RMQUEUE_BUDDY,
	SITE_RMQUEUE_PCPLIST,
	SITE_FREE_FROZEN_PAGES,
	SITE_DRAIN_PAGES_ZONE,
	SITE_DECAY_PCP_HIGH,
	SITE_ISOLATE_FREEPAGES,     /* compaction's free scanner, alloc_contig_range */
	SITE_SET_MIGRATETYPE_ISOLATE,
	SITE_FOLIO_BATCH_MOVE_LRU,  /* lru_add drain */
	SITE_FOLIOS_PUT,            /* freeing mapped pages: off the LRU */
	SITE_DO_ANONYMOUS_PAGE,     /* the fault's PTE under its table's lock */
	SITE_ZAP_PTE_RANGE,
	SITE_LOCK_MM_AND_FIND_VMA,  /* a fault's mmap_lock (read) */
	SITE_VM_MMAP_PGOFF,         /* mmap's mmap_lock (write) */
	SITE_VM_MUNMAP,             /* munmap's mmap_lock (write) */
	SITE_EXIT_MMAP,
	SITE_DUP_MMAP,              /* fork's mmap_lock (write) of the parent */
	SITE_WP_PAGE_COPY,          /* a copy-on-write fault's PTE under its table's lock */
	SITE_OTHER,
	NR_LOCK_SITES
};

struct mm_ctx;
struct mm_work;

struct mm_env {
	/* Account count units of work of this kind to the running CPU. */
	void (*charge)(struct mm_ctx *ctx, enum mm_cost kind, unsigned long count);
	/* Write a shared cache line. */
	void (*touch)(struct mm_ctx *ctx, struct cacheline *cl);
	void (*lock)(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site);
	bool (*trylock)(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site);
	void (*unlock)(struct mm_ctx *ctx, struct spinlock *l);
	/* Simulated nanoseconds since the start of the run, as this CPU sees it. */
	uint64_t (*now)(struct mm_ctx *ctx);
	/* Optional: a point in a long model call where no lock is held and
	 * the machine is consistent, at which the thread may stop with the
	 * run (the engine's safepoint). */
	void (*cond_resched)(struct mm_ctx *ctx);
	/* Optional: a zone->lock section of a zone with superpageblocks is
	 * ending (the lock still held): taken at site, it did w. */
	void (*spb_section)(struct mm_ctx *ctx, enum lock_site site, const struct mm_work *w);
	/* Optional, for kernel threads: sleep ns off the CPU (0: not at all),
	 * then settle the thread's debt (a safepoint). */
	void (*schedule_timeout)(struct mm_ctx *ctx, uint64_t ns);
	/* Optional: the run cannot go on (every workload thread waits for a
	 * lock, a deadlock the kernel threads' own wake-ups would hide): the
	 * engine has ended it and the kernel thread returns. */
	bool (*kthread_should_stop)(struct mm_ctx *ctx);
	/* Optional: a call of many page operations (a range of faults, an
	 * munmap, an madvise, a fork, an exit) begins (true) or ends: nothing
	 * but the model observes its work until it returns, so the engine may
	 * run it further ahead of the clock than its caller's own code. */
	void (*bulk)(struct mm_ctx *ctx, bool begin);
};

/* The execution context of one simulated CPU (a thread running on it). */
struct mm_ctx {
	const struct mm_env *env;
	unsigned cpu;
	void *engine;       /* the engine's per-actor state */
	/* A charge without a call, where the engine offers one (cost_ns not
	 * NULL): while *debt plus the charge stays under *limit, the charge
	 * (cost_ns[kind] ns per unit) is only added to *debt; otherwise
	 * env->charge decides.  Most of a fault's dozen charges go this way. */
	const double *cost_ns;
	double *debt;
	const double *limit;
	/* Where the engine offers it (not NULL), the clock that the thread's
	 * debt runs ahead of: mm_now without a call. */
	const double *clock;
};

void spin_lock_init(struct spinlock *l, enum lock_class_id cls);
/* The lock's memory is about to be freed (a process's mmap and PTE-table
 * locks at its exit): whatever the engine keeps for it goes too. */
void spin_lock_destroy(struct spinlock *l);
/* The engine's function for that (NULL: none, no engine). */
void mm_set_lock_release(void (*release)(struct spinlock *l));

static inline void mm_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long count)
{
	if (ctx->cost_ns) {
		double debt = *ctx->debt + (double)count * ctx->cost_ns[kind];

		if (debt < *ctx->limit) {
			*ctx->debt = debt;
			return;
		}
	}
	ctx->env->charge(ctx, kind, count);
}

static inline void mm_touch(struct mm_ctx *ctx, struct cacheline *cl)
{
	ctx->env->touch(ctx, cl);
}

static inline void spin_lock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	ctx->env->lock(ctx, l, site);
}

static inline bool spin_trylock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site)
{
	return ctx->env->trylock(ctx, l, site);
}

static inline void spin_unlock(struct mm_ctx *ctx, struct spinlock *l)
{
	ctx->env->unlock(ctx, l);
}

static inline uint64_t mm_now(struct mm_ctx *ctx)
{
	if (ctx->clock)
		return (uint64_t)(*ctx->clock + *ctx->debt);
	return ctx->env->now(ctx);
}

/* cond_resched() in a loop that may run long: a run that ends meanwhile
 * need not wait for the loop's end. */
static inline void cond_resched(struct mm_ctx *ctx)
{
	if (ctx->env->cond_resched)
		ctx->env->cond_resched(ctx);
}

/* A kernel thread's wait.  Outside an engine no time passes: nothing
 * would wake it, so it must not be started there. */
static inline void schedule_timeout(struct mm_ctx *ctx, uint64_t ns)
{
	ctx->env->schedule_timeout(ctx, ns);
}

/* Around the body of each call of many page operations (mm_env's bulk):
 * the calls mark themselves, so no caller has to. */
static inline void mm_bulk_begin(struct mm_ctx *ctx)
{
	if (ctx->env->bulk)
		ctx->env->bulk(ctx, true);
}

static inline void mm_bulk_end(struct mm_ctx *ctx)
{
	if (ctx->env->bulk)
		ctx->env->bulk(ctx, false);
}

static inline bool kthread_should_stop(struct mm_ctx *ctx)
{
	return ctx->env->kthread_should_stop && ctx->env->kthread_should_stop(ctx);
}

/* fatal_signal_pending(): SIGINT or SIGTERM reached mmsim (its handler
 * calls mm_signal_fatal).  Outside a run no time passes, so a loop that
 * would end on a timeout ends here instead, where the kernel's loop looks
 * for a fatal signal; inside one it ends the thread's work at once. */
void mm_signal_fatal(void);
bool fatal_signal_pending(void);
/* The stop is handled: later loops run whole again. */
void mm_signal_clear(void);

/* No time, no contention: locks only check they are not taken twice. */
extern const struct mm_env mm_env_null;
/* Its touch and now, for test environments built on it. */
void mm_null_touch(struct mm_ctx *ctx, struct cacheline *cl);
uint64_t mm_null_now(struct mm_ctx *ctx);
/* A context on CPU cpu using mm_env_null. */
struct mm_ctx mm_ctx_null(unsigned cpu);

#endif
