#include "dcache.h"
#include "slub.h"

#include <glib.h>

/* A cached file: its dentry and inode objects, on the dentry LRU of the
 * dentry's node while the dentry lives, then on the inode LRU. */
struct dentry {
	GList link;
	uint32_t file;
	uint16_t nid;
	bool referenced;        /* DCACHE_REFERENCED: looked up again since the last prune */
	slab_obj_t d, inode;
};

struct dcache_node {
	GQueue dentry_lru, inode_lru;   /* oldest at head */
	unsigned long nr_deferred;
};

struct dcache {
	GHashTable *by_file;            /* file -> struct dentry */
	struct dcache_node *node;
	GHashTable *xa;                 /* file << 32 | chunk -> struct xa_leaf */
	struct kmem_cache *xa_cache;    /* radix_tree_node, once looked up */
};

struct xa_leaf {
	slab_obj_t node;
	unsigned pages;
};

/* g_int64_hash folds file << 32 | chunk to file ^ chunk: many small files
 * collide on a few values and the lookups crawl.  A multiply-shift mix
 * (MurmurHash3's finalizer) spreads them. */
static guint xa_key_hash(gconstpointer key)
{
	uint64_t v = *(const uint64_t *)key;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (guint)v;
}

static struct dcache *dcache_get(struct machine *m)
{
	if (!m->dcache) {
		m->dcache = g_new0(struct dcache, 1);
		m->dcache->by_file = g_hash_table_new_full(NULL, NULL, NULL, g_free);
		m->dcache->node = g_new0(struct dcache_node, m->nr_nodes);
		m->dcache->xa = g_hash_table_new_full(xa_key_hash, g_int64_equal, g_free, g_free);
	}
	return m->dcache;
}

void dcache_destroy(struct machine *m)
{
	if (!m->dcache)
		return;
	g_hash_table_destroy(m->dcache->by_file);
	g_hash_table_destroy(m->dcache->xa);
	g_free(m->dcache->node);
	g_free(m->dcache);
	m->dcache = NULL;
}

int d_alloc_file(struct mm_ctx *ctx, struct machine *m, uint32_t file)
{
	struct kmem_cache *dc = kmem_cache_find(m, "dentry");
	struct kmem_cache *ic = kmem_cache_find(m, "ext4_inode_cache");

	if (!dc || !ic)
		return 0;
	struct dcache *d = dcache_get(m);

	struct dentry *e = g_hash_table_lookup(d->by_file, GUINT_TO_POINTER(file));

	if (e && e->d == SLAB_OBJ_NONE && e->link.data) {
		/* The inode is still cached: only a new dentry, and the inode
		 * is in use again. */
		slab_obj_t dent = kmem_cache_alloc(ctx, m, dc, GFP_KERNEL);

		/* Reclaim in the allocation may have pruned the inode. */
		e = g_hash_table_lookup(d->by_file, GUINT_TO_POINTER(file));
		if (dent == SLAB_OBJ_NONE || !e || e->d != SLAB_OBJ_NONE || !e->link.data) {
			if (dent != SLAB_OBJ_NONE)
				kmem_cache_free(ctx, m, dent);
			return dent == SLAB_OBJ_NONE ? -1 : 0;
		}
		e->d = dent;
		g_queue_unlink(&d->node[e->nid].inode_lru, &e->link);
		g_queue_push_tail_link(&d->node[e->nid].dentry_lru, &e->link);
		return 1;
	}
	if (e) {
		e->referenced = true;
		return 0;
	}
	e = g_new0(struct dentry, 1);

	/* Held in the table at once: another thread may look the file up
	 * while the allocator runs. */
	e->file = file;
	e->d = e->inode = SLAB_OBJ_NONE;
	g_hash_table_insert(d->by_file, GUINT_TO_POINTER(file), e);
	e->d = kmem_cache_alloc(ctx, m, dc, GFP_KERNEL);
	if (e->d != SLAB_OBJ_NONE)
		e->inode = kmem_cache_alloc(ctx, m, ic, GFP_KERNEL);
	if (e->inode == SLAB_OBJ_NONE) {
		if (e->d != SLAB_OBJ_NONE)
			kmem_cache_free(ctx, m, e->d);
		g_hash_table_remove(d->by_file, GUINT_TO_POINTER(file));
		return -1;
	}
	e->link.data = e;
	e->nid = (uint16_t)pfn_zone(m, obj_slab_pfn(m, e->d))->node;
	g_queue_push_tail_link(&d->node[e->nid].dentry_lru, &e->link);
	return 1;
}

static uint64_t xa_key(uint32_t file, uint32_t index)
{
	return (uint64_t)file << 32 | index >> XA_CHUNK_SHIFT;
}

/* The radix_tree_node cache, or NULL before the slab model starts.  Kept
 * once found: every page cached asks, and a lookup by name hashes the
 * string (caches live as long as the machine). */
static struct kmem_cache *xa_cache(struct machine *m)
{
	struct kmem_cache *s;

	if (m->dcache && m->dcache->xa_cache)
		return m->dcache->xa_cache;
	s = kmem_cache_find(m, "radix_tree_node");
	if (s)
		dcache_get(m)->xa_cache = s;
	return s;
}

