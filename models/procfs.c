#include "procfs.h"
#include "memmap.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "slub.h"
#include "huge_memory.h"
#include "page_cache.h"
#include "superpageblock.h"

/* pagetypeinfo stops counting a list at this many entries and prints '>'. */
#define PAGETYPEINFO_FREE_CAP 100000

void proc_buddyinfo(struct machine *m, GString *out)
{
	for_each_populated_zone(m, z) {
		g_string_append_printf(out, "Node %u, zone %8s ", z->node, z->name);
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			g_string_append_printf(out, "%6lu ", z->free_area[o].nr_free);
		g_string_append_c(out, '\n');
	}
}

static void pagetypeinfo_showfree(struct machine *m, struct pglist_data *pgdat, GString *out)
{
	(void)m;
	g_string_append_printf(out, "%-43s ", "Free pages count per migrate type at order");
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		g_string_append_printf(out, "%6d ", o);
	g_string_append_c(out, '\n');
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &pgdat->node_zones[zi];

		if (!populated_zone(z))
			continue;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			g_string_append_printf(out, "Node %4u, zone %8s, type %12s ", z->node,
					       z->name, migratetype_names[mt]);
			for (int o = 0; o < NR_PAGE_ORDERS; o++) {
				unsigned long n = z->free_area[o].free_list[mt].nr;
				bool overflow = n >= PAGETYPEINFO_FREE_CAP;

				g_string_append_printf(out, "%s%6lu ", overflow ? ">" : "",
						       overflow ? (unsigned long)PAGETYPEINFO_FREE_CAP : n);
			}
			g_string_append_c(out, '\n');
		}
	}
}

static void pagetypeinfo_showblockcount(struct machine *m, struct pglist_data *pgdat, GString *out)
{
	g_string_append_printf(out, "\n%-23s", "Number of blocks type ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		g_string_append_printf(out, "%12s ", migratetype_names[mt]);
	g_string_append_c(out, '\n');
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &pgdat->node_zones[zi];
		unsigned long count[MIGRATE_TYPES] = { 0 };

		if (!populated_zone(z))
			continue;
		for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages)
			if (!(m->mm.pb_flags[pfn_to_pb(pfn)] & PB_hole))
				count[get_pfnblock_migratetype(&m->mm, pfn)]++;
		g_string_append_printf(out, "Node %u, zone %8s ", z->node, z->name);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			g_string_append_printf(out, "%12lu ", count[mt]);
		g_string_append_c(out, '\n');
	}
}

void proc_pagetypeinfo(struct machine *m, GString *out)
{
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		g_string_append_printf(out, "Page block order: %d\n", pageblock_order);
		g_string_append_printf(out, "Pages per block:  %lu\n", (unsigned long)pageblock_nr_pages);
		g_string_append_c(out, '\n');
		pagetypeinfo_showfree(m, &m->node_data[n], out);
		pagetypeinfo_showblockcount(m, &m->node_data[n], out);
	}
}

void proc_zoneinfo(struct machine *m, GString *out)
{
	for_each_zone(m, z) {
		g_string_append_printf(out, "Node %u, zone %8s", z->node, z->name);
		g_string_append_printf(out, "\n  pages free     %lu", zone_page_state(z, NR_FREE_PAGES));
		g_string_append_printf(out, "\n        boost    %lu", z->watermark_boost);
		g_string_append_printf(out, "\n        min      %lu", wmark_pages(z, WMARK_MIN));
		g_string_append_printf(out, "\n        low      %lu", wmark_pages(z, WMARK_LOW));
		g_string_append_printf(out, "\n        high     %lu", wmark_pages(z, WMARK_HIGH));
		g_string_append_printf(out, "\n        promo    %lu", wmark_pages(z, WMARK_PROMO));
		g_string_append_printf(out, "\n        spanned  %lu", (unsigned long)z->spanned_pages);
		g_string_append_printf(out, "\n        present  %lu", (unsigned long)z->present_pages);
		g_string_append_printf(out, "\n        managed  %lu", z->managed_pages);
		g_string_append_printf(out, "\n        cma      %lu", 0UL);
		g_string_append_printf(out, "\n        protection: (%ld", z->lowmem_reserve[0]);
		for (int i = 1; i < MAX_NR_ZONES; i++)
			g_string_append_printf(out, ", %ld", z->lowmem_reserve[i]);
		g_string_append_c(out, ')');
		if (populated_zone(z))
			g_string_append_printf(out, "\n  start_pfn:           %lu",
					       (unsigned long)z->zone_start_pfn);
		g_string_append_c(out, '\n');
	}
}

