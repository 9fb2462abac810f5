/* Page cache readers, the workload's engine in C: reader threads stream
 * through files at a steady rate, 64 pages a read, each page a new
 * page-cache page on the reader's node (lua/mmsim/page_cache.lua composes
 * it and describes the behaviour). */
#ifndef MMSIM_WORKLOAD_PAGE_CACHE_H
#define MMSIM_WORKLOAD_PAGE_CACHE_H

#include "sim/engine.h"

#include <stdint.h>

struct machine;

struct page_cache_readers_opts {
	struct machine *m;
	const unsigned *cpus;           /* one reader per entry */
	unsigned nr_cpus;
	double pages_per_ns;            /* each reader's rate, > 0 */
	uint64_t file_pages;            /* then a reader moves on to a new file, > 0 */
	uint64_t until_ns;              /* no read from this simulated time on */
	/* Called when the last reference goes (the caller's and the
	 * readers'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct page_cache_readers_stats {
	uint64_t pages_read, files, failed;
};

struct page_cache_readers;

/* Spawn the readers ("reader<cpu>") on e; files are numbered from 1 in
 * the order the readers start them.  NULL and a g_malloc'ed *err if a
 * reader could not start (engine_spawn_check); readers started before it
 * run on.  The caller holds a reference (page_cache_readers_put). */
struct page_cache_readers *page_cache_readers_start(struct engine *e,
						    const struct page_cache_readers_opts *o,
						    char **err);
const struct page_cache_readers_stats *page_cache_readers_stats(const struct page_cache_readers *r);
void page_cache_readers_put(struct page_cache_readers *r);

#endif