int xa_node_get(struct mm_ctx *ctx, struct machine *m, uint32_t file, uint32_t index)
{
	struct kmem_cache *s = xa_cache(m);

	if (!s)
		return 0;
	GHashTable *xa = m->dcache->xa;
	uint64_t key = xa_key(file, index);
	struct xa_leaf *leaf = g_hash_table_lookup(xa, &key);

	if (!leaf) {
		uint64_t *k = g_new(uint64_t, 1);

		*k = key;
		leaf = g_new0(struct xa_leaf, 1);
		leaf->node = SLAB_OBJ_NONE;
		/* In the table while the allocator runs: a page of the same
		 * chunk cached meanwhile shares the node. */
		g_hash_table_insert(xa, k, leaf);
		leaf->pages++;
		slab_obj_t node = kmem_cache_alloc(ctx, m, s, GFP_KERNEL);

		leaf = g_hash_table_lookup(xa, &key);
		if (node == SLAB_OBJ_NONE) {
			if (!--leaf->pages)
				g_hash_table_remove(xa, &key);
			return -1;
		}
		leaf->node = node;
		return 0;
	}
	leaf->pages++;
	return 0;
}

void xa_node_put(struct mm_ctx *ctx, struct machine *m, uint32_t file, uint32_t index)
{
	if (!m->dcache)
		return;
	uint64_t key = xa_key(file, index);
	struct xa_leaf *leaf = g_hash_table_lookup(m->dcache->xa, &key);

	if (!leaf || --leaf->pages)
		return;
	slab_obj_t node = leaf->node;

	g_hash_table_remove(m->dcache->xa, &key);
	if (node != SLAB_OBJ_NONE)
		kmem_cache_free(ctx, m, node);
}

unsigned long xa_nodes(const struct machine *m)
{
	return m->dcache ? g_hash_table_size(m->dcache->xa) : 0;
}

unsigned long dcache_dentries(const struct machine *m, int nid)
{
	return m->dcache ? m->dcache->node[nid].dentry_lru.length : 0;
}

unsigned long dcache_inodes(const struct machine *m, int nid)
{
	return m->dcache ? m->dcache->node[nid].inode_lru.length + dcache_dentries(m, nid) : 0;
}

/* prune_dcache_sb(): walk nr of the oldest dentries: a referenced one
 * loses the flag and goes to the tail (dentry_lru_isolate's rotation), the
 * others die and their inodes, unreferenced now, join the inode LRU. */
static unsigned long prune_dcache_sb(struct mm_ctx *ctx, struct machine *m,
				     struct dcache_node *n, unsigned long nr)
{
	unsigned long freed = 0;
	GList *l;

	while (nr-- && (l = g_queue_pop_head_link(&n->dentry_lru))) {
		struct dentry *e = l->data;

		if (e->referenced) {
			e->referenced = false;
			g_queue_push_tail_link(&n->dentry_lru, l);
			continue;
		}
		kmem_cache_free(ctx, m, e->d);
		e->d = SLAB_OBJ_NONE;
		g_queue_push_tail_link(&n->inode_lru, &e->link);
		freed++;
	}
	return freed;
}

/* prune_icache_sb(): the oldest unused inodes are evicted. */
static unsigned long prune_icache_sb(struct mm_ctx *ctx, struct machine *m,
				     struct dcache_node *n, unsigned long nr)
{
	unsigned long freed = 0;
	GList *l;

	while (freed < nr && (l = g_queue_pop_head_link(&n->inode_lru))) {
		struct dentry *e = l->data;

		kmem_cache_free(ctx, m, e->inode);
		g_hash_table_remove(m->dcache->by_file, GUINT_TO_POINTER(e->file));
		freed++;
	}
	return freed;
}

unsigned long super_cache_scan(struct mm_ctx *ctx, struct machine *m, int nid,
			       unsigned long nr_to_scan)
{
	if (!m->dcache)
		return 0;
	struct dcache_node *n = &m->dcache->node[nid];
	unsigned long dentries = n->dentry_lru.length, inodes = n->inode_lru.length;
	unsigned long total = dentries + inodes;

	if (!total)
		return 0;
	/* Dentries first: pruning them is what makes inodes freeable. */
	unsigned long nr_d = nr_to_scan * dentries / total;
	unsigned long nr_i = nr_to_scan * inodes / total;

	return prune_dcache_sb(ctx, m, n, nr_d) + prune_icache_sb(ctx, m, n, nr_i);
}

unsigned long shrink_slab(struct mm_ctx *ctx, struct machine *m, int nid, int priority)
{
	if (!m->dcache)
		return 0;
	struct dcache_node *n = &m->dcache->node[nid];
	unsigned long freeable = n->dentry_lru.length + n->inode_lru.length;
	unsigned long freed = 0, scanned = 0;

	if (!freeable)
		return 0;
	/* A pass at priority p asks for 1/2^p of the objects, weighted by
	 * how costly they are to make again, and for that share of the work
	 * deferred earlier. */
	unsigned long delta = (freeable >> priority) * 4 / DEFAULT_SEEKS;
	unsigned long nr = n->nr_deferred;
	unsigned long total_scan = MIN((nr >> priority) + delta, freeable * 2);
	unsigned long cap = freeable * 2;

	while (total_scan >= SHRINK_BATCH || (total_scan && total_scan >= freeable)) {
		unsigned long batch = MIN(total_scan, (unsigned long)SHRINK_BATCH);
		unsigned long got = super_cache_scan(ctx, m, nid, batch);

		total_scan -= batch;
		scanned += batch;
		freed += got;
		if (!got)
			break;
		freeable = n->dentry_lru.length + n->inode_lru.length;
	}
	/* What this pass was asked for and did not scan waits for the next,
	 * bounded as the scan is. */
	n->nr_deferred = nr + delta > scanned ? MIN(nr + delta - scanned, cap) : 0;
	return freed;
}
