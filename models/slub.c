#include "slub.h"
#include "mm_space.h"
#include "page_alloc.h"

#include <string.h>

/* Slab pages are kernel pages of source SLUB_SOURCE + cache index; the
 * offset is the slab id. */
#define SLUB_SOURCE 0x0ff00000u
#define MAX_CACHES (1u << 16)
#define MIN_PARTIAL 5
#define MAX_PARTIAL 10

enum slab_place {
	SLAB_FULL,          /* every object in use: on no list */
	SLAB_CPU,           /* a CPU's slab (frozen) */
	SLAB_CPU_PARTIAL,   /* on a CPU's partial list (frozen) */
	SLAB_NODE_PARTIAL,  /* on its node's partial list */
};

struct slab {
	GList link;             /* on a partial list; data is the slab */
	pfn_t pfn;
	uint32_t id;
	uint16_t objects, inuse;
	uint8_t order;
	uint8_t place;
	uint16_t nid;
	uint64_t map[];         /* bit set: object in use */
};

struct kmem_cache_cpu {
	struct slab *slab;
	GQueue partial;         /* head: the next slab to use, as slub_percpu_partial */
};

struct kmem_cache_node {
	GQueue partial;
	unsigned long nr_slabs, total_objects;
};

struct kmem_cache {
	char *name;
	unsigned index;
	unsigned size, flags;
	unsigned order, objects;          /* s->oo */
	unsigned min_order, min_objects;  /* s->min */
	unsigned min_partial, cpu_partial_slabs;
	struct kmem_cache_cpu *cpu_slab;
	struct kmem_cache_node *node;
	GPtrArray *slabs;                 /* by id, NULL for a free id */
	GArray *free_ids;
	unsigned long active_objs, allocs, frees, order_fallbacks, slabs_freed, pages_freed;
};

struct slub {
	GPtrArray *caches;
	GHashTable *by_name;
};

static unsigned fls(unsigned x)
{
	return x ? 32u - (unsigned)__builtin_clz(x) : 0;
}

static unsigned get_order(unsigned long size)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* calc_slab_order(): the lowest order from min_order whose leftover is
 * at most 1/fract of the slab. */
static unsigned calc_slab_order(unsigned size, unsigned min_order, unsigned max_order,
				unsigned fract)
{
	unsigned order;

	for (order = min_order; order <= max_order; order++) {
		unsigned long slab_size = PAGE_SIZE << order;

		if (slab_size % size <= slab_size / fract)
			break;
	}
	return order;
}

unsigned calculate_order(unsigned size, unsigned nr_cpus)
{
	unsigned min_objects = 4 * (fls(nr_cpus) + 1);
	unsigned max_objects = MAX(order_objects(SLUB_MAX_ORDER, size), 1u);
	unsigned min_order;

	min_objects = MIN(min_objects, max_objects);
	min_order = get_order((unsigned long)min_objects * size);
	if (order_objects(min_order, size) > MAX_OBJS_PER_PAGE)
		return get_order((unsigned long)size * MAX_OBJS_PER_PAGE) - 1;
	/* Waste of at most 1/16, then 1/8, 1/4, 1/2 of the slab. */
	for (unsigned fraction = 16; fraction > 1; fraction /= 2) {
		unsigned order = calc_slab_order(size, min_order, SLUB_MAX_ORDER, fraction);

		if (order <= SLUB_MAX_ORDER)
			return order;
	}
	return get_order(size);
}

/* set_cpu_partial(): objects kept on a CPU's partial slabs by object size,
 * as slabs (two objects free per slab on average). */
static unsigned cpu_partial_slabs(unsigned size, unsigned objects)
{
	unsigned nr_objects = size >= PAGE_SIZE ? 6 : size >= 1024 ? 24 : size >= 256 ? 52 : 120;

	return (nr_objects * 2 + objects - 1) / objects;
}

