/* Page migration (mm/migrate.c).  The kernel's steps for each page, in its
 * order: isolate it from its LRU (the caller), allocate the destination
 * (get_new_folio), unmap it (try_to_migrate: every PTE becomes a migration
 * entry), flush the TLBs of the address spaces it was mapped in (once per
 * batch), move the mapping (folio_migrate_mapping: fails on a page with
 * extra references, such as a pin), copy, remap (remove_migration_ptes),
 * put the new page on the LRU and free the old one; failures are remapped
 * to the old page and put back.
 *
 * The model makes the unmap, mapping move and remap one step with no engine
 * call inside, so no other simulated thread sees a half-moved page (the
 * kernel makes them wait on the migration entry), and charges each step's
 * cost around it. */
#include "migrate.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "page_cache.h"

#include <glib.h>

bool folio_test_lru(struct machine *m, pfn_t pfn)
{
	struct mm_struct *mm;
	uint64_t addr;

	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC ||
	    page_order(&m->mm, pfn) != 0)
		return false;
	switch (owner_kind(page_owner(m, pfn))) {
	case OWNER_KIND_ANON:
		return rmap_walk_anon(m, pfn, &mm, &addr);
	case OWNER_KIND_FILE:
		return page_cache_on_lru(m, pfn);
	default:
		return false;
	}
}

bool isolate_migratepage(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	if (!folio_test_lru(m, pfn))
		return false;
	mm_charge(ctx, COST_MIGRATE_ISOLATE, 1);
	return true;
}

static void put_dst(struct mm_ctx *ctx, struct machine *m, pfn_t dst, free_folio_t put_new_folio,
		    void *private)
{
	if (put_new_folio)
		put_new_folio(ctx, m, dst, private);
	else
		__free_pages(ctx, m, dst);
}

/* The address spaces whose TLBs the current batch must flush, by pid. */
static void flush_add(GArray *pids, unsigned pid)
{
	for (unsigned i = 0; i < pids->len; i++)
		if (g_array_index(pids, unsigned, i) == pid)
			return;
	g_array_append_val(pids, pid);
}

/* try_to_unmap_flush(): each address space's CPUs flush; one that exited
 * meanwhile needs nothing. */
static void flush_batch(struct mm_ctx *ctx, struct machine *m, GArray *pids)
{
	for (unsigned i = 0; i < pids->len; i++) {
		struct mm_struct *mm = mm_find(m, g_array_index(pids, unsigned, i));

		if (mm)
			mm_charge(ctx, COST_TLB_SHOOTDOWN, MAX(1u, mm_cpumask_weight(mm)));
	}
	g_array_set_size(pids, 0);
}

/* migrate_folio_unmap() and migrate_folio_move() for one page. */
static enum migrate_status migrate_one(struct mm_ctx *ctx, struct machine *m, pfn_t src,
				       new_folio_t get_new_folio, free_folio_t put_new_folio,
				       void *private, GArray *flush)
{
	struct mm_struct *mm = NULL;
	uint64_t addr = 0;
	uint32_t owner, offset;
	pfn_t dst;
	bool anon;

	if (src >= m->mm.nr_frames || page_kind(&m->mm, src) != PG_KIND_ALLOC)
		return MIGRATE_MOVED;   /* freed by its owner since isolation: nothing to move */
	if (!folio_test_lru(m, src))
		return MIGRATE_NOT_MOVABLE;
	owner = page_owner(m, src);
	offset = page_owner_offset(m, src);
	anon = owner_kind(owner) == OWNER_KIND_ANON;
	dst = get_new_folio(ctx, m, src, private);
	if (dst == PFN_NONE)
		return MIGRATE_NO_TARGET;
	g_assert(page_kind(&m->mm, dst) == PG_KIND_ALLOC && page_order(&m->mm, dst) == 0);
	/* The callback may have let other threads run: look again.  From here
	 * to the switch there is no engine call. */
	if (page_kind(&m->mm, src) != PG_KIND_ALLOC || page_owner(m, src) != owner ||
	    page_owner_offset(m, src) != offset || (anon && !rmap_walk_anon(m, src, &mm, &addr))) {
		put_dst(ctx, m, dst, put_new_folio, private);
		return MIGRATE_MOVED;
	}
	if (anon && (m->mm.aux[src] & PG_pinned)) {
		/* Unmapped, refused by folio_migrate_mapping on every retry,
		 * then remapped to itself. */
		flush_add(flush, mm_pid(mm));
		mm_charge(ctx, COST_MIGRATE_UNMAP, 1);
		mm_charge(ctx, COST_MIGRATE_REMAP, 1);
		put_dst(ctx, m, dst, put_new_folio, private);
		return MIGRATE_PINNED;
	}
	if (anon) {
		rmap_replace_anon(mm, addr, src, dst);
		flush_add(flush, mm_pid(mm));
	} else if (!page_cache_replace(m, src, dst)) {
		put_dst(ctx, m, dst, put_new_folio, private);
		return MIGRATE_MOVED;
	}
	*block_word_a(&m->mm, dst, 0) = owner;
	*block_word_b(&m->mm, dst, 0) = offset;
	if (anon)
		mm_charge(ctx, COST_MIGRATE_UNMAP, 1);
	if (topology_node_to_socket(&m->topo, pfn_zone(m, src)->node) ==
	    topology_node_to_socket(&m->topo, pfn_zone(m, dst)->node))
		mm_charge(ctx, COST_MIGRATE_COPY, 1);
	else
		mm_charge(ctx, COST_MIGRATE_COPY_REMOTE, 1);
	mm_charge(ctx, COST_MIGRATE_REMAP, 1);
	mm_charge(ctx, COST_MIGRATE_ISOLATE, 1);        /* folio_add_lru(dst) */
	__free_pages(ctx, m, src);
	return MIGRATE_MOVED;
}

