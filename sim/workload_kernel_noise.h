/* Kernel noise, the workload's engine in C: slab-like unmovable and
 * reclaimable kernel allocations of orders 0-3 arriving at a steady rate
 * on a set of CPUs, each freed after an exponentially distributed
 * lifetime, a share never freed (lua/mmsim/kernel_noise.lua composes it
 * and describes the behaviour). */
#ifndef MMSIM_WORKLOAD_KERNEL_NOISE_H
#define MMSIM_WORKLOAD_KERNEL_NOISE_H

#include "models/mmtypes.h"
#include "sim/engine.h"
#include "sim/rng.h"

#include <stdint.h>

struct machine;

/* The kernel source id of the noise of CPU cpu: below the model's own
 * allocators' ids (OWNER_KERNEL_MODEL_ID). */
#define KERNEL_NOISE_SOURCE(cpu) ((1u << 16) | (cpu))

struct kernel_noise_opts {
	struct machine *m;
	const unsigned *cpus;           /* one thread per entry */
	unsigned nr_cpus;
	double rate;                    /* allocations per simulated ms per CPU, > 0 */
	double reclaimable_share;       /* the rest is unmovable */
	double orders[NR_PAGE_ORDERS];    /* weights of orders 0 up, summing to > 0 */
	unsigned nr_orders;
	uint64_t lifetime_ns;           /* mean lifetime */
	double long_lived_share;        /* never freed */
	uint64_t until_ns;              /* no allocation from this simulated time on */
	struct rng *rng;                /* shared by every thread; outlives them */
	/* Called when the last reference goes (the caller's and the
	 * threads'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct kernel_noise_stats {
	uint64_t allocated, freed, failed, long_lived;
};

struct kernel_noise;

/* Spawn the threads ("kernel_noise<cpu>") on e.  NULL and a g_malloc'ed
 * *err if a thread could not start (engine_spawn_check); threads started
 * before it run on.  The caller holds a reference (kernel_noise_put). */
struct kernel_noise *kernel_noise_start(struct engine *e, const struct kernel_noise_opts *o,
					char **err);
const struct kernel_noise_stats *kernel_noise_stats(const struct kernel_noise *kn);
/* No allocation from each thread's next turn on (its frees due before
 * then are still made). */
void kernel_noise_stop(struct kernel_noise *kn);
void kernel_noise_put(struct kernel_noise *kn);

#endif
