#include "page_frag.h"
#include "mm_space.h"
#include "page_alloc.h"

#include <glib.h>

#define PAGE_FRAG_SOURCE 0x0fe00001u  /* in the model's range, OWNER_KERNEL_MODEL_ID up */

struct page_frag_cache {
	pfn_t pfn;              /* PFN_NONE: no block */
	unsigned size, offset;  /* bytes in the block, and used */
};

/* Fragment addresses are the live set's keys, as pointers. */
G_STATIC_ASSERT(sizeof(gsize) >= sizeof(frag_addr_t));

struct page_frag_state {
	struct page_frag_cache *cpu;
	GHashTable *refs;       /* block pfn -> fragments + 1 while a cache holds it */
	GHashTable *live;       /* fragment address -> its block's pfn + 1 */
	unsigned long allocated, freed, refills, order0_refills;
};

static struct page_frag_state *frag_state(struct machine *m)
{
	if (!m->page_frag) {
		m->page_frag = g_new0(struct page_frag_state, 1);
		m->page_frag->cpu = g_new(struct page_frag_cache, m->nr_cpus);
		for (unsigned c = 0; c < m->nr_cpus; c++)
			m->page_frag->cpu[c] = (struct page_frag_cache){ .pfn = PFN_NONE };
		m->page_frag->refs = g_hash_table_new(NULL, NULL);
		m->page_frag->live = g_hash_table_new(NULL, NULL);
	}
	return m->page_frag;
}

void page_frag_destroy(struct machine *m)
{
	if (!m->page_frag)
		return;
	g_hash_table_destroy(m->page_frag->refs);
	g_hash_table_destroy(m->page_frag->live);
	g_free(m->page_frag->cpu);
	g_free(m->page_frag);
	m->page_frag = NULL;
}

unsigned long page_frag_blocks(const struct machine *m)
{
	return m->page_frag ? g_hash_table_size(m->page_frag->refs) : 0;
}

void page_frag_stats(const struct machine *m, struct page_frag_stats *out)
{
	const struct page_frag_state *st = m->page_frag;

	*out = (struct page_frag_stats){ 0 };
	if (!st)
		return;
	out->allocated = st->allocated;
	out->freed = st->freed;
	out->refills = st->refills;
	out->order0_refills = st->order0_refills;
	out->alive = g_hash_table_size(st->live);
}

uint32_t page_frag_owner(void)
{
	return make_owner(OWNER_KIND_KERNEL, PAGE_FRAG_SOURCE);
}

/* Drop one reference to the block at pfn; the last frees it. */
static void frag_put(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	GHashTable *refs = m->page_frag->refs;
	unsigned n = GPOINTER_TO_UINT(g_hash_table_lookup(refs, GUINT_TO_POINTER(pfn)));

	if (n > 1) {
		g_hash_table_insert(refs, GUINT_TO_POINTER(pfn), GUINT_TO_POINTER(n - 1));
		return;
	}
	g_hash_table_remove(refs, GUINT_TO_POINTER(pfn));
	__free_pages(ctx, m, pfn);
}

