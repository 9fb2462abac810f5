/* khugepaged (mm/khugepaged.c) for 2 MiB THPs only, as the LSFMM session
 * agreed for 1 GiB ones: a pass scans pages_to_scan pages' worth of PTE
 * tables (512 per 2 MiB block, present or not), processes in pid order
 * from where the last pass stopped, and collapses each 2 MiB block that a
 * VMA allowing THPs covers (`thp` always, or madvise and MADV_HUGEPAGE)
 * whose PTE table holds only 4 KiB pages, at least one, at most
 * max_ptes_none empty entries and at most max_ptes_shared pages shared
 * with another process.  The kernel wakes it every scan_sleep;
 * here a thread of lua/mmsim/khugepaged.lua runs the passes. */
#ifndef MMSIM_KHUGEPAGED_H
#define MMSIM_KHUGEPAGED_H

#include "mm_env.h"
#include "mmzone.h"

/* /sys/kernel/mm/transparent_hugepage/khugepaged defaults. */
#define KHUGEPAGED_PAGES_TO_SCAN 4096
#define KHUGEPAGED_SCAN_SLEEP_MS 10000
#define KHUGEPAGED_MAX_PTES_NONE 511
/* max_ptes_shared: a block with more pages that another process maps too
 * (a fork shared them) is left alone. */
#define KHUGEPAGED_MAX_PTES_SHARED 256

/* Where the scan goes on from (khugepaged_scan): a process and an address in it. */
struct khugepaged_scan {
	unsigned pid;
	bool entered;       /* addr is an address of process pid */
	uint64_t addr;
};

struct khugepaged_result {
	unsigned long scanned;      /* pages' worth of entries looked at */
	unsigned long collapsed;    /* THPs made (thp_collapse_alloc) */
	unsigned long failed;       /* blocks whose collapse failed */
};

/* khugepaged_do_scan(): one pass; its figures are added to r. */
void khugepaged_do_scan(struct mm_ctx *ctx, struct machine *m, unsigned long pages_to_scan,
			unsigned max_ptes_none, struct khugepaged_result *r);

#endif
