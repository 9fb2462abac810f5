/* Dentries and inodes as slab objects (fs/dcache.c, fs/inode.c), and the
 * superblock shrinker that frees them under reclaim (fs/super.c
 * super_cache_scan, mm/shrinker.c do_shrink_slab).  One superblock: a
 * file's dentry and inode are made when it is first opened or read; the
 * dentry sits on its node's LRU, and when the shrinker prunes it, the
 * inode (no longer referenced) moves to the inode LRU, pruned in turn; a
 * dentry looked up again since the last pass is passed over once
 * (DCACHE_REFERENCED).  Not modelled: negative dentries,
 * inodes that keep page-cache pages (the kernel would drop those). */
#ifndef MMSIM_DCACHE_H
#define MMSIM_DCACHE_H

#include "mm_env.h"
#include "mmzone.h"

#define DEFAULT_SEEKS 2
#define SHRINK_BATCH 128

/* A lookup of file on ctx's CPU: d_alloc() and iget() if the file has no
 * dentry (a cached inode is reused), else the dentry is marked referenced.
 * 1 if a dentry was made, 0 if cached, -1 if the allocator refused
 * (nothing is kept then).  No-op (0) while the slab model is off. */
int d_alloc_file(struct mm_ctx *ctx, struct machine *m, uint32_t file);
/* shrink_slab() for node nid in a reclaim pass at priority (DEF_PRIORITY
 * down to 0): do_shrink_slab's rule since 4.16, the super shrinker asked
 * for (freeable >> priority) * 4 / DEFAULT_SEEKS objects plus
 * nr_deferred >> priority, never more than twice the freeable objects,
 * run in SHRINK_BATCH batches; what is left unscanned is deferred.
 * Objects freed. */
unsigned long shrink_slab(struct mm_ctx *ctx, struct machine *m, int nid, int priority);
/* super_cache_scan(): walk nr_to_scan of node nid's unused dentries and
 * inodes, oldest first, split in proportion to their counts; objects
 * freed. */
unsigned long super_cache_scan(struct mm_ctx *ctx, struct machine *m, int nid,
			       unsigned long nr_to_scan);
/* The page cache's xarray reduced to its leaf nodes (lib/xarray.c
 * xas_create, xas_delete_node): one radix_tree_node object per
 * XA_CHUNK_SIZE consecutive indices of a file, made with the chunk's first
 * cached page and freed with its last.  xa_node_get: 0, or -1 if the
 * allocator refused (the page is not cached then); both no-ops while the
 * slab model is off. */
#define XA_CHUNK_SHIFT 6
int xa_node_get(struct mm_ctx *ctx, struct machine *m, uint32_t file, uint32_t index);
void xa_node_put(struct mm_ctx *ctx, struct machine *m, uint32_t file, uint32_t index);
/* Leaf nodes alive. */
unsigned long xa_nodes(const struct machine *m);
/* Dentries and inodes cached on node nid. */
unsigned long dcache_dentries(const struct machine *m, int nid);
unsigned long dcache_inodes(const struct machine *m, int nid);
void dcache_destroy(struct machine *m);

#endif
