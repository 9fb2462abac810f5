/* Kernel slab allocations in C (workload_kernel_slab.h). */
#include "sim/workload_kernel_slab.h"

#include "models/dcache.h"
#include "models/mm_space.h"
#include "models/slub.h"
#include "sim/expiry_heap.h"
#include "sim/workload.h"
#include "sim/workload_network.h"

#include <glib.h>
#include <math.h>

#define PMD_BYTES (2ull << 20)

/* Live objects per kmalloc cache in docs/slabinfo-reference.txt. */
static const unsigned kmalloc_sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048,
					  4096, 8192 };
static const double kmalloc_weights[] = { 1536, 3584, 2545, 2479, 3401, 7054, 6331, 784, 2183,
					  788, 288, 357, 32 };

/* What an expiry's value holds besides its handle (value >> 2). */
enum release { RELEASE_KFREE, RELEASE_THREAD, RELEASE_UNMAP };

struct slab_thread {
	struct workload_thread base;
	struct mm_struct *daemon;       /* made at its first thread or page table */
	/* The objects' frees, each value a handle and its release, then
	 * the packets' (the receive path's own). */
	struct expiry_heap objects, packets;
};

struct kernel_slab {
	struct workload base;           /* first: the threads' workload is this */
	struct kernel_slab_opts o;
	struct net_rx rx;               /* the packet source's */
	struct slab_thread *threads;
	GArray *hot;                    /* uint32_t: every tenth new file */
	uint32_t next_file;
	struct kernel_slab_stats stats;
	bool stopped;
};

static void push(struct expiry_heap *h, double expires, uint64_t handle, enum release r)
{
	expiry_heap_push(h, (struct expiry){ expires, handle << 2 | r });
}

/* An exponential lifetime of mean mean_ns from now, as drawn. */
static double expires(struct kernel_slab *ks, uint64_t now, uint64_t mean_ns)
{
	return (double)now - (double)mean_ns * log(1 - rng_double(ks->o.rng));
}

/* A freed object is long-lived (never freed) or expires after its lifetime. */
static void keep(struct kernel_slab *ks, struct slab_thread *t, enum kernel_slab_source src,
		 uint64_t now, uint64_t handle, enum release r)
{
	if (rng_double(ks->o.rng) < ks->o.long_lived_share[src])
		ks->stats.long_lived++;
	else
		push(&t->objects, expires(ks, now, ks->o.lifetime_ns[src]), handle, r);
}

static void release(struct mm_ctx *ctx, struct kernel_slab *ks, struct slab_thread *t,
		    uint64_t value)
{
	struct machine *m = ks->o.m;
	uint64_t handle = value >> 2;
	int err = 0;

	engine_safepoint(ctx);
	switch ((enum release)(value & 3)) {
	case RELEASE_KFREE:
		err = kmem_cache_free(ctx, m, (slab_obj_t)handle);
		break;
	case RELEASE_THREAD:
		err = mm_exit_thread(ctx, t->daemon, (unsigned)handle);
		break;
	case RELEASE_UNMAP:
		err = do_munmap(ctx, t->daemon, handle, PMD_BYTES);
		break;
	}
	if (err)
		g_error("kernel_slab: freed what it did not hold (%d)", (int)(value & 3));
	ks->stats.freed++;
}

/* A received packet: an skbuff head and its data, freed together when
 * the socket is read (mmsim.network's receive path). */
static void receive(struct mm_ctx *ctx, struct kernel_slab *ks, struct slab_thread *t,
		    uint64_t now)
{
	struct net_packet p;

	switch (net_rx_alloc(ctx, &ks->rx, &p)) {
	case NET_RX_FAILED:
		ks->stats.failed++;
		return;
	case NET_RX_LONG_LIVED:
		ks->stats.long_lived += 2;
		break;
	case NET_RX_RECEIVED:
		net_rx_queue(&t->packets, expires(ks, now, ks->o.lifetime_ns[KSLAB_PACKET]), &p);
		break;
	}
	ks->stats.packets++;
	ks->stats.allocated += 2;
}

/* A lookup: of a hot file already seen, or of a new one (every tenth
 * becoming hot). */
static void lookup(struct mm_ctx *ctx, struct kernel_slab *ks)
{
	const struct kernel_slab_opts *o = &ks->o;

	if (ks->hot->len && rng_double(o->rng) < o->hot_share) {
		uint32_t file = g_array_index(ks->hot, uint32_t, rng_range(o->rng, ks->hot->len) - 1);

		engine_safepoint(ctx);
		d_alloc_file(ctx, o->m, file);
		return;
	}
	engine_safepoint(ctx);
	if (d_alloc_file(ctx, o->m, ks->next_file) > 0)
		ks->stats.files++;
	if ((ks->next_file - o->first_file) % 10 == 0)
		g_array_append_val(ks->hot, ks->next_file);
	ks->next_file++;
}

/* The thread's kernel-side daemon process, NULL while none could be made. */
static struct mm_struct *the_daemon(struct mm_ctx *ctx, struct kernel_slab *ks,
				    struct slab_thread *t)
{
	if (!t->daemon) {
		engine_safepoint(ctx);
		t->daemon = mm_alloc(ctx, ks->o.m);
	}
	return t->daemon;
}

