/* kvmalloc() as a kernel allocation source (mm/util.c, mm/slub.c): a large
 * kmalloc attempt straight from the page allocator, and vmalloc's order-0
 * pages when it fails. */
#ifndef MMSIM_KVMALLOC_H
#define MMSIM_KVMALLOC_H

#include "mm_env.h"
#include "mmzone.h"

/* What one kvmalloc() got: one physically contiguous block, or the
 * order-0 pages of a vmalloc area. */
struct kvmalloc_area {
	pfn_t block;            /* PFN_NONE if vmalloc'ed */
	unsigned order;
	pfn_t *pages;           /* vmalloc pages, g_malloc'ed */
	unsigned nr_pages;
};

/* kvmalloc_node(ctx, size, GFP_KERNEL, nid).  noretry: commit d307be85's
 * __GFP_NORETRY on the kmalloc attempt (kmalloc_gfp_adjust).  0, or -1 if
 * even vmalloc failed (nothing is held then). */
int kvmalloc_node(struct mm_ctx *ctx, struct machine *m, size_t size, int nid, bool noretry,
		  struct kvmalloc_area *out);
void kvfree(struct mm_ctx *ctx, struct machine *m, struct kvmalloc_area *a);
/* The owner word of every page kvmalloc holds, so callers can refuse to
 * free them behind kvfree's back. */
uint32_t kvmalloc_owner(void);

/* The counters live and die with the machine. */
void kvmalloc_init(struct machine *m);
void kvmalloc_destroy(struct machine *m);
/* Superpageblocks kvmalloc tainted (clean or empty before): by its
 * contiguous kmalloc attempts, and by its vmalloc fallbacks' pages. */
unsigned long kvmalloc_tainted_by_kmalloc(const struct machine *m);
unsigned long kvmalloc_tainted_by_vmalloc(const struct machine *m);

#endif
