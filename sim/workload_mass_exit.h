/* Mass exit, the workload's engine in C: processes with large address
 * spaces touch their memory, wait for each other, live a while and exit
 * at the same simulated instant (lua/mmsim/mass_exit.lua composes it). */
#ifndef MMSIM_WORKLOAD_MASS_EXIT_H
#define MMSIM_WORKLOAD_MASS_EXIT_H

#include "models/mm_env.h"
#include "models/pcp.h"
#include "sim/engine.h"

#include <stdbool.h>
#include <stdint.h>

struct machine;

struct mass_exit_opts {
	struct machine *m;
	const unsigned *cpus;           /* one process per entry */
	unsigned nr_cpus;
	uint64_t bytes;                 /* mapped and touched by each process, > 0 */
	uint64_t live_ns;               /* from the last touch to the exit */
	/* Starts the phase name (NULL: ends the current one) at at_ns, as
	 * m:phase does; or NULL. */
	void (*phase)(void *arg, const char *name, uint64_t at_ns);
	void *phase_arg;
	/* Called when the last reference goes (the caller's and the
	 * processes'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

/* One CPU's pageset in one populated zone, as it was then. */
struct mass_exit_pageset {
	const struct zone *zone;
	struct per_cpu_pages pcp;
};

/* zone->lock's class figures over the exit phase (lock_stat's: each wait
 * and hold whole when it ended, kernel threads' too), and the processes'
 * own waits during their exits (for the share of their exit time). */
struct mass_exit_zone_lock {
	uint64_t acquisitions, contentions, wait_ns_total, hold_ns_total;
	double waited_ns;
};

struct mass_exit_stats {
	uint64_t live_ns;               /* the options' */
	uint64_t pages_touched, pgtable_pages;
	uint64_t failed;                /* processes that got less memory than asked */
	bool touched;                   /* every process has touched its memory */
	uint64_t touch_end_ns, exit_start_ns, exit_end_ns;
	/* Per process, in the order of the options' cpus: */
	uint64_t *exit_ns;              /* exit time after exit_start_ns */
	bool *exited;
	/* Its CPU's pagesets after its touches and before its exit (NULL
	 * until taken), one per populated zone, nr_pagesets entries each. */
	struct mass_exit_pageset **pagesets_touched, **pagesets_before_exit;
	unsigned nr_pagesets;
	/* The exit phase, once every process has exited. */
	bool done;
	uint64_t slowest_ns, median_ns, exit_time_ns;
	struct mass_exit_zone_lock zone_lock;
	uint64_t pages_freed, pages_to_buddy;
	int64_t pages_kept_on_pcp;
};

struct mass_exit;

/* Spawn the processes' threads ("exit<cpu>") on e.  NULL and a g_malloc'ed
 * *err if one could not start (engine_spawn_check); those started before
 * it run on.  The caller holds a reference (mass_exit_put). */
struct mass_exit *mass_exit_start(struct engine *e, const struct mass_exit_opts *o, char **err);
const struct mass_exit_stats *mass_exit_stats(const struct mass_exit *me);
unsigned mass_exit_processes(const struct mass_exit *me);
void mass_exit_put(struct mass_exit *me);

#endif
