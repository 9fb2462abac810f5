/* A binary heap of expiries (expiry_heap.h). */
#include "sim/expiry_heap.h"

#include <glib.h>

static void heap_swap(struct expiry_heap *h, size_t a, size_t b)
{
	struct expiry t = h->e[a];

	h->e[a] = h->e[b];
	h->e[b] = t;
}

void expiry_heap_push(struct expiry_heap *h, struct expiry x)
{
	if (h->n + 1 >= h->cap) {
		h->cap = h->cap ? 2 * h->cap : 256;
		h->e = g_renew(struct expiry, h->e, h->cap);
	}
	h->e[++h->n] = x;
	for (size_t i = h->n; i > 1 && h->e[i / 2].expires > h->e[i].expires; i /= 2)
		heap_swap(h, i, i / 2);
}

struct expiry expiry_heap_pop(struct expiry_heap *h)
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

void expiry_heap_free(struct expiry_heap *h)
{
	g_free(h->e);
	h->e = NULL;
	h->n = h->cap = 0;
}
