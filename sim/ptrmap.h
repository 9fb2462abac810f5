/* A map from nonzero 64-bit keys to pointers, by open addressing (linear
 * probing, Fibonacci hashing, twice the slots when half are used), for the
 * maps on workloads' hot paths (a jemalloc arena's runs by their ends, a
 * kmem replay's frees that came before their allocation).  A GHashTable
 * take cost about 145 instructions in the kmem replay, this one about 40. */
#ifndef MMSIM_PTRMAP_H
#define MMSIM_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptrmap_entry {
	uint64_t key;                   /* 0: empty */
	void *val;
};

struct ptrmap {
	struct ptrmap_entry *e;         /* a key and its value in one cache line's half */
	size_t mask, used;
	unsigned shift;                 /* 64 - log2(slots): a slot is a key's hash's top bits */
};

/* A map starts zeroed ({ 0 }); ptrmap_free empties it. */
void ptrmap_free(struct ptrmap *x);

static inline size_t ptrmap_slot(const struct ptrmap *x, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> x->shift);
}

/* key's value, or NULL if key is not in the map. */
static inline void *ptrmap_find(const struct ptrmap *x, uint64_t key)
{
	if (!x->e)
		return NULL;
	for (size_t i = ptrmap_slot(x, key); x->e[i].key; i = (i + 1) & x->mask)
		if (x->e[i].key == key)
			return x->e[i].val;
	return NULL;
}

/* Add key (nonzero, not in the map yet) with val. */
void ptrmap_put(struct ptrmap *x, uint64_t key, void *val);

/* Remove key and give its value: false if key was not in the map. */
bool ptrmap_take(struct ptrmap *x, uint64_t key, void **val);

static inline size_t ptrmap_size(const struct ptrmap *x)
{
	return x->used;
}

#endif
