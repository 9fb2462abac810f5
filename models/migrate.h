/* Page migration (mm/migrate.c): move allocated pages to new frames that
 * the caller's callback provides, keeping every mapping of them.
 *
 * Movable here: anonymous pages of live processes (found through the
 * owner record, the model's reverse map) and page-cache pages on an LRU,
 * of order 0, and anonymous THPs, whole (models/huge_memory.h): a 2 MiB
 * one to an order-9 destination, split to 4 KiB pages that migrate when
 * none can be had (try_split_folio); a 1 GiB one per gb_thp_migration.
 * Page tables, kvmalloc and other kernel pages never move.  A long-term pinned page (PG_pinned) fails as in the kernel: the
 * pin's extra reference makes folio_migrate_mapping refuse it, and after
 * the retries it is counted in pgmigrate_fail and left where it was.
 *
 * The caller isolates the pages (isolate_migratepage, the kernel's
 * folio_isolate_lru), passes them to migrate_pages, and puts the ones not
 * moved back (putback_movable_pages), as compaction, alloc_contig_range
 * and move_pages(2) do; migrate_pages_to_node does all three for a list
 * of pfns. */
#ifndef MMSIM_MIGRATE_H
#define MMSIM_MIGRATE_H

#include "mm_env.h"
#include "mmzone.h"

/* At most this many pages share one TLB flush per address space
 * (NR_MAX_BATCHED_MIGRATION, HPAGE_PMD_NR). */
#define NR_MAX_BATCHED_MIGRATION 512

/* Why pages migrate (enum migrate_reason): NUMA balancing's hinting
 * fault does not split a THP it cannot move. */
enum migrate_reason {
	MR_COMPACTION,
	MR_MEMORY_HOTPLUG,
	MR_SYSCALL,
	MR_NUMA_MISPLACED,
	MR_CONTIG_RANGE,
};

enum migrate_mode {
	MIGRATE_ASYNC,          /* compaction's first passes: one try per page */
	MIGRATE_SYNC_LIGHT,
	MIGRATE_SYNC,           /* pages that failed are tried again one at a time */
};

/* What happened to each page of a call. */
enum migrate_status {
	MIGRATE_MOVED,          /* moved, or freed by its owner meanwhile (the kernel counts both) */
	MIGRATE_NOT_MOVABLE,    /* refused at isolation: not an anonymous or page-cache page */
	MIGRATE_PINNED,         /* long-term pinned: left in place, counted in pgmigrate_fail */
	MIGRATE_NO_TARGET,      /* the callback had no destination: counted in pgmigrate_fail */
	MIGRATE_UNTRIED,        /* not tried: an earlier page had no destination */
	/* A THP that could neither move whole nor be split (a 1 GiB one under
	 * gb_thp_migration block, or a split short of page tables): left in
	 * place, counted in pgmigrate_fail */
	MIGRATE_THP_FAILED,
};

/* Counts in pages (a THP counts its pages), as the kernel's
 * migrate_pages_stats, and THPs. */
struct migrate_stats {
	unsigned long nr_succeeded;     /* pgmigrate_success */
	unsigned long nr_failed_pages;  /* pgmigrate_fail: pinned, no destination, THP failed */
	unsigned long nr_pinned;
	unsigned long nr_not_movable;
	unsigned long nr_untried;
	unsigned long nr_thp_succeeded; /* thp_migration_success: moved whole */
	unsigned long nr_thp_failed;    /* thp_migration_fail: not moved whole */
	unsigned long nr_thp_split;     /* thp_migration_split: split to migrate */
};

/* new_folio_t: a block allocated for src's contents, of src's folio order
 * (folio_order(); a 1 GiB THP's gigabyte), or PFN_NONE.  Its owner
 * records are overwritten with src's. */
typedef pfn_t (*new_folio_t)(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private);
/* free_folio_t: take back a destination that was not used. */
typedef void (*free_folio_t)(struct mm_ctx *ctx, struct machine *m, pfn_t dst, void *private);

/* folio_test_lru(): pfn is an order-0 anonymous page mapped by a live
 * process, the head of a THP, or a page-cache page on an LRU: what
 * folio_isolate_lru would take for migration (the model keeps no LRU of
 * anonymous pages). */
bool folio_test_lru(struct machine *m, pfn_t pfn);

/* folio_isolate_lru() for migration: whether pfn is a page migration can
 * move, charging the LRU lock for it if so. */
bool isolate_migratepage(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);

/* migrate_pages(): move the nr isolated folios at pfns (pages, or THP
 * heads) to destinations from get_new_folio (given private), in batches
 * of NR_MAX_BATCHED_MIGRATION pages; destinations not used go to
 * put_new_folio (NULL: freed).  A THP that is partly unmapped, or is
 * 1 GiB under gb_thp_migration split, or is 2 MiB and cannot have a
 * destination (except for MR_NUMA_MISPLACED, which leaves it), is split
 * and its pages migrate after its batch; its status is then MIGRATE_MOVED if they all moved,
 * else the first failure among them.  status[i] (may be NULL) says what
 * became of pfns[i]; stats (may be NULL) adds the counts, and
 * pgmigrate_success/fail and thp_migration_success/fail/split count them
 * too.  Returns the number of folios not moved, or -MM_ENOMEM when the
 * callback ran out (the folios after that one are not tried). */