static struct slub *slub_get(struct machine *m)
{
	if (!m->slub) {
		m->slub = g_new0(struct slub, 1);
		m->slub->caches = g_ptr_array_new();
		m->slub->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	}
	return m->slub;
}

struct kmem_cache *kmem_cache_find(struct machine *m, const char *name)
{
	return m->slub ? g_hash_table_lookup(m->slub->by_name, name) : NULL;
}

struct kmem_cache *kmem_cache_create(struct machine *m, const char *name, unsigned size,
				     unsigned align, unsigned flags)
{
	struct kmem_cache *s = kmem_cache_find(m, name);

	if (s)
		return s;
	if (align > 1)
		size = (size + align - 1) / align * align;
	if (!size || get_order(size) > MAX_PAGE_ORDER)
		return NULL;
	struct slub *slub = slub_get(m);

	if (slub->caches->len >= MAX_CACHES)
		return NULL;
	s = g_new0(struct kmem_cache, 1);
	s->name = g_strdup(name);
	s->index = slub->caches->len;
	s->size = size;
	s->flags = flags;
	s->order = calculate_order(size, m->nr_cpus);
	s->objects = order_objects(s->order, size);
	s->min_order = get_order(size);
	s->min_objects = order_objects(s->min_order, size);
	/* ilog2(size) / 2, kept between MIN_PARTIAL and MAX_PARTIAL. */
	s->min_partial = CLAMP((fls(size) - 1) / 2, MIN_PARTIAL, MAX_PARTIAL);
	s->cpu_partial_slabs = cpu_partial_slabs(size, s->objects);
	s->cpu_slab = g_new0(struct kmem_cache_cpu, m->nr_cpus);
	s->node = g_new0(struct kmem_cache_node, m->nr_nodes);
	s->slabs = g_ptr_array_new();
	s->free_ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	g_ptr_array_add(slub->caches, s);
	g_hash_table_insert(slub->by_name, s->name, s);
	return s;
}

/* Object sizes as the reference /proc/slabinfo shows them
 * (docs/slabinfo-reference.txt: Linux 6.18, x86-64); kmalloc caches are
 * aligned to their size up to a page, as the kernel's power-of-two ones. */
static const struct {
	const char *name;
	unsigned size, align, flags;
} standard_caches[] = {
	{ "kmalloc-8", 8, 8, 0 }, { "kmalloc-16", 16, 16, 0 }, { "kmalloc-32", 32, 32, 0 },
	{ "kmalloc-64", 64, 64, 0 }, { "kmalloc-96", 96, 8, 0 }, { "kmalloc-128", 128, 128, 0 },
	{ "kmalloc-192", 192, 8, 0 }, { "kmalloc-256", 256, 256, 0 },
	{ "kmalloc-512", 512, 512, 0 }, { "kmalloc-1k", 1024, 1024, 0 },
	{ "kmalloc-2k", 2048, 2048, 0 }, { "kmalloc-4k", 4096, 4096, 0 },
	{ "kmalloc-8k", 8192, 4096, 0 },
	{ "dentry", 192, 8, SLAB_RECLAIM_ACCOUNT },
	{ "ext4_inode_cache", 1128, 8, SLAB_RECLAIM_ACCOUNT },
	{ "radix_tree_node", 584, 8, SLAB_RECLAIM_ACCOUNT },
	{ "task_struct", 5824, 64, 0 }, { "mm_struct", 1600, 64, 0 },
	{ "signal_cache", 1152, 64, 0 }, { "sighand_cache", 2112, 64, 0 },
	{ "files_cache", 704, 64, 0 }, { "fs_cache", 64, 8, 0 }, { "pid", 192, 64, 0 },
	{ "vm_area_struct", 192, 64, 0 }, { "anon_vma", 104, 8, 0 },
	{ "anon_vma_chain", 64, 8, 0 }, { "vmap_area", 72, 8, 0 },
	{ "skbuff_head_cache", 256, 64, 0 }, { "skbuff_small_head", 576, 64, 0 },
};

