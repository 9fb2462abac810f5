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

#endif
