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
#include "huge_memory.h"
#include "huge_memory_internal.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "page_cache.h"
#include "page_owner.h"

#include <glib.h>

bool folio_test_lru(struct machine *m, pfn_t pfn)
{
	struct mm_struct *mm;
	uint64_t addr;

	if (pfn >= m->mm.nr_frames || page_kind(&m->mm, pfn) != PG_KIND_ALLOC)
		return false;
	/* A THP is on its LRU as long as something maps it; one a fork
	 * shares is left alone (the model remaps one process's tables). */
	if (page_order(&m->mm, pfn) != 0)
		return thp_head(m, pfn) == pfn && !thp_shared(m, pfn);
	switch (owner_kind(page_owner(m, pfn))) {
	case OWNER_KIND_ANON:
		return rmap_walk_anon(m, pfn, &mm, &addr);
	case OWNER_KIND_FILE:
		return page_cache_on_lru(m, pfn);
	default:
		return false;
	}
}

/* folio_nr_pages(): a THP's pages for its head, else one (what the
 * counts take a folio for). */
static unsigned long folio_nr_pages(struct machine *m, pfn_t pfn)
{
	return thp_head(m, pfn) == pfn ? 1UL << folio_order(m, pfn) : 1;
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

/* One migrate_pages call: its callbacks and what it counted. */
struct migrate_run {
	new_folio_t get_new_folio;
	free_folio_t put_new_folio;
	void *private;
	enum migrate_reason reason;
	GArray *flush;
	struct migrate_stats s;
	/* Pages of THPs split in the current batch, to migrate after it, and
	 * the entry each came from. */
	GArray *split_pfns, *split_entry;
};

/* The copy of pages pages from src's node to dst's. */
static void charge_copy(struct mm_ctx *ctx, struct machine *m, pfn_t src, pfn_t dst,
			unsigned long pages)
{
	if (topology_node_to_socket(&m->topo, pfn_zone(m, src)->node) ==
	    topology_node_to_socket(&m->topo, pfn_zone(m, dst)->node))
		mm_charge(ctx, COST_MIGRATE_COPY, pages);
	else
		mm_charge(ctx, COST_MIGRATE_COPY_REMOTE, pages);
}

/* migrate_folio_unmap() and migrate_folio_move() for one page. */
static enum migrate_status migrate_one(struct mm_ctx *ctx, struct machine *m, pfn_t src,
				       struct migrate_run *run)
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
	dst = run->get_new_folio(ctx, m, src, run->private);
	if (dst == PFN_NONE)
		return MIGRATE_NO_TARGET;
	g_assert(page_kind(&m->mm, dst) == PG_KIND_ALLOC && page_order(&m->mm, dst) == 0);
	/* The callback may have let other threads run: look again.  From here
	 * to the switch there is no engine call. */
	if (page_kind(&m->mm, src) != PG_KIND_ALLOC || page_order(&m->mm, src) != 0 ||
	    page_owner(m, src) != owner || page_owner_offset(m, src) != offset ||
	    (anon && !rmap_walk_anon(m, src, &mm, &addr))) {
		put_dst(ctx, m, dst, run->put_new_folio, run->private);
		return MIGRATE_MOVED;
	}
	if (anon && (m->mm.flags[src].aux & PG_pinned)) {
		/* Unmapped, refused by folio_migrate_mapping on every retry,
		 * then remapped to itself. */
		flush_add(run->flush, mm_pid(mm));
		mm_charge(ctx, COST_MIGRATE_UNMAP, 1);
		mm_charge(ctx, COST_MIGRATE_REMAP, 1);
		put_dst(ctx, m, dst, run->put_new_folio, run->private);
		return MIGRATE_PINNED;
	}
	if (anon) {
		rmap_replace_anon(mm, addr, src, dst);
		flush_add(run->flush, mm_pid(mm));
	} else if (!page_cache_replace(m, src, dst)) {
		put_dst(ctx, m, dst, run->put_new_folio, run->private);
		return MIGRATE_MOVED;
	}
	*block_word_a(&m->mm, dst, 0) = owner;
	*block_word_b(&m->mm, dst, 0) = offset;
	folio_copy_owner(m, dst, src);
	if (anon)
		mm_charge(ctx, COST_MIGRATE_UNMAP, 1);
	charge_copy(ctx, m, src, dst, 1);
	mm_charge(ctx, COST_MIGRATE_REMAP, 1);
	mm_charge(ctx, COST_MIGRATE_ISOLATE, 1);        /* folio_add_lru(dst) */
	__free_pages(ctx, m, src);
	return MIGRATE_MOVED;
}

