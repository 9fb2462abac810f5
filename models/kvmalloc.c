#include "kvmalloc.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "pcp.h"
#include "superpageblock.h"

#include <glib.h>

/* SLUB serves up to two pages from slab caches; larger kmalloc goes to the
 * page allocator (KMALLOC_MAX_CACHE_SIZE). */
#define KMALLOC_MAX_CACHE_SIZE (2 * PAGE_SIZE)
#define KVMALLOC_SOURCE OWNER_KERNEL_MODEL_ID

struct kvmalloc_stats {
	unsigned long taint_kmalloc, taint_vmalloc;
};

void kvmalloc_init(struct machine *m)
{
	m->kvmalloc = g_new0(struct kvmalloc_stats, 1);
}

void kvmalloc_destroy(struct machine *m)
{
	g_free(m->kvmalloc);
	m->kvmalloc = NULL;
}

unsigned long kvmalloc_tainted_by_kmalloc(const struct machine *m)
{
	return m->kvmalloc->taint_kmalloc;
}

unsigned long kvmalloc_tainted_by_vmalloc(const struct machine *m)
{
	return m->kvmalloc->taint_vmalloc;
}

static unsigned get_order(size_t size)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* kmalloc_gfp_adjust(): larger requests may not be disruptive: no direct
 * reclaim (kswapd still wakes), no warning; commit d307be85 adds NORETRY since
 * vmalloc is the fallback. */
static gfp_t kmalloc_gfp_adjust(gfp_t flags, size_t size, bool noretry)
{
	if (size > PAGE_SIZE) {
		flags |= __GFP_NOWARN;
		if (!(flags & __GFP_RETRY_MAYFAIL)) {
			flags &= ~__GFP_DIRECT_RECLAIM;
			if (noretry)
				flags |= __GFP_NORETRY;
		}
	}
	return flags;
}

/* Superpageblocks tainted now (0 without policy spb). */
static unsigned long tainted_spbs(struct machine *m)
{
	struct spb_counts c;

	spb_count_states(m, &c);
	return c.tainted;
}

uint32_t kvmalloc_owner(void)
{
	return make_owner(OWNER_KIND_KERNEL, KVMALLOC_SOURCE);
}

int kvmalloc_node(struct mm_ctx *ctx, struct machine *m, size_t size, int nid, bool noretry,
		  struct kvmalloc_area *out)
{
	uint32_t owner = kvmalloc_owner();
	unsigned long tainted = tainted_spbs(m);
	int rc = 0;

	*out = (struct kvmalloc_area){ .block = PFN_NONE };
	if (size > KMALLOC_MAX_CACHE_SIZE && get_order(size) <= MAX_PAGE_ORDER) {
		out->order = get_order(size);
		out->block = __alloc_pages(ctx, m, kmalloc_gfp_adjust(GFP_KERNEL, size, noretry),
					   out->order, nid, owner, 0);
		unsigned long now = tainted_spbs(m);

		if (now > tainted)
			m->kvmalloc->taint_kmalloc += now - tainted;
		tainted = now;
		if (out->block != PFN_NONE)
			return 0;
	}
	/* __vmalloc_node(): order-0 pages one by one, with reclaim. */
	out->nr_pages = (unsigned)((size + PAGE_SIZE - 1) / PAGE_SIZE);
	out->pages = g_new(pfn_t, out->nr_pages);
	for (unsigned i = 0; i < out->nr_pages; i++) {
		out->pages[i] = __alloc_pages(ctx, m, GFP_KERNEL, 0, nid, owner, i);
		if (out->pages[i] == PFN_NONE) {
			out->nr_pages = i;
			kvfree(ctx, m, out);
			rc = -1;
			break;
		}
	}
	unsigned long now = tainted_spbs(m);

	if (now > tainted)
		m->kvmalloc->taint_vmalloc += now - tainted;
	return rc;
}

void kvfree(struct mm_ctx *ctx, struct machine *m, struct kvmalloc_area *a)
{
	if (a->block != PFN_NONE)
		__free_pages(ctx, m, a->block);
	if (a->nr_pages)
		free_unref_folios(ctx, m, a->pages, a->nr_pages);
	g_free(a->pages);
	*a = (struct kvmalloc_area){ .block = PFN_NONE };
}
