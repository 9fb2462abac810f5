/* The LRU's per-CPU folio batches and lruvec->lru_lock for anonymous
 * pages (mm/swap.c): pages a fault maps join the LRU a batch at a time,
 * and mapped pages leave it when munmap or exit frees them.  The model
 * keeps no anonymous LRU lists (reclaim takes file pages only,
 * models/page_cache.c): what it keeps is their lock and its cost. */
#ifndef MMSIM_SWAP_H
#define MMSIM_SWAP_H

#include "mmzone.h"

/* include/linux/pagevec.h: a folio_batch holds 31 folios since commit
 * 9cecde80aae0 ("mm: increase folio batch size", 6.9; 15 before), so
 * lru_add takes lru_lock once per 31 faulted pages.  munmap, exit and
 * page-cache frees batch by the same size. */
#define FOLIO_BATCH_SIZE 31

struct folio_batch {
	unsigned nr;
	pfn_t folios[FOLIO_BATCH_SIZE];
};

/* folio_add_lru: into the CPU's lru_add batch, moved onto the LRU under
 * lru_lock when the batch is full. */
void folio_add_lru(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
/* lru_add_drain: the CPU's lru_add batch onto the LRU now. */
void lru_add_drain(struct mm_ctx *ctx, struct machine *m);
/* folios_put_refs: take the n mapped pages off the LRU, under the
 * lru_lock of each run of pages of one node, and free them through the
 * per-CPU lists (free_unref_folios). */
void folios_put_refs(struct mm_ctx *ctx, struct machine *m, const pfn_t *pages, unsigned n);
void lru_batches_destroy(struct machine *m);

#endif
