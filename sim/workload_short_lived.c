/* Short-lived processes in C (workload_short_lived.h). */
#include "sim/workload_short_lived.h"

#include "models/mm_space.h"
#include "sim/workload.h"

#include <glib.h>

struct short_lived {
	struct workload base;           /* first: the threads' workload is this */
	struct short_lived_opts o;
	struct workload_thread *threads;
	struct short_lived_stats stats;
};

/* One process's life: fork, map, touch, live, exit. */
static void one_process(struct mm_ctx *ctx, struct short_lived *sl, struct mm_struct *mm)
{
	const struct short_lived_opts *o = &sl->o;
	uint64_t addr, faulted = 0;
	int err = 0;

	engine_safepoint(ctx);
	addr = vm_mmap(ctx, mm, o->size, PROT_READ | PROT_WRITE, &err);
	if (!err) {
		engine_safepoint(ctx);
		err = touch_range(ctx, mm, addr, o->size, &faulted);
		sl->stats.faults += faulted;
	}
	if (err)
		sl->stats.failed++;
	engine_sleep(ctx, o->life_ns);
	engine_safepoint(ctx);
	exit_mmap(ctx, mm);
}

static void procs_thread(struct mm_ctx *ctx, void *arg)
{
	struct short_lived *sl = (struct short_lived *)((struct workload_thread *)arg)->w;

	while (mm_now(ctx) < sl->o.until_ns) {
		struct mm_struct *mm;

		engine_safepoint(ctx);
		mm = mm_alloc(ctx, sl->o.m);
		if (mm) {
			sl->stats.processes++;
			one_process(ctx, sl, mm);
		} else {
			sl->stats.failed++;
		}
		engine_sleep(ctx, sl->o.gap_ns);
	}
}

static void sl_destroy(struct workload *w)
{
	struct short_lived *sl = (struct short_lived *)w;

	g_free(sl->threads);
	g_free(sl);
}

struct short_lived *short_lived_start(struct engine *e, const struct short_lived_opts *o,
				      char **err)
{
	struct short_lived *sl = g_new0(struct short_lived, 1);

	g_assert(o->nr_cpus >= 1 && o->size > 0);
	workload_init(&sl->base, ENGINE_SHARES_STATE, sl_destroy, o->release, o->release_arg);
	sl->o = *o;
	sl->o.cpus = NULL;
	sl->threads = g_new0(struct workload_thread, o->nr_cpus);
	return workload_spawn(e, &sl->base, o->cpus, o->nr_cpus, "procs", procs_thread,
			      sl->threads, sizeof(*sl->threads), err) ? sl : NULL;
}

const struct short_lived_stats *short_lived_stats(const struct short_lived *sl)
{
	return &sl->stats;
}

void short_lived_put(struct short_lived *sl)
{
	workload_put(&sl->base);
}
