/* jemalloc churn, the workload's engine in C: one process, one thread per
 * CPU, each with its own jemalloc 5.3 arena (lua/mmsim/jemalloc_churn.lua
 * composes it and describes the behaviour).  An arena maps extents that
 * grow through jemalloc's page size classes, carves page-aligned objects
 * out of them, touches an object's pages on first use, keeps freed runs
 * dirty for reuse and purges runs dirty for longer than the decay time
 * with MADV_DONTNEED.  A share of the objects is freed by another thread
 * into the owning arena. */
#ifndef MMSIM_WORKLOAD_JEMALLOC_H
#define MMSIM_WORKLOAD_JEMALLOC_H

#include "sim/engine.h"
#include "sim/report.h"
#include "sim/rng.h"

#include <stdint.h>

struct mm_struct;

struct jemalloc_size {
	uint64_t bytes;     /* a multiple of the page size, > 0 */
	double weight;      /* > 0 */
};

struct jemalloc_churn_opts {
	struct mm_struct *mm;           /* the process; it must outlive the threads */
	const unsigned *cpus;           /* one thread per entry */
	unsigned nr_cpus;
	const struct jemalloc_size *sizes;
	unsigned nr_sizes;
	uint64_t live_bytes;            /* live objects a thread keeps */
	double remote_share;            /* objects handed to another thread to free */
	uint64_t decay_ns;              /* dirty_decay_ms */
	uint64_t work_ns;               /* the application's mean work per object */
	uint64_t until_ns;              /* no new object from this simulated time on */
	/* Page level (engine_page_level): threads whose objects are stepped,
	 * the first ones; each other thread replays the page events of
	 * leader index % page_leaders in extents of its own.  0: one per
	 * JEMALLOC_PAGE_FOLLOWERS threads. */
	unsigned page_leaders;
	/* Page level: a steady leader coasts this many times as long as it
	 * stepped (0: never; JEMALLOC_COAST_RATIO by default). */
	unsigned coast_ratio;
	struct rng *rng;                /* shared by every thread; outlives them */
	struct report *report;          /* counts the run's objects, or NULL */
	/* Called when the last reference goes (the caller's and the
	 * threads'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

/* Threads per leader at page level, by default: one leader for the 10
 * churn threads of aging.lua's 16-CPU machine, which
 * tests/scenarios/page_level.sh holds to object level; 8 leaders for
 * the 1 TiB machine's 122. */
#define JEMALLOC_PAGE_FOLLOWERS 16

/* A steady leader's coast, in times its stepped time: 4, a guess (the
 * steady leader's cost a fifth). */
#define JEMALLOC_COAST_RATIO 4

struct jemalloc_churn_stats {
	/* objects: at page level, a leader's count for each thread it
	 * stands for. */
	uint64_t objects, remote_frees, purged_pages, failed;
	uint64_t faulted_pages;         /* by the threads' touches */
	uint64_t extents;               /* summed over the threads that finished */
	uint64_t rss_pages;             /* the process's, when the last thread finished */
	uint64_t coasted_ns;            /* page level: leaders' steady time not stepped, summed */
};

struct jemalloc_churn;

/* Spawn the threads ("jemalloc<cpu>") on e.  NULL and a g_malloc'ed *err
 * if a thread could not start (engine_spawn_check); threads started
 * before it run on.  The caller holds a reference (jemalloc_churn_put). */
struct jemalloc_churn *jemalloc_churn_start(struct engine *e, const struct jemalloc_churn_opts *o,
					    char **err);
const struct jemalloc_churn_stats *jemalloc_churn_stats(const struct jemalloc_churn *jc);
/* Drop the caller's reference; the threads hold their own. */
void jemalloc_churn_put(struct jemalloc_churn *jc);

#endif