int migrate_pages(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr,
		  new_folio_t get_new_folio, free_folio_t put_new_folio, void *private,
		  enum migrate_mode mode, enum migrate_status *status, struct migrate_stats *stats)
{
	enum migrate_status *st = status ? status : g_new(enum migrate_status, nr);
	GArray *flush = g_array_new(FALSE, FALSE, sizeof(unsigned));
	struct migrate_stats s = { 0 };
	bool nomem = false;
	unsigned not_moved = 0;

	for (unsigned start = 0; start < nr; start += NR_MAX_BATCHED_MIGRATION) {
		unsigned end = MIN(nr, start + NR_MAX_BATCHED_MIGRATION);

		for (unsigned i = start; i < end; i++) {
			st[i] = nomem ? MIGRATE_UNTRIED :
			     migrate_one(ctx, m, pfns[i], get_new_folio, put_new_folio, private, flush);
			nomem |= st[i] == MIGRATE_NO_TARGET;
		}
		flush_batch(ctx, m, flush);
		/* migrate_pages_sync(): what the batch could not move is tried
		 * again alone, with its own unmap and flush. */
		for (unsigned i = start; mode != MIGRATE_ASYNC && i < end && !nomem; i++) {
			if (st[i] != MIGRATE_PINNED)
				continue;
			st[i] = migrate_one(ctx, m, pfns[i], get_new_folio, put_new_folio, private, flush);
			nomem = st[i] == MIGRATE_NO_TARGET;
			flush_batch(ctx, m, flush);
		}
	}
	for (unsigned i = 0; i < nr; i++) {
		s.nr_succeeded += st[i] == MIGRATE_MOVED;
		s.nr_failed_pages += st[i] == MIGRATE_PINNED || st[i] == MIGRATE_NO_TARGET;
		s.nr_pinned += st[i] == MIGRATE_PINNED;
		s.nr_not_movable += st[i] == MIGRATE_NOT_MOVABLE;
		s.nr_untried += st[i] == MIGRATE_UNTRIED;
		not_moved += st[i] != MIGRATE_MOVED;
	}
	m->vm_events[PGMIGRATE_SUCCESS] += s.nr_succeeded;
	m->vm_events[PGMIGRATE_FAIL] += s.nr_failed_pages;
	if (stats) {
		stats->nr_succeeded += s.nr_succeeded;
		stats->nr_failed_pages += s.nr_failed_pages;
		stats->nr_pinned += s.nr_pinned;
		stats->nr_not_movable += s.nr_not_movable;
		stats->nr_untried += s.nr_untried;
	}
	g_array_free(flush, TRUE);
	if (!status)
		g_free(st);
	return nomem ? -MM_ENOMEM : (int)not_moved;
}

void putback_movable_pages(struct mm_ctx *ctx, const enum migrate_status *status, unsigned nr)
{
	unsigned long n = 0;

	for (unsigned i = 0; i < nr; i++)
		n += status[i] == MIGRATE_PINNED || status[i] == MIGRATE_NO_TARGET ||
		     status[i] == MIGRATE_UNTRIED;
	if (n)
		mm_charge(ctx, COST_MIGRATE_ISOLATE, n);
}

pfn_t alloc_migration_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	int nid = *(const int *)private;
	pfn_t dst = __alloc_pages(ctx, m, GFP_HIGHUSER_MOVABLE, page_order(&m->mm, src), nid,
				  OWNER_NONE, 0);

	/* __GFP_THISNODE, which the model's allocator lacks: a page that came
	 * from another node is given back and the target fails. */
	if (dst != PFN_NONE && pfn_zone(m, dst)->node != (unsigned)nid) {
		__free_pages(ctx, m, dst);
		return PFN_NONE;
	}
	return dst;
}

