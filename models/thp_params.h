/* The transparent huge page knobs (/sys/kernel/mm/transparent_hugepage):
 * per size whether faults get THPs, the defrag mode deciding how hard the
 * fault may try, and two what-if knobs of the 1 GiB THP RFC that no kernel
 * has: how much page table a THP deposits, and how far a 1 GiB THP splits.
 * Kept apart from huge_memory.h so that mmzone.h can hold them. */
#ifndef MMSIM_THP_PARAMS_H
#define MMSIM_THP_PARAMS_H

/* hugepages-<size>kB/enabled.  THP_NEVER is 0 and THP_MADVISE 1 so that a
 * boolean of the old `thp` option keeps its meaning: false turns THP off
 * (no khugepaged min_free_kbytes raise), true is the default. */
enum thp_enabled { THP_NEVER, THP_MADVISE, THP_ALWAYS, NR_THP_ENABLED };
/* transparent_hugepage/defrag. */
enum thp_defrag {
	THP_DEFRAG_ALWAYS,
	THP_DEFRAG_DEFER,
	THP_DEFRAG_DEFER_MADVISE,
	THP_DEFRAG_MADVISE,
	THP_DEFRAG_NEVER,
	NR_THP_DEFRAG
};
/* What a THP deposits at fault time for a later split: full, the tables
 * the split needs (a 2 MiB THP one PTE table, a 1 GiB THP one PMD table
 * and 512 PTE tables); pmd_only, a 1 GiB THP only its PMD table (2 MiB
 * THPs as full); none, nothing (a split allocates its tables). */
enum thp_deposit { THP_DEPOSIT_FULL, THP_DEPOSIT_PMD_ONLY, THP_DEPOSIT_NONE, NR_THP_DEPOSIT };
/* How a 1 GiB mapping splits: to 262,144 PTEs, or to 512 PMD mappings of
 * which only the affected ones split further. */
enum pud_split { PUD_SPLIT_PTE, PUD_SPLIT_PMD, NR_PUD_SPLIT };

/* What a migration (alloc_contig_range: gigantic pages, 1 GiB THPs;
 * memory hot-remove; move_pages and migrate_pages; NUMA balancing) does
 * with a 1 GiB THP, the session's open question: block, it never moves
 * (the migration fails for it and the range stays busy); split, it is
 * split to 4 KiB pages that migrate; whole, it moves as one folio to a
 * gigabyte the contiguous allocator finds on the target node, or stays
 * whole where it is if none can be had (a 2 MiB THP is split then). */
enum gb_thp_migration {
	GB_THP_MIGRATION_BLOCK,
	GB_THP_MIGRATION_SPLIT,
	GB_THP_MIGRATION_WHOLE,
	NR_GB_THP_MIGRATION
};

/* THP sizes, smallest first: the PMD (2 MiB) and the PUD (1 GiB). */
enum thp_size { THP_PMD, THP_PUD, NR_THP_SIZES };

struct thp_params {
	enum thp_enabled pud_enabled;   /* hugepages-1048576kB/enabled (2 MiB: machine's thp) */
	enum thp_defrag defrag;
	enum thp_deposit deposit;
	enum pud_split pud_split;
	enum gb_thp_migration gb_migration;
};

extern const char *const thp_enabled_names[NR_THP_ENABLED];
extern const char *const thp_defrag_names[NR_THP_DEFRAG];
extern const char *const thp_deposit_names[NR_THP_DEPOSIT];
extern const char *const pud_split_names[NR_PUD_SPLIT];
extern const char *const gb_thp_migration_names[NR_GB_THP_MIGRATION];
/* hugepages-2048kB and hugepages-1048576kB */
extern const char *const thp_size_names[NR_THP_SIZES];

/* The kernel's defaults: 1 GiB never, defrag madvise, the RFC's full
 * deposit and split to PTEs, 1 GiB THPs blocking migration. */
void thp_params_default(struct thp_params *p);

#endif
