#include "costs.h"

#include <glib.h>
#include <math.h>
#include <string.h>

/* Every default with what it stands for and its source, or the reasoning
 * behind a guess: docs/COSTS.md (keep the two in step).  In short: the
 * zone->lock costs are fitted to the hold times kernel commit 52166607ecc9
 * measured on Ice Lake and Sapphire Rapids, and THP clearing comes from
 * demand-fault bandwidths measured on AMD Milan (tests/sim/test_calibration.c
 * checks both); the others are guesses. */
static const struct {
	const char *name;
	double ns;
	const char *help;
} params[NR_COST_PARAMS] = {
	/* fitted: 52166607ecc9 */
	[COST_LIST_OP] = { "list_op", 5, "add or remove one block on a free or per-CPU list" },
	[COST_MERGE_STEP] = { "merge_step", 12.5, "one buddy merge step in __free_one_page" },
	[COST_SPLIT_STEP] = { "split_step", 5, "one split step in expand()" },
	/* guesses */
	[COST_PB_SCAN] = { "pb_scan", 1, "look at one frame of a pageblock" },
	[COST_SPB_VISIT] = { "spb_visit", 20, "look at one superpageblock on a zone list walk" },
	[COST_SPB_LIST_MOVE] = { "spb_list_move", 40,
				 "move a superpageblock to the tail of another zone list" },
	/* fitted per direction: 52166607ecc9's hold times of rmqueue_bulk
	 * (63 pages 2.0-2.7 us, 2,047 pages 39-45 us) and of
	 * free_pcppages_bulk (63 pages 2.21-2.33 us, 2,047 pages 56-59 us),
	 * as issues 11 and 28 quote them (docs/COSTS.md) */
	[COST_ZONE_SECTION] = { "zone_section", 1050,
				"fixed cost of a zone->lock section taking pages (rmqueue_bulk) or other" },
	[COST_ZONE_SECTION_FREE] = { "zone_section_free", 500,
				     "fixed cost of a zone->lock section freeing pages (free_pcppages_bulk, free_one_page)" },
	/* guesses, but cacheline_same_cpu (nothing moves) */
	[COST_PCP_SECTION] = { "pcp_section", 20, "fixed cost of a pcp->lock critical section" },
	[COST_ZERO_PAGE] = { "zero_page", 250, "clear one 4 KiB page" },
	/* measured: demand faults of 2 MiB and 1 GiB folios, clearing
	 * contiguous pages (Ankur Arora, "mm: folio_zero_user: clear
	 * contiguous pages" v8, 2025-10-27, AMD Milan): 17.03 and 42.17 GB/s,
	 * 4 KiB in 240 and 97 ns (docs/COSTS.md) */
	[COST_ZERO_PMD_PAGE] = { "zero_pmd_page", 240,
				 "clear one 4 KiB page of a 2 MiB folio cleared whole" },
	[COST_ZERO_PUD_PAGE] = { "zero_pud_page", 97,
				 "clear one 4 KiB page of a 1 GiB folio cleared whole" },
	[COST_FAULT] = { "fault", 500, "fixed part of a page fault" },
	[COST_PTE] = { "pte", 5, "set or clear one page-table entry" },
	[COST_TLB_FLUSH] = { "tlb_flush", 1000, "TLB flush and shootdown after an unmap" },
	[COST_MIGRATE_ISOLATE] = { "migrate_isolate", 50,
				   "take a page off an LRU for migration, or put one on" },
	/* migrate_copy_remote and migrate_unmap: move_pages(2) between the two
	 * sockets of a Zen 3 EPYC, v7.1-rc1 (Shivank Garg, linux-mm,
	 * 2026-05-08): 11.02 GB/s in 2 MiB folios gives the copy, 3.31 GB/s in
	 * 4 KiB pages the rest of a page's move (docs/COSTS.md); migrate_copy
	 * from it by the guessed 60% link share. */
	[COST_MIGRATE_UNMAP] = { "migrate_unmap", 482,
				 "rmap walk and PTE made a migration entry, per mapping" },
	[COST_MIGRATE_COPY] = { "migrate_copy", 217, "copy a 4 KiB page within a socket" },
	[COST_MIGRATE_COPY_REMOTE] = { "migrate_copy_remote", 362,
				       "copy a 4 KiB page to another socket" },
	[COST_MIGRATE_REMAP] = { "migrate_remap", 200,
				 "point a mapping or page-cache slot at the new page" },
	[COST_TLB_SHOOTDOWN] = { "tlb_shootdown", 500,
				 "flush one CPU's TLB for an address space after migration" },
	[COST_NUMA_HINT_FAULT] = { "numa_hint_fault", 300,
				   "a NUMA hinting fault's own work beyond a fault's entry" },
	[COST_RECLAIM_SCAN] = { "reclaim_scan", 100,
				"reclaim: take a page off the LRU and check its references" },
	[COST_RECLAIM_UNMAP] = { "reclaim_unmap", 250,
				 "reclaim: unmap a page and remove it from its mapping" },
	/* guess: a list_add or list_del and the folio's LRU flags, on
	 * lines the lock holder just wrote (docs/COSTS.md) */
	[COST_LRU_MOVE] = { "lru_move", 20,
			    "add one folio to an LRU list or take it off, under lru_lock" },
	/* guess: one struct page, one cache line, written in address order
	 * (docs/COSTS.md) */
	[COST_SPLIT_TAIL] = { "split_tail", 10,
			      "rewrite one tail struct page when a folio splits" },
	[COST_CL_SAME_CPU] = { "cacheline_same_cpu", 0,
			       "write a cache line this CPU wrote last" },
	[COST_CL_SAME_SOCKET] = { "cacheline_same_socket", 50,
				  "move a cache line from another CPU of the same socket" },
	[COST_CL_OTHER_SOCKET] = { "cacheline_other_socket", 150,
				   "move a cache line from a CPU of another socket" },
};

void costs_default(struct costs *c)
{
	for (unsigned i = 0; i < NR_COST_PARAMS; i++)
		c->ns[i] = params[i].ns;
}

static int costs_index(const char *name)
{
	for (unsigned i = 0; i < NR_COST_PARAMS; i++)
		if (!strcmp(params[i].name, name))
			return (int)i;
	return -1;
}

int costs_set(struct costs *c, const char *name, double ns)
{
	int i = costs_index(name);

	if (i < 0)
		return -1;
	if (!isfinite(ns) || ns < 0)
		return -2;
	c->ns[i] = ns;
	return 0;
}

int costs_get(const struct costs *c, const char *name, double *ns)
{
	int i = costs_index(name);

	if (i < 0)
		return -1;
	*ns = c->ns[i];
	return 0;
}

const char *costs_name(unsigned i)
{
	return i < NR_COST_PARAMS ? params[i].name : NULL;
}

const char *costs_help(unsigned i)
{
	return i < NR_COST_PARAMS ? params[i].help : NULL;
}

char *costs_names(void)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < NR_COST_PARAMS; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", params[i].name);
	return g_string_free(s, FALSE);
}
