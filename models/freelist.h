/* Doubly linked lists of free blocks, with the kernel's list_add (head) /
 * list_add_tail semantics, for buddy free lists and per-CPU lists.  Every
 * list holds blocks of one order, linked through the blocks' words. */
#ifndef MMSIM_FREELIST_H
#define MMSIM_FREELIST_H

#include "memmap.h"

struct pfn_list {
	pfn_t head, tail;
	uint32_t nr;          /* entries, for pagetypeinfo and the checker */
	uint8_t order;
};

static inline void pfn_list_init(struct pfn_list *l, unsigned order)
{
	l->head = l->tail = PFN_NONE;
	l->nr = 0;
	l->order = (uint8_t)order;
}

static inline pfn_t *link_next(struct memmap *mm, const struct pfn_list *l, pfn_t pfn)
{
	return block_word_a(mm, pfn, l->order);
}

static inline pfn_t *link_prev(struct memmap *mm, const struct pfn_list *l, pfn_t pfn)
{
	return block_word_b(mm, pfn, l->order);
}

static inline bool pfn_list_empty(const struct pfn_list *l)
{
	return l->head == PFN_NONE;
}

static inline void pfn_list_add(struct memmap *mm, struct pfn_list *l, pfn_t pfn, bool tail)
{
	if (pfn_list_empty(l)) {
		*link_next(mm, l, pfn) = *link_prev(mm, l, pfn) = PFN_NONE;
		l->head = l->tail = pfn;
	} else if (tail) {
		*link_next(mm, l, pfn) = PFN_NONE;
		*link_prev(mm, l, pfn) = l->tail;
		*link_next(mm, l, l->tail) = pfn;
		l->tail = pfn;
	} else {
		*link_next(mm, l, pfn) = l->head;
		*link_prev(mm, l, pfn) = PFN_NONE;
		*link_prev(mm, l, l->head) = pfn;
		l->head = pfn;
	}
	l->nr++;
}

static inline void pfn_list_del(struct memmap *mm, struct pfn_list *l, pfn_t pfn)
{
	pfn_t next = *link_next(mm, l, pfn), prev = *link_prev(mm, l, pfn);

	if (prev == PFN_NONE)
		l->head = next;
	else
		*link_next(mm, l, prev) = next;
	if (next == PFN_NONE)
		l->tail = prev;
	else
		*link_prev(mm, l, next) = prev;
	l->nr--;
}

static inline pfn_t pfn_list_next(struct memmap *mm, const struct pfn_list *l, pfn_t pfn)
{
	return *link_next(mm, l, pfn);
}

static inline pfn_t pfn_list_prev(struct memmap *mm, const struct pfn_list *l, pfn_t pfn)
{
	return *link_prev(mm, l, pfn);
}

#endif
