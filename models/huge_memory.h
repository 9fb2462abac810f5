/* Anonymous transparent huge pages at 2 MiB (PMD) and 1 GiB (PUD)
 * (mm/huge_memory.c): the fault that maps them, the page-table deposit,
 * splitting a mapping and splitting a folio, the deferred split queue and
 * its shrinker, and the counters /proc/vmstat and the per-size mTHP
 * directories show.
 *
 * In the page tables a PMD mapping is a PTE table marked huge whose 512
 * entries name the folio's pages, and a PUD mapping a PMD table marked
 * huge over 512 such PTE tables: walks read a huge mapping as they would
 * read it split, and splitting it is clearing the mark.  The table's frame
 * is the deposit; a table with no deposit has no frame (PFN_NONE) until a
 * split allocates one.  A 2 MiB folio is one allocated order-9 block; a
 * 1 GiB folio is taken with alloc_contig_pages and held as 256
 * MAX_PAGE_ORDER blocks whose owner offsets are their virtual page
 * numbers, so that the reverse map finds every block head.  THPs migrate
 * whole (models/migrate.c), a 1 GiB one per gb_thp_migration; compaction
 * proper steps over them, as the kernel's does over pageblock-sized
 * folios. */
#ifndef MMSIM_HUGE_MEMORY_H
#define MMSIM_HUGE_MEMORY_H

#include "mm_env.h"
#include "mmzone.h"

#include <glib.h>

#define HPAGE_PMD_ORDER pageblock_order  /* as pcp.h has it */
#define HPAGE_PMD_NR (1UL << HPAGE_PMD_ORDER)
#define HPAGE_PUD_ORDER 18
#define HPAGE_PUD_NR (1UL << HPAGE_PUD_ORDER)

/* The cost of clearing each 4 KiB page of a folio of 2^order pages that
 * folio_zero_user clears whole: contiguous clearing streams faster the
 * larger the extent (docs/COSTS.md); orders between 0 and a PMD's are
 * priced as 4 KiB pages, no measurement covering them. */
static inline enum mm_cost folio_zero_cost(unsigned order)
{
	if (order >= HPAGE_PUD_ORDER)
		return COST_ZERO_PUD_PAGE;
	return order >= HPAGE_PMD_ORDER ? COST_ZERO_PMD_PAGE : COST_ZERO_PAGE;
}

/* The mTHP counters of hugepages-<size>kB/stats, and one of the model's. */
enum mthp_stat_item {
	MTHP_STAT_ANON_FAULT_ALLOC,
	MTHP_STAT_ANON_FAULT_FALLBACK,
	MTHP_STAT_SPLIT,
	MTHP_STAT_SPLIT_DEFERRED,
	MTHP_STAT_NR_ANON,          /* folios of this size now */
	MTHP_STAT_FREE_WHOLE,       /* model-only: folios freed whole, as one block */
	NR_MTHP_STAT
};

extern const char *const mthp_stat_names[NR_MTHP_STAT];

/* Parse a knob's value against its names; -1 if it is none of them. */
int thp_option_parse(const char *const *names, int n, const char *value);
/* The mTHP counter of a size. */
unsigned long mthp_stat(const struct machine *m, enum thp_size size, enum mthp_stat_item item);
/* nr_anon_transparent_hugepages: memory mapped by PMD or PUD entries, in
 * 2 MiB units. */
unsigned long thp_nr_anon(const struct machine *m);
/* deferred_split_scan(): split up to nr folios of node nid's deferred
 * split queue, freeing their unmapped pages; the pages freed. */
unsigned long deferred_split_scan(struct mm_ctx *ctx, struct machine *m, int nid,
				  unsigned long nr);
/* The deferred split shrinker's turn in a reclaim pass on node nid: a
 * batch of 128 folios (SHRINK_BATCH).  The pages freed. */
unsigned long deferred_split_shrink(struct mm_ctx *ctx, struct machine *m, int nid);
/* Whether pfn is a page of a THP a migration may move (whole or split):
 * has_unmovable_pages() counts it movable.  A 1 GiB one is not under
 * gb_thp_migration block, nor while a gigabyte is being found for
 * another one's migration (no room is made by moving a third). */
bool thp_migratable(struct machine *m, pfn_t pfn);
/* The head of the THP pfn is a page of, or PFN_NONE. */
pfn_t thp_head(struct machine *m, pfn_t pfn);
/* folio_order(): a THP's order (9 or 18) for its head, else the order of
 * the block at pfn. */
unsigned folio_order(struct machine *m, pfn_t pfn);
/* The THP at head is shared by a fork (mapped by more than one process):
 * the model does not migrate it. */
bool thp_shared(struct machine *m, pfn_t head);
/* folio_test_partially_mapped(): the THP at head is partly unmapped and
 * waits on the deferred split queue. */
bool thp_partially_mapped(struct machine *m, pfn_t head);
/* A 1 GiB folio from the contiguous allocator (alloc_contig_pages: on
 * spb, seed 005's spb_try_alloc_contig first) with the THP mask gfp, in
 * node nid's zonelist order on the nodes of nodemask (NODE_MASK_NONE:
 * any), naturally aligned, owned by owner; PFN_NONE if none can be had. */
pfn_t alloc_thp_gigabyte(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, int nid,
			 nodemask_t nodemask, uint32_t owner);
/* split_huge_page(): every mapping of the THP at pfn split to PTEs, then
 * the folio to 4 KiB pages; its pages nothing maps are freed.  false if
 * not a THP, shared by a fork, or a table could not be had (the mappings
 * split so far stay split).  Migration's try_split_folio and a partial
 * MADV_FREE use it. */
bool split_huge_page(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
/* Folios queued for a deferred split on node nid (deferred_split_count). */
unsigned long deferred_split_count(const struct machine *m, int nid);
void thp_state_destroy(struct machine *m);

#endif