/* NR_FREE_PAGES_BLOCKS: free pages in blocks of pageblock order and up. */
static unsigned long free_pages_blocks(struct machine *m)
{
	unsigned long sum = 0;

	for_each_zone(m, z)
		for (int o = pageblock_order; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				if (mt != MIGRATE_ISOLATE)
					sum += (unsigned long)z->free_area[o].free_list[mt].nr << o;
	return sum;
}

/* The vmstat names of enum numa_stat_item. */
static const char *const numa_event_names[NR_VM_NUMA_EVENT_ITEMS] = {
	"numa_hit", "numa_miss", "numa_foreign", "numa_interleave", "numa_local", "numa_other",
};

unsigned long node_numa_event(struct machine *m, int nid, enum numa_stat_item item)
{
	unsigned long sum = 0;

	for_each_zone(m, z)
		if (nid < 0 || z->node == (unsigned)nid)
			sum += z->vm_numa_event[item];
	return sum;
}

/* The zone figures of node nid (-1: every node), as vmstat prints them. */
static void zone_figures(struct machine *m, int nid, GString *out)
{
	unsigned long free = 0, cma = 0;

	for_each_zone(m, z) {
		if (nid >= 0 && z->node != (unsigned)nid)
			continue;
		free += zone_page_state(z, NR_FREE_PAGES);
		cma += zone_page_state(z, NR_FREE_CMA_PAGES);
	}
	g_string_append_printf(out, "nr_free_pages %lu\n", free);
	if (nid < 0)
		g_string_append_printf(out, "nr_free_pages_blocks %lu\n", free_pages_blocks(m));
	g_string_append_printf(out, "nr_free_cma %lu\n", cma);
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
		g_string_append_printf(out, "%s %lu\n", numa_event_names[i],
				       node_numa_event(m, nid, (enum numa_stat_item)i));
}

void proc_node_vmstat(struct machine *m, unsigned nid, GString *out)
{
	zone_figures(m, (int)nid, out);
	g_string_append_printf(out, "nr_file_pages %lu\n", page_cache_pages(m, (int)nid));
}

static void account_block(struct machine *m, pfn_t pfn, unsigned long pages,
			  struct node_meminfo *out)
{
	uint32_t owner = page_owner(m, pfn);

	switch (owner_kind(owner)) {
	case OWNER_KIND_ANON: out->anon += pages; break;
	case OWNER_KIND_FILE: out->file += pages; break;
	case OWNER_KIND_PGTABLE: out->pgtable += pages; break;
	case OWNER_KIND_HUGETLB: out->hugetlb += pages; break;
	case OWNER_KIND_RESERVED: out->reserved += pages; break;
	case OWNER_KIND_KERNEL:
	case OWNER_KIND_NONE:
		if (slab_owner(m, owner))
			out->slab += pages;
		else
			out->kernel += pages;
		break;
	}
}

void node_meminfo(struct machine *m, int nid, struct node_meminfo *out)
{
	memset(out, 0, sizeof(*out));
	for_each_populated_zone(m, z) {
		if ((int)z->node != nid)
			continue;
		out->managed += z->managed_pages;
		for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z);) {
			unsigned long pages = 1UL << page_order(&m->mm, pfn);

			switch (page_kind(&m->mm, pfn)) {
			case PG_KIND_BUDDY: out->free += pages; break;
			case PG_KIND_PCP: out->pcp += pages; break;
			case PG_KIND_ALLOC: account_block(m, pfn, pages, out); break;
			case PG_KIND_NONE: pages = 1; break;
			}
			pfn += pages;
		}
		for (pfn_t pfn = z->zone_start_pfn; pfn < zone_end_pfn(z); pfn += pageblock_nr_pages)
			out->pageblocks[get_pfnblock_migratetype(&m->mm, pfn)]++;
	}
}

void proc_numastat(struct machine *m, GString *out)
{
	static const char *const rows[NR_VM_NUMA_EVENT_ITEMS] = {
		"numa_hit", "numa_miss", "numa_foreign", "interleave_hit", "local_node",
		"other_node",
	};

	g_string_append_printf(out, "%-16s", "");
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		char name[16];

		g_snprintf(name, sizeof(name), "node%u", n);
		g_string_append_printf(out, " %15s", name);
	}
	g_string_append_c(out, '\n');
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		g_string_append_printf(out, "%-16s", rows[i]);
		for (unsigned n = 0; n < m->nr_nodes; n++)
			g_string_append_printf(out, " %15lu",
					       node_numa_event(m, (int)n, (enum numa_stat_item)i));
		g_string_append_c(out, '\n');
	}
}