/* try_split_folio(): the THP at head, entry i of the call, split (*split
 * set); its pages still mapped migrate after the batch.  MIGRATE_MOVED
 * until they have, or MIGRATE_THP_FAILED if it could not be split. */
static enum migrate_status try_split_folio(struct mm_ctx *ctx, struct machine *m, pfn_t head,
					   unsigned i, struct migrate_run *run, bool *split)
{
	unsigned long nr = 1UL << folio_order(m, head);

	if (!split_huge_page(ctx, m, head))
		return MIGRATE_THP_FAILED;
	*split = true;
	run->s.nr_thp_split++;
	for (pfn_t p = head; p < head + nr; p++) {
		if (!folio_test_lru(m, p))
			continue;
		g_array_append_val(run->split_pfns, p);
		g_array_append_val(run->split_entry, i);
	}
	return MIGRATE_MOVED;
}

/* migrate_folio_unmap() and migrate_folio_move() for the THP at src, entry
 * i of the call; *split set if it was split instead. */
static enum migrate_status migrate_thp(struct mm_ctx *ctx, struct machine *m, pfn_t src,
				       unsigned i, struct migrate_run *run, bool *split)
{
	unsigned order = folio_order(m, src);
	bool gigantic = order == HPAGE_PUD_ORDER;
	enum gb_thp_migration gb = m->thp_opts.gb_migration;
	unsigned long entries;
	unsigned pid = 0;
	bool gone;
	pfn_t dst;

	if (gigantic && gb == GB_THP_MIGRATION_BLOCK) {
		run->s.nr_thp_failed++;
		return MIGRATE_THP_FAILED;
	}
	/* A partly unmapped THP is split rather than copied whole, as is a
	 * 1 GiB one the knob says to split; neither counts as moved whole. */
	if (thp_partially_mapped(m, src) || (gigantic && gb == GB_THP_MIGRATION_SPLIT)) {
		run->s.nr_thp_failed++;
		return try_split_folio(ctx, m, src, i, run, split);
	}
	dst = run->get_new_folio(ctx, m, src, run->private);
	if (dst == PFN_NONE) {
		/* A 1 GiB THP under "whole" stays whole where it is. */
		run->s.nr_thp_failed++;
		if (run->reason == MR_NUMA_MISPLACED || gigantic)
			return MIGRATE_NO_TARGET;
		return try_split_folio(ctx, m, src, i, run, split) == MIGRATE_MOVED ?
		       MIGRATE_MOVED : MIGRATE_NO_TARGET;
	}
	g_assert(page_kind(&m->mm, dst) == PG_KIND_ALLOC);
	/* The callback may have let other threads run: from the check to the
	 * free there is no engine call.  A folio freed meanwhile counts as
	 * moved; one still there that the model cannot move (shared with a
	 * fork child, queued for deferred split, mapped in part) stays where
	 * it is, a failure: counted moved, it made hot-remove's rounds look
	 * like progress for ever. */
	gone = folio_order(m, src) != order || thp_head(m, src) != src;
	entries = gone ? 0 : thp_migrate_folio(m, src, dst, &pid);
	if (!entries) {
		if (gigantic)
			free_contig_range(ctx, m, dst, HPAGE_PUD_NR);
		else
			put_dst(ctx, m, dst, run->put_new_folio, run->private);
		if (gone)
			return MIGRATE_MOVED;
		run->s.nr_thp_failed++;
		return MIGRATE_THP_FAILED;
	}
	flush_add(run->flush, pid);
	mm_charge(ctx, COST_MIGRATE_UNMAP, entries);
	charge_copy(ctx, m, src, dst, 1UL << order);
	mm_charge(ctx, COST_MIGRATE_REMAP, entries);
	mm_charge(ctx, COST_MIGRATE_ISOLATE, 1);        /* folio_add_lru(dst) */
	if (gigantic)
		free_contig_range(ctx, m, src, HPAGE_PUD_NR);
	else
		__free_pages(ctx, m, src);
	run->s.nr_thp_succeeded++;
	return MIGRATE_MOVED;
}

/* Add a folio's outcome, of pages pages, to the counts. */
static void count_status(struct migrate_stats *s, enum migrate_status st, unsigned long pages)
{
	s->nr_succeeded += st == MIGRATE_MOVED ? pages : 0;
	s->nr_failed_pages += st == MIGRATE_PINNED || st == MIGRATE_NO_TARGET ||
			      st == MIGRATE_THP_FAILED ? pages : 0;
	s->nr_pinned += st == MIGRATE_PINNED ? pages : 0;
	s->nr_not_movable += st == MIGRATE_NOT_MOVABLE ? pages : 0;
	s->nr_untried += st == MIGRATE_UNTRIED ? pages : 0;
}