int migrate_pages(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr,
		  new_folio_t get_new_folio, free_folio_t put_new_folio, void *private,
		  enum migrate_mode mode, enum migrate_reason reason, enum migrate_status *status,
		  struct migrate_stats *stats);

/* putback_movable_pages(): the pages migrate_pages did not move go back to
 * their LRUs (the LRU lock, charged per page). */
void putback_movable_pages(struct mm_ctx *ctx, const enum migrate_status *status, unsigned nr);

/* alloc_migration_target() for node nid (private points to an int): a
 * movable page on that node, or PFN_NONE (__GFP_THISNODE); a THP's
 * destination as alloc_thp_migration_target gives it. */
pfn_t alloc_migration_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, void *private);

/* alloc_migration_target()'s branch for a THP, which every destination
 * callback takes: a 2 MiB THP's order-9 block, with gfp, from nid's
 * zonelist restricted to nodemask (NODE_MASK_NONE: any node); a 1 GiB
 * THP's gigabyte from the contiguous allocator, likewise (migrating pages
 * out of a range only if gfp may reclaim directly).  PFN_NONE if none. */
pfn_t alloc_thp_migration_target(struct mm_ctx *ctx, struct machine *m, pfn_t src, gfp_t gfp,
				 int nid, nodemask_t nodemask);
/* The flags alloc_migration_target gives a large folio's destination: the
 * caller's without reclaim, plus GFP_TRANSHUGE. */
static inline gfp_t thp_migration_gfp(gfp_t gfp)
{
	return (gfp & ~__GFP_RECLAIM) | GFP_TRANSHUGE;
}

/* A list of pfns to node nid, as move_pages(2) does after looking the
 * pages up: isolate each (a pfn listed twice fails the second time, as a
 * page already isolated does), migrate them in MIGRATE_SYNC mode with
 * alloc_migration_target, put back the rest.  Unlike move_pages(2), pages
 * already on nid move too (within the node, as compaction moves them).
 * Returns migrate_pages' value; status[i] (may be NULL) for pfns[i], stats
 * added to. */
int migrate_pages_to_node(struct mm_ctx *ctx, struct machine *m, const pfn_t *pfns, unsigned nr,
		       int nid, enum migrate_status *status, struct migrate_stats *stats);

/* What move_pages(2) and migrate_pages(2) did, page by page. */
struct page_move_counts {
	unsigned long moved;    /* now on the target node */
	unsigned long already;  /* on the target node before the call */
	unsigned long busy;     /* -EBUSY: could not be isolated or moved */
	unsigned long pinned;   /* of the busy ones, long-term pinned */
	unsigned long enomem;   /* -ENOMEM: no page on the target node for it (or after it) */
	unsigned long absent;   /* -ENOENT / -EFAULT: no page there */
};

/* Add the outcome of nr folios' migrate_status to c, folio i standing
 * for pages[i] of the pages asked about (NULL: one each). */
void page_move_counts_add(struct page_move_counts *c, const enum migrate_status *st,
			  const unsigned long *pages, unsigned nr);

struct mm_struct;
/* move_pages(2) for the pages of [start, start + len) of mm, each to node
 * nid (do_pages_move): pages already there stay, the others are migrated
 * in one batch (MIGRATE_SYNC, alloc_migration_target).  Counts added to c.
 * 0, -MM_EINVAL for an unaligned start or a node m lacks, -MM_ENOMEM if
 * the node ran out of pages. */
int do_pages_move(struct mm_ctx *ctx, struct machine *m, struct mm_struct *mm, uint64_t start,
		  uint64_t len, unsigned nid, struct page_move_counts *c);
/* migrate_to_node(): every page of mm on node source to node dest. */
int migrate_to_node(struct mm_ctx *ctx, struct machine *m, struct mm_struct *mm,
		    unsigned source, unsigned dest, struct page_move_counts *c);

/* alloc_thp_gigabyte() for the copy of a migrating 1 GiB THP. */
pfn_t alloc_gigantic_migration_target(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, int nid,
				       nodemask_t nodemask);
/* A whole THP's migration once copied, with no engine call
 * (folio_migrate_mapping and remove_migration_pmd, and the PUD twin):
 * every entry mapping the THP at src names the same page of dst, an
 * allocated block of the same order (its NUMA marks cleared); dst's
 * owner records become src's and the THP's record moves to dst.  The
 * mapping entries rewritten (a PMD or PUD mapping counts one), *pid the
 * process; 0 if src is no THP head or is not mapped as its record says
 * any more (partly unmapped since). */
unsigned long thp_migrate_folio(struct machine *m, pfn_t src, pfn_t dst, unsigned *pid);

#endif