void proc_vmstat(struct machine *m, GString *out)
{
	static const struct vmstat_event { const char *name; enum vm_event_item item; } events[] = {
		{ "pgalloc_dma", PGALLOC_DMA },
		{ "pgalloc_dma32", PGALLOC_DMA32 },
		{ "pgalloc_normal", PGALLOC_NORMAL },
		{ "pgalloc_movable", PGALLOC_MOVABLE },
		{ "pgalloc_device", PGALLOC_DEVICE },
		{ "pgfree", PGFREE },
		{ "pgfault", PGFAULT },
		{ "pgsteal_kswapd", PGSTEAL_KSWAPD },
		{ "pgsteal_direct", PGSTEAL_DIRECT },
		{ "pgscan_kswapd", PGSCAN_KSWAPD },
		{ "pgscan_direct", PGSCAN_DIRECT },
		{ "numa_pte_updates", NUMA_PTE_UPDATES },
		{ "numa_hint_faults", NUMA_HINT_FAULTS },
		{ "numa_hint_faults_local", NUMA_HINT_FAULTS_LOCAL },
		{ "numa_pages_migrated", NUMA_PAGES_MIGRATED },
		{ "pgmigrate_success", PGMIGRATE_SUCCESS },
		{ "pgmigrate_fail", PGMIGRATE_FAIL },
		{ "compact_migrate_scanned", COMPACTMIGRATE_SCANNED },
		{ "compact_free_scanned", COMPACTFREE_SCANNED },
		{ "compact_isolated", COMPACTISOLATED },
		{ "compact_stall", COMPACTSTALL },
		{ "compact_fail", COMPACTFAIL },
		{ "compact_success", COMPACTSUCCESS },
		{ "compact_daemon_wake", KCOMPACTD_WAKE },
		{ "compact_daemon_migrate_scanned", KCOMPACTD_MIGRATE_SCANNED },
		{ "compact_daemon_free_scanned", KCOMPACTD_FREE_SCANNED },
		{ "thp_fault_alloc", THP_FAULT_ALLOC },
		{ "thp_fault_fallback", THP_FAULT_FALLBACK },
		{ "thp_collapse_alloc", THP_COLLAPSE_ALLOC },
		{ "thp_split_page", THP_SPLIT_PAGE },
		{ "thp_deferred_split_page", THP_DEFERRED_SPLIT_PAGE },
		{ "thp_split_pmd", THP_SPLIT_PMD },
		{ "thp_split_pud", THP_SPLIT_PUD },
		{ "thp_migration_success", THP_MIGRATION_SUCCESS },
		{ "thp_migration_fail", THP_MIGRATION_FAIL },
		{ "thp_migration_split", THP_MIGRATION_SPLIT },
		{ "thp_split_pmd_failed", THP_SPLIT_PMD_FAILED },
		{ "thp_split_pud_failed", THP_SPLIT_PUD_FAILED },
	};

	zone_figures(m, -1, out);
	unsigned long file_pages = 0;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		file_pages += page_cache_pages(m, (int)n);
	g_string_append_printf(out, "nr_file_pages %lu\n", file_pages);
	g_string_append_printf(out, "nr_anon_transparent_hugepages %lu\n", thp_nr_anon(m));
	for (size_t i = 0; i < G_N_ELEMENTS(events); i++)
		g_string_append_printf(out, "%s %lu\n", events[i].name, m->vm_events[events[i].item]);
}

void proc_transparent_hugepage(struct machine *m, GString *out)
{
	const enum thp_enabled enabled[NR_THP_SIZES] = { m->thp, m->thp_opts.pud_enabled };

	g_string_append_printf(out, "defrag %s\nthp_deposit %s\npud_split %s\n"
			       "gb_thp_migration %s\n",
			       thp_defrag_names[m->thp_opts.defrag],
			       thp_deposit_names[m->thp_opts.deposit],
			       pud_split_names[m->thp_opts.pud_split],
			       gb_thp_migration_names[m->thp_opts.gb_migration]);
	for (int size = 0; size < NR_THP_SIZES; size++) {
		g_string_append_printf(out, "%s/enabled %s\n", thp_size_names[size],
				       thp_enabled_names[enabled[size]]);
		for (int i = 0; i < NR_MTHP_STAT; i++)
			g_string_append_printf(out, "%s/stats/%s %lu\n", thp_size_names[size],
					       mthp_stat_names[i],
					       mthp_stat(m, (enum thp_size)size, (enum mthp_stat_item)i));
	}
}

