#include "costs.h"

#include <glib.h>
#include <math.h>
#include <string.h>

/* Where the defaults come from: docs/COSTS.md has every cost with its
 * source, and says which are guesses.
 *
 * The zone->lock costs are fitted to kernel commit 52166607ecc9 ("mm:
 * restrict the pcp batch scale factor to avoid too long latency"), which
 * timed the code run under zone->lock in rmqueue_bulk and
 * free_pcppages_bulk (ftrace function_graph, will-it-scale page_fault1)
 * on Ice Lake and Sapphire Rapids servers: a 63-page refill held it
 * 2.0-2.7 us, a 2,047-page one 39-45 us, a 2,047-page free 56-59 us.  The
 * model's sections count 193 list operations and 67 splits for the first,
 * 6140 and 2046 for the second, 6140 and 2046 merges for the third
 * (tests/sim/test_calibration.c).  Those holds grow by about 20 ns a page
 * but do not start from zero: a line through the two refills leaves about
 * 1 us that does not depend on the page count, so zone_section, not only
 * the per-page costs, comes from the fit (no per-page price puts both
 * refills within 15% of the measurements with zone_section at 100 ns).
 * list_op and split_step share the 20 ns a page (the data cannot tell
 * them apart, so they are equal); merge_step is what the free costs
 * beyond the refill, a page at a time (a merge reads the buddy's struct
 * page, a split only writes).  The fixed part stands for what the model
 * does not price per page: the zone's shared lines (free-area heads,
 * counters, watermarks) fetched from the last holder, irq save and
 * restore, and the tracer's own cost inside the measurement; it is
 * charged to every zone->lock section, so single-page sections
 * (rmqueue_buddy, free_one_page) may be overstated.  pcp_section is the
 * same for the much shorter per-CPU list sections, a guess.
 *
 * spb_visit is a superpageblock struct read on a zone list walk
 * (for_each_spb_on): one cache line, usually last written by another CPU
 * allocating from it, so an LLC hit or a line from another core rather
 * than L1: 20 ns is a guess in the range of last-level cache latency on
 * the mesh-based Xeons of 52166607ecc9.  spb_list_move (spb_update_list)
 * is a list_del and a list_add_tail: four pointer writes to up to four
 * structs, about half of them cached by the walk; 40 ns, a guess.
 *
 * pb_scan is a sequential read of per-frame metadata, a few bytes per
 * frame from cache or prefetched memory.  zero_page assumes clear_page at
 * about 16 GB/s on one core (4 KiB in 250 ns).  Both are estimates, not
 * measurements.
 *
 * fault is the fixed part of an anonymous page fault (exception entry,
 * handle_mm_fault's walk, return to user space), about half a microsecond
 * on current x86 servers without the page clearing; pte is one entry
 * written or cleared in a page table; tlb_flush a local flush plus the
 * shootdown after an unmap.  Estimates as well.
 *
 * Page migration (models/migrate.c); all five are guesses, not
 * measurements.  migrate_isolate is taking a page off an LRU or putting one
 * on under the lruvec lock: a lock round trip and a list operation, about
 * 50 ns uncontended.  migrate_unmap is try_to_migrate's rmap walk (anon_vma
 * lock, page_vma_mapped_walk) and the PTE turned into a migration entry,
 * migrate_remap remove_migration_ptes' walk back; a few hundred ns each,
 * the remap less since the walk is warm.  migrate_copy is copy_page on
 * 4 KiB: it reads and writes, so at about half the 16 GB/s that zero_page
 * assumes, 500 ns; migrate_copy_remote the same across the socket link,
 * which gives one core about 60% of its local bandwidth, 800 ns.
 * tlb_shootdown is per CPU in the address space's mm_cpumask: migration
 * flushes once per batch of up to 512 pages (the TTU_BATCH_FLUSH path of
 * migrate_pages_batch), and each CPU takes an IPI and a flush, about half
 * the tlb_flush figure above.
 *
 * A contended cache line moves between cores of one socket in about 50 ns
 * and between sockets in 110-200 ns; 150 ns is the middle of that range. */
static const struct {
	const char *name;
	double ns;
	const char *help;
} params[NR_COST_PARAMS] = {
	[COST_LIST_OP] = { "list_op", 5, "add or remove one block on a free or per-CPU list" },
	[COST_MERGE_STEP] = { "merge_step", 12.5, "one buddy merge step in __free_one_page" },
	[COST_SPLIT_STEP] = { "split_step", 5, "one split step in expand()" },
	[COST_PB_SCAN] = { "pb_scan", 1, "look at one frame of a pageblock" },
	[COST_SPB_VISIT] = { "spb_visit", 20, "look at one superpageblock on a zone list walk" },
	[COST_SPB_LIST_MOVE] = { "spb_list_move", 40,
				 "move a superpageblock to the tail of another zone list" },
	[COST_ZONE_SECTION] = { "zone_section", 1050, "fixed cost of a zone->lock critical section" },
	[COST_PCP_SECTION] = { "pcp_section", 20, "fixed cost of a pcp->lock critical section" },
	[COST_ZERO_PAGE] = { "zero_page", 250, "clear one 4 KiB page" },
	[COST_FAULT] = { "fault", 500, "fixed part of a page fault" },
	[COST_PTE] = { "pte", 5, "set or clear one page-table entry" },
	[COST_TLB_FLUSH] = { "tlb_flush", 1000, "TLB flush and shootdown after an unmap" },
	[COST_MIGRATE_ISOLATE] = { "migrate_isolate", 50,
				   "take a page off an LRU for migration, or put one on" },
	[COST_MIGRATE_UNMAP] = { "migrate_unmap", 300,
				 "rmap walk and PTE made a migration entry, per mapping" },
	[COST_MIGRATE_COPY] = { "migrate_copy", 500, "copy a 4 KiB page within a socket" },
	[COST_MIGRATE_COPY_REMOTE] = { "migrate_copy_remote", 800,
				       "copy a 4 KiB page to another socket" },
	[COST_MIGRATE_REMAP] = { "migrate_remap", 200,
				 "point a mapping or page-cache slot at the new page" },
	[COST_TLB_SHOOTDOWN] = { "tlb_shootdown", 500,
				 "flush one CPU's TLB for an address space after migration" },
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
