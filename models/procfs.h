/* Kernel-format dumps (mm/vmstat.c): /proc/buddyinfo, /proc/pagetypeinfo
 * and the zone lines of /proc/zoneinfo, byte for byte in the kernel's
 * layout. */
#ifndef MMSIM_PROCFS_H
#define MMSIM_PROCFS_H

#include "mmzone.h"

#include <glib.h>

void proc_buddyinfo(struct machine *m, GString *out);
void proc_pagetypeinfo(struct machine *m, GString *out);
/* Per zone: the header, free pages, watermarks, sizes and protection
 * lines, and start_pfn; the per-node stats, zone counters and pagesets
 * sections are not printed. */
void proc_zoneinfo(struct machine *m, GString *out);
/* /proc/vmstat: the counters the model keeps, in the kernel's order. */
void proc_vmstat(struct machine *m, GString *out);
/* /sys/kernel/debug/superpageblocks (policy spb): lists and counters of
 * every zone's superpageblocks, in the series tip's format. */
void proc_superpageblocks(struct machine *m, GString *out);
/* The `transparent_hugepage` results file: the knobs, and per size its
 * enabled value and mTHP counters (hugepages-<size>kB/stats). */
void proc_transparent_hugepage(struct machine *m, GString *out);
/* NUMA event item of node nid's zones summed (nid -1: every node's). */
unsigned long node_numa_event(struct machine *m, int nid, enum numa_stat_item item);
/* /sys/devices/system/node/node<nid>/vmstat: the node's zone figures
 * and NUMA events, and its page cache. */
void proc_node_vmstat(struct machine *m, unsigned nid, GString *out);
/* Node nid's pages by what holds them, as node<N>/meminfo splits them:
 * one walk over the node's blocks (a block's head says its order), so
 * O(blocks), for scripts' end-of-phase figures rather than hot loops. */
struct node_meminfo {
	unsigned long managed, free, pcp;                      /* free: buddy only */
	unsigned long anon, file, pgtable, slab, kernel;       /* kernel: not slab */
	unsigned long hugetlb, reserved;
	unsigned long pageblocks[MIGRATE_TYPES];
};
void node_meminfo(struct machine *m, int nid, struct node_meminfo *out);
/* numastat(8): the NUMA events (/sys/devices/system/node/node<N>/numastat
 * names) as rows, one column per node. */
void proc_numastat(struct machine *m, GString *out);

#endif