/* __page_frag_cache_refill(). */
static pfn_t page_frag_refill(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, unsigned *size)
{
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	uint32_t owner = page_frag_owner();
	gfp_t high = (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN | __GFP_NORETRY |
		     __GFP_NOMEMALLOC;
	pfn_t pfn = __alloc_pages(ctx, m, high, PAGE_FRAG_CACHE_MAX_ORDER, nid, owner, 0);

	*size = PAGE_SIZE << PAGE_FRAG_CACHE_MAX_ORDER;
	if (pfn == PFN_NONE) {
		pfn = __alloc_pages(ctx, m, gfp, 0, nid, owner, 0);
		*size = PAGE_SIZE;
		m->page_frag->order0_refills += pfn != PFN_NONE;
	}
	m->page_frag->refills += pfn != PFN_NONE;
	return pfn;
}

frag_addr_t page_frag_alloc(struct mm_ctx *ctx, struct machine *m, unsigned size, gfp_t gfp)
{
	struct page_frag_state *st = frag_state(m);
	struct page_frag_cache *c = &st->cpu[ctx->cpu];

	if (size == 0 || size > PAGE_SIZE)
		return FRAG_NONE;
	if (c->pfn == PFN_NONE || c->offset + size > c->size) {
		unsigned bytes;
		pfn_t pfn = page_frag_refill(ctx, m, gfp, &bytes);

		if (pfn == PFN_NONE)
			return FRAG_NONE;
		/* The old block is the cache's no more (the reference it
		 * held goes), and another thread may have refilled meanwhile. */
		if (c->pfn != PFN_NONE)
			frag_put(ctx, m, c->pfn);
		c->pfn = pfn;
		c->size = bytes;
		c->offset = 0;
		g_hash_table_insert(st->refs, GUINT_TO_POINTER(pfn), GUINT_TO_POINTER(1));
	}
	unsigned n = GPOINTER_TO_UINT(g_hash_table_lookup(st->refs, GUINT_TO_POINTER(c->pfn)));

	g_hash_table_insert(st->refs, GUINT_TO_POINTER(c->pfn), GUINT_TO_POINTER(n + 1));
	frag_addr_t addr = ((frag_addr_t)c->pfn << PAGE_SHIFT) + c->offset;

	g_hash_table_insert(st->live, GSIZE_TO_POINTER(addr), GUINT_TO_POINTER(c->pfn + 1));
	c->offset += size;
	st->allocated++;
	return addr;
}

pfn_t page_frag_block(const struct machine *m, frag_addr_t addr)
{
	if (!m->page_frag)
		return PFN_NONE;
	return (pfn_t)GPOINTER_TO_UINT(g_hash_table_lookup(m->page_frag->live,
							   GSIZE_TO_POINTER(addr))) - 1;
}

int page_frag_free(struct mm_ctx *ctx, struct machine *m, frag_addr_t addr)
{
	pfn_t block = page_frag_block(m, addr);

	/* The live set, not the block's count, decides: a fragment freed
	 * twice would otherwise drop another caller's reference. */
	if (block == PFN_NONE)
		return -1;
	g_hash_table_remove(m->page_frag->live, GSIZE_TO_POINTER(addr));
	frag_put(ctx, m, block);
	m->page_frag->freed++;
	return 0;
}

/* Every block held is an allocated block of the cache's, and its count is
 * its live fragments plus one if a CPU's cache holds it. */
char *page_frag_check(struct machine *m)
{
	struct page_frag_state *st = m->page_frag;
	GHashTable *counted;
	GHashTableIter it;
	gpointer key, n;
	char *err = NULL;

	if (!st)
		return NULL;
	counted = g_hash_table_new(NULL, NULL);
	g_hash_table_iter_init(&it, st->live);
	while (g_hash_table_iter_next(&it, &key, &n)) {
		gpointer block = GUINT_TO_POINTER(GPOINTER_TO_UINT(n) - 1);

		g_hash_table_insert(counted, block,
				    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(counted, block)) + 1));
	}
	for (unsigned c = 0; c < m->nr_cpus; c++) {
		gpointer block = GUINT_TO_POINTER(st->cpu[c].pfn);

		if (st->cpu[c].pfn != PFN_NONE)
			g_hash_table_insert(counted, block,
					    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(counted, block)) + 1));
	}
	g_hash_table_iter_init(&it, st->refs);
	while (!err && g_hash_table_iter_next(&it, &key, &n)) {
		pfn_t pfn = GPOINTER_TO_UINT(key);
		unsigned order = page_order(&m->mm, pfn);

		if (page_kind(&m->mm, pfn) != PG_KIND_ALLOC || page_owner(m, pfn) != page_frag_owner() ||
		    (order != 0 && order != PAGE_FRAG_CACHE_MAX_ORDER))
			err = g_strdup_printf("fragment block %lu is not the cache's", (unsigned long)pfn);
		else if (GPOINTER_TO_UINT(n) != GPOINTER_TO_UINT(g_hash_table_lookup(counted, key)))
			err = g_strdup_printf("fragment block %lu counts %u references, holds %u",
					      (unsigned long)pfn, GPOINTER_TO_UINT(n),
					      GPOINTER_TO_UINT(g_hash_table_lookup(counted, key)));
	}
	if (!err && g_hash_table_size(counted) != g_hash_table_size(st->refs))
		err = g_strdup_printf("%u fragment blocks known, %u held", g_hash_table_size(st->refs),
				      g_hash_table_size(counted));
	g_hash_table_destroy(counted);
	return err;
}
