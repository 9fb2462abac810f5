/* Short-lived processes, the workload's engine in C: on each CPU given, a
 * thread that makes a process, maps and touches a region, keeps it a
 * while, exits it and waits before the next, until a simulated time
 * (lua/mmsim/short_lived.lua composes it). */
#ifndef MMSIM_WORKLOAD_SHORT_LIVED_H
#define MMSIM_WORKLOAD_SHORT_LIVED_H

#include "sim/engine.h"

#include <stdint.h>

struct machine;

struct short_lived_opts {
	struct machine *m;
	const unsigned *cpus;           /* one thread per entry */
	unsigned nr_cpus;
	uint64_t size;                  /* bytes mapped and touched by each process, > 0 */
	uint64_t life_ns;               /* from the touch to the exit */
	uint64_t gap_ns;                /* from the exit (or a failed fork) to the next */
	uint64_t until_ns;              /* no new process from this simulated time on */
	/* Called when the last reference goes (the caller's and the
	 * threads'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct short_lived_stats {
	uint64_t processes;             /* made */
	uint64_t faults;                /* pages faulted in */
	uint64_t failed;                /* no process, no mapping or a touch cut short */
};

struct short_lived;

/* Spawn the threads ("procs<cpu>") on e.  NULL and a g_malloc'ed *err if a
 * thread could not start (engine_spawn_check); threads started before it
 * run on.  The caller holds a reference (short_lived_put). */
struct short_lived *short_lived_start(struct engine *e, const struct short_lived_opts *o,
				      char **err);
const struct short_lived_stats *short_lived_stats(const struct short_lived *sl);
void short_lived_put(struct short_lived *sl);

#endif
