/* The SLUB allocator (mm/slub.c) as the page allocator sees it: caches of
 * fixed-size objects carved out of slab pages, with the slab order SLUB
 * computes, per-CPU slabs and per-CPU partial lists, per-node partial
 * lists, and the kernel's rules for when an empty slab page goes back.
 * Objects are handles, not memory: a slab keeps a bitmap of its objects in
 * use.  Not modelled: get_any_partial (remote nodes' partial lists), the
 * lockless freelists' costs, debugging metadata, memcg accounting. */
#ifndef MMSIM_SLUB_H
#define MMSIM_SLUB_H

#include "mm_env.h"
#include "mmzone.h"

#include <glib.h>

#define SLAB_RECLAIM_ACCOUNT 0x1u   /* slab pages are __GFP_RECLAIMABLE */
#define SLUB_MAX_ORDER PAGE_ALLOC_COSTLY_ORDER   /* slub_max_order */
#define MAX_OBJS_PER_PAGE 32767u

/* An object: cache index, slab id and index in the slab, packed. */
typedef uint64_t slab_obj_t;
#define SLAB_OBJ_NONE UINT64_MAX

struct kmem_cache;

/* What /proc/slabinfo shows of one cache, and the model's counters. */
struct slabinfo {
	const char *name;
	unsigned long active_objs, num_objs;
	unsigned objsize, objperslab, pagesperslab;
	unsigned long active_slabs, num_slabs;
	unsigned long allocs, frees, order_fallbacks, slabs_freed;
	unsigned min_partial, cpu_partial_slabs;
	bool reclaimable;
};

/* The slab model of a machine; kmem_cache_create makes it on first use. */
void slub_destroy(struct machine *m);
/* The slab model is on: caches exist (workloads then allocate kernel
 * objects through it). */
static inline bool slub_enabled(const struct machine *m)
{
	return m->slub != NULL;
}

/* calculate_order() for an object of size bytes (s->size) on nr_cpus
 * present CPUs, with slub_min_objects and slub_min_order unset:
 * min_objects 4 * (fls(nr_cpus) + 1), at most slub_max_order unless one
 * object needs more. */
unsigned calculate_order(unsigned size, unsigned nr_cpus);
/* order_objects(): objects of size in a slab of order. */
static inline unsigned order_objects(unsigned order, unsigned size)
{
	return (unsigned)((PAGE_SIZE << order) / size);
}

/* kmem_cache_create(): size is the object's footprint in the slab (what
 * /proc/slabinfo shows as objsize), rounded up to align.  An existing
 * cache of that name is returned as is.  NULL if size is 0 or a slab of
 * MAX_PAGE_ORDER cannot hold one object. */
struct kmem_cache *kmem_cache_create(struct machine *m, const char *name, unsigned size,
				     unsigned align, unsigned flags);
struct kmem_cache *kmem_cache_find(struct machine *m, const char *name);
/* kmem_cache_init(): the caches that dominate a real machine's slab
 * memory, with their /proc/slabinfo object sizes (docs/MODEL.md lists
 * them): kmalloc-8 .. kmalloc-8k, dentry, ext4_inode_cache,
 * radix_tree_node, the per-process caches, the network's.  Turns the slab
 * model on. */
void kmem_cache_init(struct machine *m);
/* kmalloc(): the smallest kmalloc-<n> cache that fits size (at most 8 KiB,
 * KMALLOC_MAX_CACHE_SIZE); SLAB_OBJ_NONE if none fits or the allocator
 * refused. */
slab_obj_t kmalloc(struct mm_ctx *ctx, struct machine *m, size_t size, gfp_t gfp);

/* kmem_cache_alloc(): from ctx's CPU slab, its partial list, its node's
 * partial list, or a new slab (allocate_slab: s->oo first with
 * __GFP_NORETRY|__GFP_NOWARN and, for orders above s->min, no reclaim;
 * then s->min with gfp).  SLAB_OBJ_NONE if the page allocator refused. */
slab_obj_t kmem_cache_alloc(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			    gfp_t gfp);
/* kmem_cache_free(): 0, or -1 if obj is not an object in use. */
int kmem_cache_free(struct mm_ctx *ctx, struct machine *m, slab_obj_t obj);
/* The cache obj belongs to (NULL for a handle no cache made). */
struct kmem_cache *obj_cache(struct machine *m, slab_obj_t obj);
/* The first pfn of the slab holding obj, PFN_NONE if obj is not in use. */
pfn_t obj_slab_pfn(struct machine *m, slab_obj_t obj);

void kmem_cache_info(const struct kmem_cache *s, struct slabinfo *out);
/* Caches in creation order; i past the last gives NULL. */
struct kmem_cache *kmem_cache_nth(struct machine *m, unsigned i);
/* Whether pfn is the first page of a slab. */
bool pfn_is_slab(struct machine *m, pfn_t pfn);
/* Whether owner is the owner word of a cache's slab pages. */
bool slab_owner(const struct machine *m, uint32_t owner);
/* Slabs of every cache and their pages, and those with fewer than
 * permille/1000 of their objects in use (pinned nearly empty). */
struct slab_sparse {
	unsigned long slabs, pages, sparse_slabs, sparse_pages;
	unsigned long pages_freed;      /* by every cache since boot (discard_slab) */
};
void slab_sparse_count(struct machine *m, unsigned permille, struct slab_sparse *out);

/* /proc/slabinfo (version 2.1, SLUB's columns: no tunables). */
void proc_slabinfo(struct machine *m, GString *out);
/* Objects and slabs add up in every cache: NULL, or a g_malloc'ed message. */
char *slub_check(struct machine *m);

#endif