void kmem_cache_init(struct machine *m)
{
	for (size_t i = 0; i < G_N_ELEMENTS(standard_caches); i++)
		kmem_cache_create(m, standard_caches[i].name, standard_caches[i].size,
				  standard_caches[i].align, standard_caches[i].flags);
}

slab_obj_t kmalloc(struct mm_ctx *ctx, struct machine *m, size_t size, gfp_t gfp)
{
	static const char *const names[] = {
		"kmalloc-8", "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-96", "kmalloc-128",
		"kmalloc-192", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k",
		"kmalloc-4k", "kmalloc-8k",
	};
	static const unsigned sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048,
					  4096, 8192 };

	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++)
		if (size <= sizes[i]) {
			struct kmem_cache *s = kmem_cache_find(m, names[i]);

			return s ? kmem_cache_alloc(ctx, m, s, gfp) : SLAB_OBJ_NONE;
		}
	return SLAB_OBJ_NONE;
}

static void kmem_cache_destroy(struct kmem_cache *s)
{
	for (unsigned i = 0; i < s->slabs->len; i++)
		g_free(g_ptr_array_index(s->slabs, i));
	g_ptr_array_free(s->slabs, TRUE);
	g_array_free(s->free_ids, TRUE);
	g_free(s->cpu_slab);
	g_free(s->node);
	g_free(s->name);
	g_free(s);
}

void slub_destroy(struct machine *m)
{
	if (!m->slub)
		return;
	for (unsigned i = 0; i < m->slub->caches->len; i++)
		kmem_cache_destroy(g_ptr_array_index(m->slub->caches, i));
	g_ptr_array_free(m->slub->caches, TRUE);
	g_hash_table_destroy(m->slub->by_name);
	g_free(m->slub);
	m->slub = NULL;
}

struct kmem_cache *kmem_cache_nth(struct machine *m, unsigned i)
{
	return m->slub && i < m->slub->caches->len ? g_ptr_array_index(m->slub->caches, i) : NULL;
}

static slab_obj_t make_obj(const struct kmem_cache *s, const struct slab *slab, unsigned idx)
{
	return (slab_obj_t)s->index << 48 | (slab_obj_t)slab->id << 16 | idx;
}

struct kmem_cache *obj_cache(struct machine *m, slab_obj_t obj)
{
	return obj == SLAB_OBJ_NONE ? NULL : kmem_cache_nth(m, (unsigned)(obj >> 48));
}

static bool obj_in_use(const struct slab *slab, unsigned idx)
{
	return idx < slab->objects && (slab->map[idx / 64] >> (idx % 64) & 1);
}

/* The slab of an object in use, with its index. */
static struct slab *obj_slab(struct kmem_cache *s, slab_obj_t obj, unsigned *idx)
{
	uint64_t id = obj >> 16 & 0xffffffffu;
	struct slab *slab = id < s->slabs->len ? g_ptr_array_index(s->slabs, id) : NULL;

	*idx = (unsigned)(obj & 0xffff);
	return slab && obj_in_use(slab, *idx) ? slab : NULL;
}

pfn_t obj_slab_pfn(struct machine *m, slab_obj_t obj)
{
	struct kmem_cache *s = obj_cache(m, obj);
	unsigned idx;
	struct slab *slab = s ? obj_slab(s, obj, &idx) : NULL;

	return slab ? slab->pfn : PFN_NONE;
}

bool slab_owner(const struct machine *m, uint32_t owner)
{
	return m->slub && owner_kind(owner) == OWNER_KIND_KERNEL &&
	       (owner & OWNER_ID_MASK) >= SLUB_SOURCE &&
	       (owner & OWNER_ID_MASK) - SLUB_SOURCE < m->slub->caches->len;
}

bool pfn_is_slab(struct machine *m, pfn_t pfn)
{
	return page_kind(&m->mm, pfn) == PG_KIND_ALLOC && slab_owner(m, page_owner(m, pfn));
}