/* The pages of the THPs split in a batch, after it, in one asynchronous
 * pass; a page without a destination ends the pass.  A THP's entry keeps
 * the first failure among its pages. */
static void migrate_split_pages(struct mm_ctx *ctx, struct machine *m, struct migrate_run *run,
				enum migrate_status *st)
{
	bool nomem = false;

	for (guint k = 0; k < run->split_pfns->len; k++) {
		unsigned i = g_array_index(run->split_entry, unsigned, k);
		enum migrate_status r = nomem ? MIGRATE_UNTRIED :
			migrate_one(ctx, m, g_array_index(run->split_pfns, pfn_t, k), run);

		nomem |= r == MIGRATE_NO_TARGET;
		count_status(&run->s, r, 1);
		if (st[i] == MIGRATE_MOVED)
			st[i] = r;
		if ((k + 1) % NR_MAX_BATCHED_MIGRATION == 0)
			flush_batch(ctx, m, run->flush);
	}
	flush_batch(ctx, m, run->flush);
	g_array_set_size(run->split_pfns, 0);
	g_array_set_size(run->split_entry, 0);
}

int migrate_pages(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr,
		  new_folio_t get_new_folio, free_folio_t put_new_folio, void *private,
		  enum migrate_mode mode, enum migrate_reason reason, enum migrate_status *status,
		  struct migrate_stats *stats)
{
	enum migrate_status *st = status ? status : g_new(enum migrate_status, nr);
	unsigned long *pages = g_new(unsigned long, MAX(nr, 1u));
	bool *split = g_new0(bool, MAX(nr, 1u));
	struct migrate_run run = {
		.get_new_folio = get_new_folio,
		.put_new_folio = put_new_folio,
		.private = private,
		.reason = reason,
		.flush = g_array_new(FALSE, FALSE, sizeof(unsigned)),
		.split_pfns = g_array_new(FALSE, FALSE, sizeof(pfn_t)),
		.split_entry = g_array_new(FALSE, FALSE, sizeof(unsigned)),
	};
	bool nomem = false;
	unsigned not_moved = 0, end;

	for (unsigned i = 0; i < nr; i++)
		pages[i] = folio_nr_pages(m, pfns[i]);
	for (unsigned start = 0; start < nr; start = end) {
		unsigned long batch = 0;

		/* A batch is folios up to NR_MAX_BATCHED_MIGRATION pages, the
		 * one reaching it included. */
		for (end = start; end < nr && batch < NR_MAX_BATCHED_MIGRATION; end++)
			batch += pages[end];
		for (unsigned i = start; i < end; i++) {
			if (nomem)
				st[i] = MIGRATE_UNTRIED;
			else if (pages[i] > 1 && thp_head(m, pfns[i]) == pfns[i])
				st[i] = migrate_thp(ctx, m, pfns[i], i, &run, &split[i]);
			else
				st[i] = migrate_one(ctx, m, pfns[i], &run);
			nomem |= st[i] == MIGRATE_NO_TARGET;
		}
		flush_batch(ctx, m, run.flush);
		/* migrate_pages_sync(): what the batch could not move is tried
		 * again alone, with its own unmap and flush. */
		for (unsigned i = start; mode != MIGRATE_ASYNC && i < end && !nomem; i++) {
			if (st[i] != MIGRATE_PINNED)
				continue;
			st[i] = migrate_one(ctx, m, pfns[i], &run);
			nomem = st[i] == MIGRATE_NO_TARGET;
			flush_batch(ctx, m, run.flush);
		}
		migrate_split_pages(ctx, m, &run, st);
	}
	for (unsigned i = 0; i < nr; i++) {
		/* A split THP's pages were counted one by one. */
		if (!split[i])
			count_status(&run.s, st[i], pages[i]);
		not_moved += st[i] != MIGRATE_MOVED;
	}
	m->vm_events[PGMIGRATE_SUCCESS] += run.s.nr_succeeded;
	m->vm_events[PGMIGRATE_FAIL] += run.s.nr_failed_pages;
	m->vm_events[THP_MIGRATION_SUCCESS] += run.s.nr_thp_succeeded;
	m->vm_events[THP_MIGRATION_FAIL] += run.s.nr_thp_failed;
	m->vm_events[THP_MIGRATION_SPLIT] += run.s.nr_thp_split;
	if (stats) {
		stats->nr_succeeded += run.s.nr_succeeded;
		stats->nr_failed_pages += run.s.nr_failed_pages;
		stats->nr_pinned += run.s.nr_pinned;
		stats->nr_not_movable += run.s.nr_not_movable;
		stats->nr_untried += run.s.nr_untried;
		stats->nr_thp_succeeded += run.s.nr_thp_succeeded;
		stats->nr_thp_failed += run.s.nr_thp_failed;
		stats->nr_thp_split += run.s.nr_thp_split;
	}
	g_array_free(run.flush, TRUE);
	g_array_free(run.split_pfns, TRUE);
	g_array_free(run.split_entry, TRUE);
	g_free(split);
	g_free(pages);
	if (!status)
		g_free(st);
	return nomem ? -MM_ENOMEM : (int)not_moved;
}

