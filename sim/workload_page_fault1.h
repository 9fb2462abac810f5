/* will-it-scale's page_fault1, the workload's engine in C: each task maps
 * an anonymous region, writes one byte to each of its pages and unmaps it,
 * over and over (lua/mmsim/page_fault1.lua composes it).  Tasks are
 * processes of their own or threads of one process, sharing its mmap_lock
 * and page tables. */
#ifndef MMSIM_WORKLOAD_PAGE_FAULT1_H
#define MMSIM_WORKLOAD_PAGE_FAULT1_H

#include "sim/engine.h"

#include <stdbool.h>
#include <stdint.h>

struct machine;

struct page_fault1_opts {
	struct machine *m;
	const unsigned *cpus;           /* one task per entry */
	unsigned nr_cpus;
	bool threads;                   /* tasks share one process */
	uint64_t size;                  /* bytes mapped each time, > 0 */
	uint64_t loops;                 /* per task; 0: until until_ns */
	uint64_t until_ns;              /* no new loop from this simulated time on; 0: none */
	/* Called when the last reference goes (the caller's and the
	 * tasks'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct page_fault1_stats {
	uint64_t loops;                 /* map, touch, unmap done */
	uint64_t faults;                /* pages faulted in */
	uint64_t failed;                /* a map or touch without memory: the task stops */
	uint64_t tasks_done;
	uint64_t end_ns;                /* when the last task finished */
};

struct page_fault1;

/* Spawn the tasks ("page_fault1-<cpu>") on e: with threads, one process
 * made now and exited by the last task; else one process each, made on
 * the task's CPU when it starts and exited when it ends.  NULL and a
 * g_malloc'ed *err if a task could not start (engine_spawn_check) or the
 * shared process could not be made; tasks started before it run on.  The
 * caller holds a reference (page_fault1_put). */
struct page_fault1 *page_fault1_start(struct engine *e, const struct page_fault1_opts *o,
				      char **err);
const struct page_fault1_stats *page_fault1_stats(const struct page_fault1 *pf);
void page_fault1_put(struct page_fault1 *pf);

#endif
