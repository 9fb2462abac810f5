/* Kernel noise in C (workload_kernel_noise.h). */
#include "sim/workload_kernel_noise.h"

#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "sim/expiry_heap.h"
#include "sim/workload.h"

#include <glib.h>
#include <math.h>

struct noise_thread {
	struct workload_thread base;
	unsigned cpu;
	struct expiry_heap heap;        /* value: the pfn */
};

struct kernel_noise {
	struct workload base;           /* first: the threads' workload is the noise */
	struct kernel_noise_opts o;
	struct noise_thread *threads;
	struct kernel_noise_stats stats;
	bool stopped;
};

static void noise_thread(struct mm_ctx *ctx, void *arg)
{
	struct noise_thread *t = arg;
	struct kernel_noise *kn = (struct kernel_noise *)t->base.w;
	const struct kernel_noise_opts *o = &kn->o;
	struct machine *m = o->m;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	uint32_t owner = make_owner(OWNER_KIND_KERNEL, KERNEL_NOISE_SOURCE(t->cpu));
	double gap = 1e6 / o->rate;

	while (!kn->stopped && mm_now(ctx) < o->until_ns) {
		uint64_t now = mm_now(ctx);

		while (expiry_heap_due(&t->heap, (double)now)) {
			engine_safepoint(ctx);
			if (__free_pages(ctx, m, (pfn_t)expiry_heap_pop(&t->heap).value))
				g_error("kernel_noise: freed a page it did not hold");
			kn->stats.freed++;
		}
		unsigned order = weighted_pick(o->orders, o->nr_orders, rng_double(o->rng));
		gfp_t gfp = GFP_KERNEL;

		if (rng_double(o->rng) < o->reclaimable_share)
			gfp |= __GFP_RECLAIMABLE;
		engine_safepoint(ctx);
		pfn_t pfn = __alloc_pages(ctx, m, gfp, order, nid, owner, 0);
		if (pfn == PFN_NONE) {
			kn->stats.failed++;
		} else {
			kn->stats.allocated++;
			if (rng_double(o->rng) < o->long_lived_share) {
				kn->stats.long_lived++;
			} else {
				double life = (double)o->lifetime_ns * log(1 - rng_double(o->rng));

				expiry_heap_push(&t->heap, (struct expiry){ (double)now - life, pfn });
			}
		}
		engine_sleep(ctx, (uint64_t)(gap * (0.5 + rng_double(o->rng))));
	}
}

static void noise_destroy(struct workload *w)
{
	struct kernel_noise *kn = (struct kernel_noise *)w;

	for (unsigned i = 0; i < kn->o.nr_cpus; i++)
		expiry_heap_free(&kn->threads[i].heap);
	g_free(kn->threads);
	g_free(kn);
}

struct kernel_noise *kernel_noise_start(struct engine *e, const struct kernel_noise_opts *o,
					char **err)
{
	struct kernel_noise *kn = g_new0(struct kernel_noise, 1);

	g_assert(o->nr_cpus >= 1 && o->rate > 0 && o->nr_orders >= 1);
	workload_init(&kn->base, ENGINE_SHARES_STATE, noise_destroy, o->release, o->release_arg);
	kn->o = *o;
	kn->o.cpus = NULL;
	kn->threads = g_new0(struct noise_thread, o->nr_cpus);
	for (unsigned i = 0; i < o->nr_cpus; i++)
		kn->threads[i].cpu = o->cpus[i];
	return workload_spawn(e, &kn->base, o->cpus, o->nr_cpus, "kernel_noise", noise_thread,
			    kn->threads, sizeof(*kn->threads), err) ? kn : NULL;
}

const struct kernel_noise_stats *kernel_noise_stats(const struct kernel_noise *kn)
{
	return &kn->stats;
}

void kernel_noise_stop(struct kernel_noise *kn)
{
	kn->stopped = true;
}

void kernel_noise_put(struct kernel_noise *kn)
{
	workload_put(&kn->base);
}