int migrate_pages_to_node(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr,
			  int nid, enum migrate_status *status, struct migrate_stats *stats)
{
	enum migrate_status *st = status ? status : g_new(enum migrate_status, nr);
	enum migrate_status *isolated_st = g_new(enum migrate_status, nr);
	pfn_t *isolated = g_new(pfn_t, nr);
	unsigned *at = g_new(unsigned, nr);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	unsigned n = 0, refused = 0;
	int ret;

	for (unsigned i = 0; i < nr; i++) {
		if (!g_hash_table_add(seen, GUINT_TO_POINTER(pfns[i])) ||
		    !isolate_migratepage(ctx, m, pfns[i])) {
			st[i] = MIGRATE_NOT_MOVABLE;
			refused++;
			continue;
		}
		at[n] = i;
		isolated[n++] = pfns[i];
	}
	ret = migrate_pages(ctx, m, isolated, n, alloc_migration_target, NULL, &nid, MIGRATE_SYNC,
			    isolated_st, stats);
	putback_movable_pages(ctx, isolated_st, n);
	for (unsigned j = 0; j < n; j++)
		st[at[j]] = isolated_st[j];
	if (stats)
		stats->nr_not_movable += refused;
	g_hash_table_destroy(seen);
	g_free(at);
	g_free(isolated);
	g_free(isolated_st);
	if (!status)
		g_free(st);
	return ret < 0 ? ret : ret + (int)refused;
}

void page_move_counts_add(struct page_move_counts *c, const enum migrate_status *st,
			  unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		c->moved += st[i] == MIGRATE_MOVED;
		c->busy += st[i] == MIGRATE_NOT_MOVABLE || st[i] == MIGRATE_PINNED;
		c->pinned += st[i] == MIGRATE_PINNED;
		c->enomem += st[i] == MIGRATE_NO_TARGET || st[i] == MIGRATE_UNTRIED;
	}
}

/* The pages a call gathered before migrating them (the kernel's pagelist). */
struct page_gather {
	struct machine *m;
	int nid;                /* pages on this node only (-1: any), */
	int skip_nid;           /* except those on this one (-1: none) */
	GArray *pfns;
	unsigned long present;
	unsigned long skipped;
};

static void gather_page(uint64_t addr, pfn_t pfn, void *priv)
{
	struct page_gather *g = priv;
	int node = (int)pfn_zone(g->m, pfn)->node;

	(void)addr;
	g->present++;
	if (node == g->skip_nid)
		g->skipped++;
	else if (g->nid < 0 || node == g->nid)
		g_array_append_val(g->pfns, pfn);
}

/* Migrate what g gathered to nid and count it. */
static int move_gathered(struct mm_ctx *ctx, struct machine *m, struct page_gather *g,
			 unsigned nid, struct page_move_counts *c)
{
	unsigned n = g->pfns->len;
	enum migrate_status *st = g_new(enum migrate_status, MAX(n, 1u));
	int ret = migrate_pages_to_node(ctx, m, (pfn_t *)(void *)g->pfns->data, n, (int)nid, st,
					NULL);

	page_move_counts_add(c, st, n);
	g_free(st);
	g_array_free(g->pfns, TRUE);
	return ret == -MM_ENOMEM ? ret : 0;
}

int do_pages_move(struct mm_ctx *ctx, struct machine *m, struct mm_struct *mm, uint64_t start,
		  uint64_t len, unsigned nid, struct page_move_counts *c)
{
	struct page_gather g = { .m = m, .nid = -1, .skip_nid = (int)nid };
	uint64_t end;

	if ((start & (PAGE_SIZE - 1)) || nid >= m->nr_nodes || len > TASK_SIZE ||
	    start > TASK_SIZE - len)
		return -MM_EINVAL;
	end = start + ((len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
	g.pfns = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	walk_page_range(mm, start, end, gather_page, &g);
	c->already += g.skipped;
	c->absent += (end - start) / PAGE_SIZE - g.present;
	return move_gathered(ctx, m, &g, nid, c);
}

int migrate_to_node(struct mm_ctx *ctx, struct machine *m, struct mm_struct *mm,
		    unsigned source, unsigned dest, struct page_move_counts *c)
{
	struct page_gather g = { .m = m, .nid = (int)source, .skip_nid = -1 };

	g.pfns = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	walk_page_range(mm, 0, TASK_SIZE, gather_page, &g);
	return move_gathered(ctx, m, &g, dest, c);
}
