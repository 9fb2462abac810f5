/* Kernel noise in C (workload_kernel_noise.h). */
#include "sim/workload_kernel_noise.h"

#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "sim/workload.h"

#include <glib.h>
#include <math.h>

/* A live allocation, freed at `expires` (ns, fractional as drawn). */
struct expiry {
	double expires;
	pfn_t pfn;
};

/* A binary heap of expiries, the earliest on top.  Ties go as
 * lua/mmsim/expiry_heap.lua breaks them, which the Lua version of this
 * workload used: equal times free in the same order. */
struct expiry_heap {
	struct expiry *e;               /* e[1..n] */
	size_t n, cap;
};

struct noise_thread {
	struct workload_thread base;
	unsigned cpu;
	struct expiry_heap heap;
};

struct kernel_noise {
	struct workload base;           /* first: the threads' workload is the noise */
	struct kernel_noise_opts o;
	struct noise_thread *threads;
	struct kernel_noise_stats stats;
	bool stopped;
};

static void heap_swap(struct expiry_heap *h, size_t a, size_t b)
{
	struct expiry t = h->e[a];

	h->e[a] = h->e[b];
	h->e[b] = t;
}

static void heap_push(struct expiry_heap *h, struct expiry x)
{
	if (h->n + 1 >= h->cap) {
		h->cap = h->cap ? 2 * h->cap : 256;
		h->e = g_renew(struct expiry, h->e, h->cap);
	}
	h->e[++h->n] = x;
	for (size_t i = h->n; i > 1 && h->e[i / 2].expires > h->e[i].expires; i /= 2)
		heap_swap(h, i, i / 2);
}

static struct expiry heap_pop(struct expiry_heap *h)
{
	struct expiry top = h->e[1];
	size_t i = 1;

	h->e[1] = h->e[h->n--];
	for (;;) {
		size_t l = 2 * i, r = l + 1, s = i;

		if (l <= h->n && h->e[l].expires < h->e[s].expires)
			s = l;
		if (r <= h->n && h->e[r].expires < h->e[s].expires)
			s = r;
		if (s == i)
			break;
		heap_swap(h, i, s);
		i = s;
	}
	return top;
}

/* An order by the weights, from a uniform draw r in [0, 1). */
static unsigned pick_order(const struct kernel_noise_opts *o, double r)
{
	double total = 0, x;

	for (unsigned i = 0; i < o->nr_orders; i++)
		total += o->orders[i];
	x = r * total;
	for (unsigned i = 0; i < o->nr_orders; i++) {
		x -= o->orders[i];
		if (x <= 0)
			return i;
	}
	return o->nr_orders - 1;
}

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

		while (t->heap.n && t->heap.e[1].expires <= (double)now) {
			engine_safepoint(ctx);
			if (__free_pages(ctx, m, heap_pop(&t->heap).pfn))
				g_error("kernel_noise: freed a page it did not hold");
			kn->stats.freed++;
		}
		unsigned order = pick_order(o, rng_double(o->rng));
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

				heap_push(&t->heap, (struct expiry){ (double)now - life, pfn });
			}
		}
		engine_sleep(ctx, (uint64_t)(gap * (0.5 + rng_double(o->rng))));
	}
}

static void noise_destroy(struct workload *w)
{
	struct kernel_noise *kn = (struct kernel_noise *)w;

	for (unsigned i = 0; i < kn->o.nr_cpus; i++)
		g_free(kn->threads[i].heap.e);
	g_free(kn->threads);
	g_free(kn);
}

struct kernel_noise *kernel_noise_start(struct engine *e, const struct kernel_noise_opts *o,
					char **err)
{
	struct kernel_noise *kn = g_new0(struct kernel_noise, 1);

	g_assert(o->nr_cpus >= 1 && o->rate > 0 && o->nr_orders >= 1);
	workload_init(&kn->base, noise_destroy, o->release, o->release_arg);
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
