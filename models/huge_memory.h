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
 * numbers, so that the reverse map finds every block head.  THPs do not
 * migrate: compaction and contiguous allocation see them as unmovable. */
#ifndef MMSIM_HUGE_MEMORY_H
#define MMSIM_HUGE_MEMORY_H

#include "mm_env.h"
#include "mmzone.h"

#include <glib.h>

#define HPAGE_PMD_ORDER pageblock_order  /* as pcp.h has it */
#define HPAGE_PMD_NR (1UL << HPAGE_PMD_ORDER)
#define HPAGE_PUD_ORDER 18
#define HPAGE_PUD_NR (1UL << HPAGE_PUD_ORDER)

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
/* Whether pfn is a page of a THP a migration may take apart (see below):
 * has_unmovable_pages() counts it movable. */
bool thp_migratable(struct machine *m, pfn_t pfn);
/* For a migration that must move the page at pfn (alloc_contig_range,
 * memory offline's do_migrate_range):
 * if it is a page of a THP, split every mapping of the THP to PTEs and the
 * folio to 4 KiB pages, so that they migrate one by one.  A 2 MiB THP is
 * always split (the kernel migrates it whole and splits it when that
 * fails; the model has only the fallback); a 1 GiB one per
 * gb_thp_migration (block: never).  false if nothing was split (not a
 * THP, blocked, or a table could not be had). */
bool thp_split_for_migration(struct mm_ctx *ctx, struct machine *m, pfn_t pfn);
/* Folios queued for a deferred split on node nid (deferred_split_count). */
unsigned long deferred_split_count(const struct machine *m, int nid);
void thp_state_destroy(struct machine *m);

#endif
