/* A binary heap of expiries, the earliest on top: kernel_noise's,
 * kernel_slab's and network's C threads keep their allocations in one,
 * and Lua's mmsim.expiry_heap is one too (lua/lheap.c).  Ties go as the heap's
 * first version, in Lua, broke them: equal times come out in the same
 * order, so the workloads free in the order they always did. */
#ifndef MMSIM_EXPIRY_HEAP_H
#define MMSIM_EXPIRY_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct expiry {
	double expires;                 /* ns, fractional as drawn */
	uint64_t value;                 /* what expires: the user's */
};

struct expiry_heap {
	struct expiry *e;               /* e[1..n] */
	size_t n, cap;
};

void expiry_heap_push(struct expiry_heap *h, struct expiry x);
/* The earliest entry, taken out; the heap must not be empty. */
struct expiry expiry_heap_pop(struct expiry_heap *h);
/* Whether the earliest entry expires by now. */
static inline int expiry_heap_due(const struct expiry_heap *h, double now)
{
	return h->n && h->e[1].expires <= now;
}
void expiry_heap_free(struct expiry_heap *h);

#endif