static bool count(struct kernel_slab *ks, bool ok)
{
	if (ok)
		ks->stats.allocated++;
	else
		ks->stats.failed++;
	return ok;
}

static void slab_thread(struct mm_ctx *ctx, void *arg)
{
	struct slab_thread *t = arg;
	struct kernel_slab *ks = (struct kernel_slab *)t->base.w;
	const struct kernel_slab_opts *o = &ks->o;
	struct machine *m = o->m;
	double gap = 1e6 / o->rate;

	while (!ks->stopped && mm_now(ctx) < o->until_ns) {
		uint64_t now = mm_now(ctx);

		while (expiry_heap_due(&t->objects, (double)now))
			release(ctx, ks, t, expiry_heap_pop(&t->objects).value);
		while (net_rx_reap_one(ctx, &ks->rx, &t->packets, now))
			ks->stats.freed++;
		switch ((enum kernel_slab_source)weighted_pick(o->mix, NR_KSLAB_SOURCES,
							       rng_double(o->rng))) {
		case KSLAB_KMALLOC: {
			unsigned i = weighted_pick(kmalloc_weights, G_N_ELEMENTS(kmalloc_weights),
						   rng_double(o->rng));
			slab_obj_t obj;

			engine_safepoint(ctx);
			obj = kmalloc(ctx, m, kmalloc_sizes[i], GFP_KERNEL);
			if (count(ks, obj != SLAB_OBJ_NONE))
				keep(ks, t, KSLAB_KMALLOC, now, obj, RELEASE_KFREE);
			break;
		}
		case KSLAB_FILE:
			lookup(ctx, ks);
			break;
		case KSLAB_PACKET:
			receive(ctx, ks, t, now);
			break;
		case KSLAB_THREAD: {
			struct mm_struct *p = the_daemon(ctx, ks, t);
			unsigned tid;

			if (p)
				engine_safepoint(ctx);
			if (count(ks, p && !mm_clone_thread(ctx, p, &tid))) {
				ks->stats.threads++;
				keep(ks, t, KSLAB_THREAD, now, tid, RELEASE_THREAD);
			}
			break;
		}
		case KSLAB_PGTABLE: {
			struct mm_struct *p = the_daemon(ctx, ks, t);
			uint64_t a = 0, faulted = 0;
			int err = -1;

			if (p) {
				err = 0;
				engine_safepoint(ctx);
				a = vm_mmap(ctx, p, PMD_BYTES, PROT_READ | PROT_WRITE, &err);
			}
			if (!err) {
				engine_safepoint(ctx);
				err = touch_range(ctx, p, a, PAGE_SIZE, &faulted);
				if (count(ks, !err && faulted == 1)) {
					ks->stats.pgtables++;
					keep(ks, t, KSLAB_PGTABLE, now, a, RELEASE_UNMAP);
				} else {
					engine_safepoint(ctx);
					do_munmap(ctx, p, a, PMD_BYTES);
				}
			} else {
				count(ks, false);
			}
			break;
		}
		default:
			g_assert_not_reached();
		}
		engine_sleep(ctx, (uint64_t)(gap * (0.5 + rng_double(o->rng))));
	}
}

static void slab_destroy(struct workload *w)
{
	struct kernel_slab *ks = (struct kernel_slab *)w;

	for (unsigned i = 0; i < ks->o.nr_cpus; i++) {
		expiry_heap_free(&ks->threads[i].objects);
		expiry_heap_free(&ks->threads[i].packets);
	}
	g_array_free(ks->hot, TRUE);
	g_free(ks->threads);
	g_free(ks);
}

struct kernel_slab *kernel_slab_start(struct engine *e, const struct kernel_slab_opts *o,
				      char **err)
{
	struct kernel_slab *ks = g_new0(struct kernel_slab, 1);

	g_assert(o->nr_cpus >= 1 && o->rate > 0 && o->buffer_bytes >= 1 &&
		 o->buffer_bytes <= PAGE_SIZE);
	workload_init(&ks->base, ENGINE_SHARES_STATE, slab_destroy, o->release, o->release_arg);
	ks->o = *o;
	ks->o.cpus = NULL;
	ks->rx = (struct net_rx){ .m = o->m, .skbuff = kmem_cache_find(o->m, "skbuff_head_cache"),
				  .buffer_bytes = o->buffer_bytes, .frag_share = o->frag_share,
				  .long_lived_share = o->long_lived_share[KSLAB_PACKET],
				  .rng = o->rng };
	g_assert(ks->rx.skbuff);
	ks->hot = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	ks->next_file = o->first_file;
	ks->threads = g_new0(struct slab_thread, o->nr_cpus);
	return workload_spawn(e, &ks->base, o->cpus, o->nr_cpus, "kernel_slab", slab_thread,
			      ks->threads, sizeof(*ks->threads), err) ? ks : NULL;
}

const struct kernel_slab_stats *kernel_slab_stats(const struct kernel_slab *ks)
{
	return &ks->stats;
}

void kernel_slab_stop(struct kernel_slab *ks)
{
	ks->stopped = true;
}

void kernel_slab_put(struct kernel_slab *ks)
{
	workload_put(&ks->base);
}