static void add_partial(struct kmem_cache *s, struct slab *slab)
{
	slab->place = SLAB_NODE_PARTIAL;
	g_queue_push_tail_link(&s->node[slab->nid].partial, &slab->link);
}

static void remove_partial(struct kmem_cache *s, struct slab *slab)
{
	g_queue_unlink(&s->node[slab->nid].partial, &slab->link);
}

/* allocate_slab(): the preferred order fails fast under pressure, so the
 * minimum order is tried next with the caller's flags. */
static struct slab *allocate_slab(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
				  gfp_t flags, int nid)
{
	unsigned order = s->order, objects = s->objects;
	gfp_t alloc_gfp = (flags | __GFP_NOWARN | __GFP_NORETRY);
	uint32_t id;

	if (s->flags & SLAB_RECLAIM_ACCOUNT)
		flags |= __GFP_RECLAIMABLE, alloc_gfp |= __GFP_RECLAIMABLE;
	if ((alloc_gfp & __GFP_DIRECT_RECLAIM) && order > s->min_order)
		alloc_gfp = (alloc_gfp | __GFP_NOMEMALLOC) & ~__GFP_RECLAIM;
	/* The id is taken before the page allocator may let others run. */
	if (s->free_ids->len) {
		id = g_array_index(s->free_ids, uint32_t, s->free_ids->len - 1);
		g_array_set_size(s->free_ids, s->free_ids->len - 1);
	} else {
		id = s->slabs->len;
		g_ptr_array_add(s->slabs, NULL);
	}
	uint32_t owner = make_owner(OWNER_KIND_KERNEL, SLUB_SOURCE + s->index);
	pfn_t pfn = __alloc_pages(ctx, m, alloc_gfp, order, nid, owner, id);

	if (pfn == PFN_NONE && order > s->min_order) {
		order = s->min_order;
		objects = s->min_objects;
		pfn = __alloc_pages(ctx, m, flags, order, nid, owner, id);
		if (pfn != PFN_NONE)
			s->order_fallbacks++;
	}
	if (pfn == PFN_NONE) {
		g_array_append_val(s->free_ids, id);
		return NULL;
	}
	struct slab *slab = g_malloc0(sizeof(*slab) + (objects + 63) / 64 * sizeof(uint64_t));

	slab->link.data = slab;
	slab->pfn = pfn;
	slab->id = id;
	slab->objects = (uint16_t)objects;
	slab->order = (uint8_t)order;
	slab->nid = (uint16_t)pfn_zone(m, pfn)->node;
	g_ptr_array_index(s->slabs, id) = slab;
	s->node[slab->nid].nr_slabs++;
	s->node[slab->nid].total_objects += objects;
	return slab;
}

/* discard_slab(): the pages go back to the page allocator. */
static void discard_slab(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			 struct slab *slab)
{
	s->node[slab->nid].nr_slabs--;
	s->node[slab->nid].total_objects -= slab->objects;
	g_ptr_array_index(s->slabs, slab->id) = NULL;
	g_array_append_val(s->free_ids, slab->id);
	s->slabs_freed++;
	s->pages_freed += 1ul << slab->order;
	__free_pages(ctx, m, slab->pfn);
	g_free(slab);
}

/* __put_partials(): a CPU's partial slabs go to their nodes' lists; empty
 * ones are discarded while their node keeps min_partial slabs. */
static void put_partials(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			 GQueue *q)
{
	GList *l;

	while ((l = g_queue_pop_head_link(q))) {
		struct slab *slab = l->data;

		if (!slab->inuse && s->node[slab->nid].partial.length >= s->min_partial)
			discard_slab(ctx, m, s, slab);
		else
			add_partial(s, slab);
	}
}

/* put_cpu_partial(): a slab freed into (full before) joins the freeing
 * CPU's partial list at its head; a list already holding
 * cpu_partial_slabs goes to the nodes first (drain). */
