/* The page fragment cache of network receive buffers (mm/page_frag_cache.c,
 * net/core/skbuff.c napi_alloc_skb): each CPU carves buffers out of an
 * order-3 block (PAGE_FRAG_CACHE_MAX_ORDER, tried with __GFP_NORETRY and no
 * reclaim) or, when that fails, an order-0 page; the block goes back to the
 * page allocator when the cache has moved on and its last fragment is
 * freed, so one long-lived buffer pins 32 KiB. */
#ifndef MMSIM_PAGE_FRAG_H
#define MMSIM_PAGE_FRAG_H

#include "mm_env.h"
#include "mmzone.h"

#define PAGE_FRAG_CACHE_MAX_ORDER 3

/* A fragment's physical address (its block's pfn << PAGE_SHIFT, plus its
 * offset in the block): the handle, as the kernel's is the address. */
typedef uint64_t frag_addr_t;
#define FRAG_NONE UINT64_MAX

/* page_frag_alloc(): a fragment of size bytes (at most a page) on ctx's
 * CPU, FRAG_NONE if refused. */
frag_addr_t page_frag_alloc(struct mm_ctx *ctx, struct machine *m, unsigned size, gfp_t gfp);
/* page_frag_free(): 0, or -1 if addr is no fragment alive (never made, or
 * freed already). */
int page_frag_free(struct mm_ctx *ctx, struct machine *m, frag_addr_t addr);
/* The pfn of the block that holds the live fragment at addr, PFN_NONE if
 * there is none. */
pfn_t page_frag_block(const struct machine *m, frag_addr_t addr);
/* The owner word of fragment blocks. */
uint32_t page_frag_owner(void);
/* Blocks held by fragments or by a CPU's cache. */
unsigned long page_frag_blocks(const struct machine *m);
/* Fragments made and freed so far, those alive, and the refills that fell
 * back to an order-0 page. */
struct page_frag_stats {
	unsigned long allocated, freed, alive, refills, order0_refills;
};
void page_frag_stats(const struct machine *m, struct page_frag_stats *out);
void page_frag_destroy(struct machine *m);
/* Every block held is an allocated block of the fragment cache's: NULL, or
 * a g_malloc'ed message. */
char *page_frag_check(struct machine *m);

#endif