void putback_movable_pages(struct mm_ctx *ctx, const enum migrate_status *status, unsigned nr)
{
	unsigned long n = 0;

	for (unsigned i = 0; i < nr; i++)
		n += status[i] == MIGRATE_PINNED || status[i] == MIGRATE_NO_TARGET ||
		     status[i] == MIGRATE_UNTRIED || status[i] == MIGRATE_THP_FAILED;
	if (n)
		mm_charge(ctx, COST_MIGRATE_ISOLATE, n);
}

pfn_t alloc_thp_migration_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, gfp_t gfp,
				 int nid, nodemask_t nodemask)
{
	unsigned order = folio_order(m, src);

	if (order == HPAGE_PUD_ORDER)
		return alloc_gigantic_migration_target(ctx, m, gfp, nid, nodemask);
	return __alloc_pages_nodemask(ctx, m, gfp, order, nid, nodemask, OWNER_NONE, 0);
}

pfn_t alloc_migration_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private)
{
	int nid = *(const int *)private;
	pfn_t dst;

	if (folio_order(m, src))
		return alloc_thp_migration_target(ctx, m, src,
						  thp_migration_gfp(GFP_HIGHUSER_MOVABLE), nid,
						  nodemask_of_node((unsigned)nid));
	dst = __alloc_pages(ctx, m, GFP_HIGHUSER_MOVABLE, 0, nid, OWNER_NONE, 0);
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
	unsigned long refused_pages = 0;
	int ret;

	for (unsigned i = 0; i < nr; i++) {
		if (!g_hash_table_add(seen, GUINT_TO_POINTER(pfns[i])) ||
		    !isolate_migratepage(ctx, m, pfns[i])) {
			st[i] = MIGRATE_NOT_MOVABLE;
			refused++;
			refused_pages += folio_nr_pages(m, pfns[i]);
			continue;
		}
		at[n] = i;
		isolated[n++] = pfns[i];
	}
	ret = migrate_pages(ctx, m, isolated, n, alloc_migration_target, NULL, &nid, MIGRATE_SYNC,
			    MR_SYSCALL, isolated_st, stats);
	putback_movable_pages(ctx, isolated_st, n);
	for (unsigned j = 0; j < n; j++)
		st[at[j]] = isolated_st[j];
	if (stats)
		stats->nr_not_movable += refused_pages;
	g_hash_table_destroy(seen);
	g_free(at);
	g_free(isolated);
	g_free(isolated_st);
	if (!status)
		g_free(st);
	return ret < 0 ? ret : ret + (int)refused;
}

void page_move_counts_add(struct page_move_counts *c, const enum migrate_status *st,
			  const unsigned long *pages, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		unsigned long n = pages ? pages[i] : 1;

		c->moved += st[i] == MIGRATE_MOVED ? n : 0;
		c->busy += st[i] == MIGRATE_NOT_MOVABLE || st[i] == MIGRATE_PINNED ||
			   st[i] == MIGRATE_THP_FAILED ? n : 0;
		c->pinned += st[i] == MIGRATE_PINNED ? n : 0;
		c->enomem += st[i] == MIGRATE_NO_TARGET || st[i] == MIGRATE_UNTRIED ? n : 0;
	}
}

/* The folios a call gathered before migrating them (the kernel's
 * pagelist): each THP once, with the pages of it asked about. */
struct page_gather {
	struct machine *m;
	int nid;                /* pages on this node only (-1: any), */
	int skip_nid;           /* except those on this one (-1: none) */
	GArray *pfns;
	GArray *pages;          /* unsigned long, by folio */
	unsigned long present;
	unsigned long skipped;
};

