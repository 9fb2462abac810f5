/* Page cache readers in C (workload_page_cache.h). */
#include "sim/workload_page_cache.h"

#include "models/mm_space.h"
#include "models/page_cache.h"
#include "sim/workload.h"

#include <glib.h>

/* Pages per read() call. */
#define READ_CHUNK 64

struct page_cache_readers {
	struct workload base;           /* first: the readers' workload */
	struct page_cache_readers_opts o;
	struct workload_thread *readers;
	uint32_t next_file;
	struct page_cache_readers_stats stats;
};

static void reader(struct mm_ctx *ctx, void *arg)
{
	struct page_cache_readers *r =
		(struct page_cache_readers *)((struct workload_thread *)arg)->w;
	const struct page_cache_readers_opts *o = &r->o;
	int nid = (int)topology_cpu_to_node(&o->m->topo, ctx->cpu);
	uint32_t file = r->next_file++;
	uint64_t index = 0;

	r->stats.files++;
	while (mm_now(ctx) < o->until_ns) {
		unsigned got = 0;

		engine_safepoint(ctx);
		while (got < READ_CHUNK &&
		       page_cache_add(ctx, o->m, nid, file, (uint32_t)(index + got)) != PFN_NONE)
			got++;
		r->stats.pages_read += got;
		if (got < READ_CHUNK)
			r->stats.failed++;
		index += READ_CHUNK;
		if (index >= o->file_pages) {
			file = r->next_file++;
			index = 0;
			r->stats.files++;
		}
		engine_sleep(ctx, (uint64_t)(READ_CHUNK / o->pages_per_ns));
	}
}

static void readers_destroy(struct workload *w)
{
	struct page_cache_readers *r = (struct page_cache_readers *)w;

	g_free(r->readers);
	g_free(r);
}

struct page_cache_readers *page_cache_readers_start(struct engine *e,
						    const struct page_cache_readers_opts *o,
						    char **err)
{
	struct page_cache_readers *r = g_new0(struct page_cache_readers, 1);

	g_assert(o->nr_cpus >= 1 && o->pages_per_ns > 0 && o->file_pages > 0);
	workload_init(&r->base, ENGINE_SHARES_STATE, readers_destroy, o->release, o->release_arg);
	r->o = *o;
	r->o.cpus = NULL;
	r->next_file = 1;
	r->readers = g_new0(struct workload_thread, o->nr_cpus);
	return workload_spawn(e, &r->base, o->cpus, o->nr_cpus, "reader", reader, r->readers,
			      sizeof(*r->readers), err) ? r : NULL;
}

const struct page_cache_readers_stats *page_cache_readers_stats(const struct page_cache_readers *r)
{
	return &r->stats;
}

void page_cache_readers_put(struct page_cache_readers *r)
{
	workload_put(&r->base);
}