static void put_cpu_partial(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			    struct slab *slab, bool drain)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[ctx->cpu];

	if (drain && c->partial.length >= s->cpu_partial_slabs)
		put_partials(ctx, m, s, &c->partial);
	slab->place = SLAB_CPU_PARTIAL;
	g_queue_push_head_link(&c->partial, &slab->link);
}

/* get_partial_node(): the first partial slab of the node becomes the CPU
 * slab, and more fill the CPU's partial list to half its size. */
static struct slab *get_partial_node(struct mm_ctx *ctx, struct machine *m,
				     struct kmem_cache *s, int nid)
{
	GQueue *q = &s->node[nid].partial;
	struct slab *first = NULL;
	unsigned moved = 0;
	GList *l;

	while ((l = q->head)) {
		struct slab *slab = l->data;

		remove_partial(s, slab);
		if (!first) {
			first = slab;
		} else {
			put_cpu_partial(ctx, m, s, slab, false);
			moved++;
		}
		if (moved > s->cpu_partial_slabs / 2)
			break;
	}
	return first;
}

/* deactivate_slab(): a slab the CPU stops using goes on no list if full,
 * is discarded if empty while its node keeps min_partial slabs, else
 * joins its node's partial list. */
static void deactivate_slab(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			    struct slab *slab)
{
	if (slab->inuse == slab->objects)
		slab->place = SLAB_FULL;
	else if (!slab->inuse && s->node[slab->nid].partial.length >= s->min_partial)
		discard_slab(ctx, m, s, slab);
	else
		add_partial(s, slab);
}

static unsigned take_object(struct kmem_cache *s, struct slab *slab)
{
	for (unsigned w = 0;; w++) {
		if (slab->map[w] == UINT64_MAX)
			continue;
		unsigned idx = w * 64 + (unsigned)__builtin_ctzll(~slab->map[w]);

		slab->map[w] |= 1ull << (idx % 64);
		slab->inuse++;
		s->active_objs++;
		s->allocs++;
		return idx;
	}
}

slab_obj_t kmem_cache_alloc(struct mm_ctx *ctx, struct machine *m, struct kmem_cache *s,
			    gfp_t gfp)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[ctx->cpu];
	struct slab *slab = c->slab;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);

	if (!slab || slab->inuse == slab->objects) {
		if (slab)
			deactivate_slab(ctx, m, s, slab);
		c->slab = NULL;
		GList *l = g_queue_pop_head_link(&c->partial);

		slab = l ? l->data : get_partial_node(ctx, m, s, nid);
		if (!slab)
			slab = allocate_slab(ctx, m, s, gfp, nid);
		if (!slab)
			return SLAB_OBJ_NONE;
		/* Another thread of this CPU got it a slab while the page
		 * allocator ran: that one is given up. */
		if (c->slab)
			deactivate_slab(ctx, m, s, c->slab);
		slab->place = SLAB_CPU;
		c->slab = slab;
	}
	return make_obj(s, slab, take_object(s, slab));
}

int kmem_cache_free(struct mm_ctx *ctx, struct machine *m, slab_obj_t obj)
{
	struct kmem_cache *s = obj_cache(m, obj);
	unsigned idx;
	struct slab *slab = s ? obj_slab(s, obj, &idx) : NULL;

	if (!slab)
		return -1;
	bool was_full = slab->inuse == slab->objects;

	slab->map[idx / 64] &= ~(1ull << (idx % 64));
	slab->inuse--;
	s->active_objs--;
	s->frees++;
	switch (slab->place) {
	case SLAB_FULL:
		if (was_full)
			put_cpu_partial(ctx, m, s, slab, true);
		break;
	case SLAB_NODE_PARTIAL:
		if (!slab->inuse && s->node[slab->nid].partial.length >= s->min_partial) {
			remove_partial(s, slab);
			discard_slab(ctx, m, s, slab);
		}
		break;
	default:    /* frozen: its CPU keeps it */
		break;
	}
	return 0;
}

