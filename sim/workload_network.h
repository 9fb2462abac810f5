/* A NIC's receive path, the workload's engine in C: on each CPU given, a
 * thread standing for the CPU's NAPI poll takes packets at a rate, each an
 * skbuff head and a data buffer freed together after a lifetime, a share
 * never (lua/mmsim/network.lua composes it and describes the behaviour).
 * The receive path itself (net_rx_*) is kernel_slab's packet source too. */
#ifndef MMSIM_WORKLOAD_NETWORK_H
#define MMSIM_WORKLOAD_NETWORK_H

#include "models/slub.h"
#include "sim/engine.h"
#include "sim/expiry_heap.h"
#include "sim/rng.h"

#include <stdbool.h>
#include <stdint.h>

struct machine;

/* What a receive path takes its packets with. */
struct net_rx {
	struct machine *m;
	struct kmem_cache *skbuff;      /* skbuff_head_cache */
	unsigned buffer_bytes;          /* a packet's data buffer, at most a page */
	double frag_share;              /* packets whose data is a page fragment */
	double long_lived_share;        /* packets never read */
	struct rng *rng;
};

struct net_packet {
	slab_obj_t skb;
	uint64_t data;                  /* a fragment's address or a kmalloc object */
	bool frag;
};

enum net_rx_result { NET_RX_FAILED, NET_RX_LONG_LIVED, NET_RX_RECEIVED };

/* A packet's head and data, GFP_ATOMIC, the data a page fragment
 * (frag_share, drawn) or kmalloc'ed; then whether it is never read
 * (drawn).  Nothing is kept when the allocator refused either. */
enum net_rx_result net_rx_alloc(struct mm_ctx *ctx, const struct net_rx *rx,
				struct net_packet *p);
/* The packet's head and data freed together at when. */
void net_rx_queue(struct expiry_heap *h, double when, const struct net_packet *p);
/* Free the earliest buffer of h if it is due by now; false if none is. */
bool net_rx_reap_one(struct mm_ctx *ctx, const struct net_rx *rx, struct expiry_heap *h,
		     uint64_t now);

struct network_opts {
	struct net_rx rx;               /* its machine's slab model on */
	const unsigned *cpus;           /* one thread per entry */
	unsigned nr_cpus;
	double rate;                    /* packets per simulated ms per CPU, > 0 */
	uint64_t lifetime_ns;           /* a buffer's mean wait to be read (exponential) */
	uint64_t until_ns;              /* no packet from this simulated time on */
	/* When set, the rate at now and a lifetime in ns come from the
	 * creator (a script's functions) instead of rate and lifetime_ns,
	 * for the thread of cpus[thread]; false stops the thread, the
	 * creator having recorded why. */
	bool (*rate_fn)(void *arg, struct mm_ctx *ctx, unsigned thread, uint64_t now, double *v);
	bool (*lifetime_fn)(void *arg, struct mm_ctx *ctx, unsigned thread, double *v);
	void *fn_arg;
	/* Called when the last reference goes (the caller's and the
	 * threads'), or NULL. */
	void (*release)(void *arg);
	void *release_arg;
};

struct network_stats {
	uint64_t packets, allocated, freed, failed, long_lived;   /* objects: a head and its data are two */
};

struct network;

/* Spawn the threads ("napi<cpu>") on e.  NULL and a g_malloc'ed *err if a
 * thread could not start (engine_spawn_check); threads started before it
 * run on.  The caller holds a reference (network_put). */
struct network *network_start(struct engine *e, const struct network_opts *o, char **err);
const struct network_stats *network_stats(const struct network *n);
void network_put(struct network *n);

#endif
