/* The receive path in C (workload_network.h). */
#include "sim/workload_network.h"

#include "models/page_frag.h"
#include "sim/workload.h"

#include <glib.h>
#include <math.h>

enum net_rx_result net_rx_alloc(struct mm_ctx *ctx, const struct net_rx *rx,
				struct net_packet *p)
{
	bool ok;

	engine_safepoint(ctx);
	p->skb = kmem_cache_alloc(ctx, rx->m, rx->skbuff, GFP_ATOMIC);
	p->frag = rng_double(rx->rng) < rx->frag_share;
	ok = p->skb != SLAB_OBJ_NONE;
	if (ok) {
		engine_safepoint(ctx);
		if (p->frag) {
			p->data = page_frag_alloc(ctx, rx->m, rx->buffer_bytes, GFP_ATOMIC);
			ok = p->data != FRAG_NONE;
		} else {
			p->data = kmalloc(ctx, rx->m, rx->buffer_bytes, GFP_ATOMIC);
			ok = p->data != SLAB_OBJ_NONE;
		}
	}
	if (!ok) {
		if (p->skb != SLAB_OBJ_NONE) {
			engine_safepoint(ctx);
			kmem_cache_free(ctx, rx->m, p->skb);
		}
		return NET_RX_FAILED;
	}
	return rng_double(rx->rng) < rx->long_lived_share ? NET_RX_LONG_LIVED : NET_RX_RECEIVED;
}

/* An entry's value: the handle, and whether it is a fragment (bit 0). */
void net_rx_queue(struct expiry_heap *h, double when, const struct net_packet *p)
{
	expiry_heap_push(h, (struct expiry){ when, p->skb << 1 });
	expiry_heap_push(h, (struct expiry){ when, p->data << 1 | p->frag });
}

bool net_rx_reap_one(struct mm_ctx *ctx, const struct net_rx *rx, struct expiry_heap *h,
		     uint64_t now)
{
	uint64_t value;
	int err;

	if (!expiry_heap_due(h, (double)now))
		return false;
	value = expiry_heap_pop(h).value;
	engine_safepoint(ctx);
	if (value & 1)
		err = page_frag_free(ctx, rx->m, value >> 1);
	else
		err = kmem_cache_free(ctx, rx->m, (slab_obj_t)(value >> 1));
	if (err)
		g_error("network: freed a buffer it did not hold");
	return true;
}

struct net_thread {
	struct workload_thread base;
	unsigned index;                 /* in the options' cpus */
	struct expiry_heap frees;
};

struct network {
	struct workload base;           /* first: the threads' workload is this */
	struct network_opts o;
	struct net_thread *threads;
	struct network_stats stats;
};

/* One packet at now, its frees queued; false if a lifetime function failed. */
static bool receive(struct mm_ctx *ctx, struct network *n, struct net_thread *t, uint64_t now)
{
	const struct network_opts *o = &n->o;
	struct net_packet p;
	double life;

	switch (net_rx_alloc(ctx, &o->rx, &p)) {
	case NET_RX_FAILED:
		n->stats.failed++;
		return true;
	case NET_RX_LONG_LIVED:
		n->stats.long_lived += 2;
		break;
	case NET_RX_RECEIVED:
		if (o->lifetime_fn) {
			if (!o->lifetime_fn(o->fn_arg, ctx, t->index, &life))
				return false;
		} else {
			life = -(double)o->lifetime_ns * log(1 - rng_double(o->rx.rng));
		}
		net_rx_queue(&t->frees, (double)now + life, &p);
		break;
	}
	n->stats.packets++;
	n->stats.allocated += 2;
	return true;
}

static void napi_thread(struct mm_ctx *ctx, void *arg)
{
	struct net_thread *t = arg;
	struct network *n = (struct network *)t->base.w;
	const struct network_opts *o = &n->o;

	while (mm_now(ctx) < o->until_ns) {
		uint64_t now = mm_now(ctx);
		double rate = o->rate;

		while (net_rx_reap_one(ctx, &o->rx, &t->frees, now))
			n->stats.freed++;
		if (!receive(ctx, n, t, now) ||
		    (o->rate_fn && !o->rate_fn(o->fn_arg, ctx, t->index, now, &rate)))
			return;
		engine_sleep(ctx, (uint64_t)(1e6 / rate * (0.5 + rng_double(o->rx.rng))));
	}
}

static void network_destroy(struct workload *w)
{
	struct network *n = (struct network *)w;

	for (unsigned i = 0; i < n->o.nr_cpus; i++)
		expiry_heap_free(&n->threads[i].frees);
	g_free(n->threads);
	g_free(n);
}

struct network *network_start(struct engine *e, const struct network_opts *o, char **err)
{
	struct network *n = g_new0(struct network, 1);

	g_assert(o->nr_cpus >= 1 && (o->rate_fn || o->rate > 0) && o->rx.skbuff &&
		 o->rx.buffer_bytes >= 1 && o->rx.buffer_bytes <= PAGE_SIZE);
	workload_init(&n->base, ENGINE_SHARES_STATE, network_destroy, o->release, o->release_arg);
	n->o = *o;
	n->o.cpus = NULL;
	n->threads = g_new0(struct net_thread, o->nr_cpus);
	for (unsigned i = 0; i < o->nr_cpus; i++)
		n->threads[i].index = i;
	return workload_spawn(e, &n->base, o->cpus, o->nr_cpus, "napi", napi_thread, n->threads,
			      sizeof(*n->threads), err) ? n : NULL;
}

const struct network_stats *network_stats(const struct network *n)
{
	return &n->stats;
}

void network_put(struct network *n)
{
	workload_put(&n->base);
}