static void gather_page(uint64_t addr, pfn_t pfn, void *priv)
{
	struct page_gather *g = priv;
	int node = (int)pfn_zone(g->m, pfn)->node;
	pfn_t head = thp_head(g->m, pfn);
	unsigned long one = 1;

	(void)addr;
	g->present++;
	if (node == g->skip_nid) {
		g->skipped++;
	} else if (g->nid < 0 || node == g->nid) {
		if (head == PFN_NONE) {
			head = pfn;
		} else if (g->pfns->len && g_array_index(g->pfns, pfn_t, g->pfns->len - 1) == head) {
			g_array_index(g->pages, unsigned long, g->pages->len - 1)++;
			return;
		}
		g_array_append_val(g->pfns, head);
		g_array_append_val(g->pages, one);
	}
}

/* Migrate what g gathered to nid and count it. */
static int move_gathered(struct mm_ctx *ctx, struct machine *m, struct page_gather *g,
			 unsigned nid, struct page_move_counts *c)
{
	unsigned n = g->pfns->len;
	enum migrate_status *st = g_new(enum migrate_status, MAX(n, 1u));
	int ret = migrate_pages_to_node(ctx, m, (pfn_t *)(void *)g->pfns->data, n, (int)nid, st,
					NULL);

	page_move_counts_add(c, st, (unsigned long *)(void *)g->pages->data, n);
	g_free(st);
	g_array_free(g->pfns, TRUE);
	g_array_free(g->pages, TRUE);
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
	g.pages = g_array_new(FALSE, FALSE, sizeof(unsigned long));
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
	g.pages = g_array_new(FALSE, FALSE, sizeof(unsigned long));
	walk_page_range(mm, 0, TASK_SIZE, gather_page, &g);
	return move_gathered(ctx, m, &g, dest, c);
}

/* ---- THPs: a whole folio moved, or split to move (mm/migrate.c,
 * migrate_folio and try_split_folio for large folios) ---- */

pfn_t alloc_gigantic_migration_target(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, int nid,
				       nodemask_t nodemask)
{
	struct thp_state *s = thp_state(m);
	pfn_t pfn;

	s->gigantic_target_busy++;
	pfn = alloc_thp_gigabyte(ctx, m, gfp, nid, nodemask, OWNER_NONE);
	s->gigantic_target_busy--;
	return pfn;
}

unsigned long thp_migrate_folio(struct machine *m, pfn_t src, pfn_t dst, unsigned *pid)
{
	struct thp_folio *f = thp_folio_of(m, src);
	struct mm_struct *mm = f && f->head == src ? mm_find(m, f->pid) : NULL;
	unsigned order, block_order;
	unsigned long entries = 0;
	bool pud_mapped;
	uint64_t haddr;

	if (!mm || f->queued || f->sharers || piece_mapped(mm, src, f->order, f->haddr) != f->mapped)
		return 0;
	order = f->order;
	block_order = MIN(order, (unsigned)MAX_PAGE_ORDER);
	haddr = f->haddr;
	*pid = f->pid;
	pud_mapped = order == HPAGE_PUD_ORDER && pud_entry(mm, haddr) && pud_entry(mm, haddr)->huge;
	/* Each table over the folio, huge or not, names its pages by pfn; a
	 * huge one is one entry to rewrite, a PTE table one per page. */
	for (uint64_t off = 0; off < ((uint64_t)PAGE_SIZE << order); off += PMD_SIZE) {
		struct pte_table *pt = pte_table_lookup(mm, haddr + off);
		pfn_t first = src + (pfn_t)(off >> PAGE_SHIFT);
		unsigned long n = 0;

		for (unsigned i = 0; pt && i < PTRS_PER_TABLE; i++) {
			if (pt->pte[i] != first + i)
				continue;
			pt->pte[i] = dst + (first - src) + i;
			if (pt->numa)
				pt->numa->protnone[i / 64] &= ~(1ULL << (i % 64));
			n++;
		}
		entries += pt && pt->huge ? (n && !pud_mapped) : n;
	}
	entries += pud_mapped;
	for (pfn_t p = 0; p < (1u << order); p += 1u << block_order) {
		*block_word_a(&m->mm, dst + p, block_order) = *block_word_a(&m->mm, src + p, block_order);
		*block_word_b(&m->mm, dst + p, block_order) = *block_word_b(&m->mm, src + p, block_order);
		folio_copy_owner(m, dst + p, src + p);
	}
	/* The record moves with the folio, under its new head. */
	g_hash_table_steal(m->thp_state->folios, GUINT_TO_POINTER(src));
	f->head = dst;
	g_hash_table_insert(m->thp_state->folios, GUINT_TO_POINTER(dst), f);
	return entries;
}