void kmem_cache_info(const struct kmem_cache *s, struct slabinfo *out)
{
	*out = (struct slabinfo){
		.name = s->name, .active_objs = s->active_objs, .objsize = s->size,
		.objperslab = s->objects, .pagesperslab = 1u << s->order,
		.allocs = s->allocs, .frees = s->frees, .order_fallbacks = s->order_fallbacks,
		.slabs_freed = s->slabs_freed, .min_partial = s->min_partial,
		.cpu_partial_slabs = s->cpu_partial_slabs,
		.reclaimable = s->flags & SLAB_RECLAIM_ACCOUNT,
	};
	for (unsigned i = 0; i < s->slabs->len; i++) {
		const struct slab *slab = g_ptr_array_index(s->slabs, i);

		if (!slab)
			continue;
		out->num_objs += slab->objects;
		out->num_slabs++;
	}
	/* SLUB counts every slab as active (slabinfo shows no inactive ones). */
	out->active_slabs = out->num_slabs;
}

void slab_sparse_count(struct machine *m, unsigned permille, struct slab_sparse *out)
{
	struct kmem_cache *s;

	*out = (struct slab_sparse){ 0 };
	for (unsigned c = 0; (s = kmem_cache_nth(m, c)); c++) {
		out->pages_freed += s->pages_freed;
		for (unsigned i = 0; i < s->slabs->len; i++) {
			const struct slab *slab = g_ptr_array_index(s->slabs, i);

			if (!slab)
				continue;
			out->slabs++;
			out->pages += 1ul << slab->order;
			if ((unsigned long)slab->inuse * 1000 < (unsigned long)permille * slab->objects) {
				out->sparse_slabs++;
				out->sparse_pages += 1ul << slab->order;
			}
		}
	}
}

void proc_slabinfo(struct machine *m, GString *out)
{
	struct kmem_cache *s;

	g_string_append(out, "slabinfo - version: 2.1\n# name            <active_objs> "
			"<num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> "
			"<batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> "
			"<sharedavail>\n");
	/* The kernel lists the newest cache first. */
	for (unsigned c = m->slub ? m->slub->caches->len : 0; c-- > 0;) {
		struct slabinfo si;

		s = kmem_cache_nth(m, c);
		kmem_cache_info(s, &si);
		g_string_append_printf(out, "%-17s %6lu %6lu %6u %4u %4u : tunables %4u %4u %4u : "
				       "slabdata %6lu %6lu %6u\n", si.name, si.active_objs,
				       si.num_objs, si.objsize, si.objperslab, si.pagesperslab, 0u, 0u,
				       0u, si.active_slabs, si.num_slabs, 0u);
	}
}

char *slub_check(struct machine *m)
{
	struct kmem_cache *s;

	for (unsigned c = 0; (s = kmem_cache_nth(m, c)); c++) {
		unsigned long inuse = 0;

		for (unsigned i = 0; i < s->slabs->len; i++) {
			const struct slab *slab = g_ptr_array_index(s->slabs, i);
			unsigned bits = 0;

			if (!slab)
				continue;
			for (unsigned w = 0; w < (slab->objects + 63u) / 64; w++)
				bits += (unsigned)__builtin_popcountll(slab->map[w]);
			if (bits != slab->inuse)
				return g_strdup_printf("%s: slab %u has %u objects marked, %u in use",
						       s->name, slab->id, bits, slab->inuse);
			if (page_kind(&m->mm, slab->pfn) != PG_KIND_ALLOC ||
			    page_owner_offset(m, slab->pfn) != slab->id)
				return g_strdup_printf("%s: slab %u's page %lu is not its own",
						       s->name, slab->id, (unsigned long)slab->pfn);
			inuse += slab->inuse;
		}
		if (inuse != s->active_objs || s->allocs - s->frees != s->active_objs)
			return g_strdup_printf("%s: %lu objects in slabs, %lu active, %lu allocated "
					       "and %lu freed", s->name, inuse, s->active_objs,
					       s->allocs, s->frees);
	}
	return NULL;
}
