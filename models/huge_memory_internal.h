/* What huge_memory.c shares with the files that stand for the rest of
 * the kernel's THP code: migrate.c (a THP's migration) and
 * huge_memory_check.c (the checker's view of THPs). */
#ifndef MMSIM_HUGE_MEMORY_INTERNAL_H
#define MMSIM_HUGE_MEMORY_INTERNAL_H

#include "huge_memory.h"
#include "mm_space_internal.h"

#include <glib.h>

/* A THP: its pages, the process its owner records name and how many of
 * its pages that process maps, and the processes a fork shared it with
 * (all map it at haddr).  The model splits only a THP one process maps:
 * a shared one is not queued for a deferred split nor split for
 * migration until the others have unmapped it. */
struct thp_folio {
	pfn_t head;
	unsigned order;
	unsigned pid;
	uint64_t haddr;
	unsigned long mapped;
	GArray *sharers;        /* struct thp_sharer; NULL if none */
	bool queued;            /* on its node's deferred split queue */
};

struct thp_state {
	GHashTable *folios;     /* head pfn -> struct thp_folio */
	GQueue *deferred;       /* per node: partly unmapped folios, oldest first */
	unsigned long stats[NR_THP_SIZES][NR_MTHP_STAT];
	unsigned long huge_mapped;  /* pages mapped by PMD or PUD entries */
	/* A gigabyte is being found for a 1 GiB THP's migration: the
	 * contiguous allocator does not make room by moving another one. */
	unsigned gigantic_target_busy;
};

/* A process a fork shared a THP with, and how many of its pages it maps. */
struct thp_sharer {
	unsigned pid;
	unsigned long mapped;
};

/* The machine's THP records, made on first use. */
struct thp_state *thp_state(struct machine *m);
/* The THP pfn belongs to, or NULL: its head is pfn aligned down to 2 MiB
 * or to 1 GiB. */
struct thp_folio *thp_folio_of(struct machine *m, pfn_t pfn);
/* The count of f's pages process pid maps, or NULL if it maps none. */
unsigned long *mapper_count(struct thp_folio *f, unsigned pid);
/* Pages of the piece of 2^order pages at pfn that mm maps where the folio
 * put them (va). */
unsigned long piece_mapped(const struct mm_struct *mm, pfn_t pfn, unsigned order, uint64_t va);
/* split_huge_page_to_list_to_order(): the folio becomes pieces of order 0,
 * or of order 9 when a 1 GiB folio still has PMD mappings; the pages
 * freed. */
unsigned long split_folio(struct mm_ctx *ctx, struct machine *m, struct thp_folio *f);

#endif
