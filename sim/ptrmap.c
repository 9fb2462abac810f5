#include "sim/ptrmap.h"

#include <glib.h>

void ptrmap_free(struct ptrmap *x)
{
	g_free(x->e);
	*x = (struct ptrmap){ 0 };
}

static void ptrmap_grow(struct ptrmap *x)
{
	struct ptrmap old = *x;

	x->mask = old.e ? 2 * old.mask + 1 : 63;
	x->shift = (unsigned)__builtin_clzll(x->mask + 1) + 1;
	x->e = g_new0(struct ptrmap_entry, x->mask + 1);
	x->used = 0;
	for (size_t i = 0; old.e && i <= old.mask; i++)
		if (old.e[i].key)
			ptrmap_put(x, old.e[i].key, old.e[i].val);
	g_free(old.e);
}

void ptrmap_put(struct ptrmap *x, uint64_t key, void *val)
{
	size_t i;

	g_assert(key);
	if (2 * (x->used + 1) > x->mask + 1)
		ptrmap_grow(x);
	for (i = ptrmap_slot(x, key); x->e[i].key; i = (i + 1) & x->mask)
		;
	x->e[i] = (struct ptrmap_entry){ key, val };
	x->used++;
}

/* The entries after the hole that their probe chains would lose move
 * back into it: no tombstones. */
bool ptrmap_take(struct ptrmap *x, uint64_t key, void **val)
{
	size_t i;

	if (!x->used)
		return false;
	for (i = ptrmap_slot(x, key); x->e[i].key != key; i = (i + 1) & x->mask)
		if (!x->e[i].key)
			return false;
	*val = x->e[i].val;
	for (size_t j = (i + 1) & x->mask; x->e[j].key; j = (j + 1) & x->mask) {
		size_t home = ptrmap_slot(x, x->e[j].key);

		/* j's entry may fill the hole at i if its home is not in (i, j]. */
		if (((j - home) & x->mask) >= ((j - i) & x->mask)) {
			x->e[i] = x->e[j];
			i = j;
		}
	}
	x->e[i].key = 0;
	x->used--;
	return true;
}
