/* Kernel slab allocations, the workload's engine in C: on each CPU given,
 * a thread drawing kmalloc objects, file lookups, received packets,
 * kernel threads and page tables of sparse mappings at a steady rate,
 * each freed after an exponentially distributed lifetime, a share never
 * (lua/mmsim/kernel_slab.lua composes it and describes the behaviour). */
#ifndef MMSIM_WORKLOAD_KERNEL_SLAB_H
#define MMSIM_WORKLOAD_KERNEL_SLAB_H

#include "sim/engine.h"
#include "sim/rng.h"

#include <stdint.h>

struct machine;

/* The sources, in the order their weights are drawn. */
enum kernel_slab_source {
	KSLAB_KMALLOC, KSLAB_FILE, KSLAB_PACKET, KSLAB_THREAD, KSLAB_PGTABLE, NR_KSLAB_SOURCES
};

struct kernel_slab_opts {
	struct machine *m;              /* its slab model on (kmem_cache_init) */
	const unsigned *cpus;           /* one thread per entry */
	unsigned nr_cpus;
	double rate;                    /* events per simulated ms per CPU, > 0 */
	double mix[NR_KSLAB_SOURCES];   /* weights, summing to > 0 */
	/* Mean lifetime and share never freed, per source (the file
	 * source's unused: the shrinker frees dentries). */
	uint64_t lifetime_ns[NR_KSLAB_SOURCES];
	double long_lived_share[NR_KSLAB_SOURCES];
	double hot_share;               /* file lookups of an already seen hot file */
	double frag_share;              /* packets whose data is a page fragment */
	unsigned buffer_bytes;          /* a packet's data buffer, at most a page */
	uint32_t first_file;            /* the first new file's id */
	uint64_t until_ns;              /* no event from this simulated time on */
	struct rng *rng;                /* shared by every thread; outlives them */
	/* Called when the last reference goes (the caller's and the
	 * threads'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct kernel_slab_stats {
	uint64_t allocated, freed, failed, long_lived, files, packets, threads, pgtables;
};

struct kernel_slab;

/* Spawn the threads ("kernel_slab<cpu>") on e.  NULL and a g_malloc'ed
 * *err if a thread could not start (engine_spawn_check); threads started
 * before it run on.  The caller holds a reference (kernel_slab_put). */
struct kernel_slab *kernel_slab_start(struct engine *e, const struct kernel_slab_opts *o,
				      char **err);
const struct kernel_slab_stats *kernel_slab_stats(const struct kernel_slab *ks);
/* No event from each thread's next turn on (its frees due before then
 * are still made). */
void kernel_slab_stop(struct kernel_slab *ks);
void kernel_slab_put(struct kernel_slab *ks);

#endif
