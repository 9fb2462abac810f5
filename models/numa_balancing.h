/* Automatic NUMA balancing (kernel/sched/fair.c's task_numa_work and
 * should_numa_migrate_memory, mm/memory.c's do_numa_page, mm/migrate.c's
 * migrate_misplaced_folio): every scan period an address space has a
 * window of its pages made PROT_NONE; the next access to each takes a
 * hinting fault, and a page found on another node than the faulting
 * CPU's moves there once the same node faulted on it twice in a row.
 *
 * The kernel runs task_numa_work as task work on the process's own
 * threads when they return to user space; here it runs on the thread that
 * accesses the address space (p:touch) when the scan is due, and takes
 * that thread's time, as it would in the kernel. */
#ifndef MMSIM_NUMA_BALANCING_H
#define MMSIM_NUMA_BALANCING_H

#include "mm_env.h"
#include "mmzone.h"

/* The kernel's defaults (kernel/sched/fair.c): off, scan delay and
 * minimum period 1000 ms, maximum period 60000 ms, 256 MB per scan, and
 * numa_balancing_promote_rate_limit_MBps' 65536 MB/s per node. */
void numab_params_default(struct numab_params *p);

struct mm_struct;
/* task_tick_numa(): run task_numa_work if the address space's scan is due
 * (the first call starts the scan delay). */
void task_tick_numa(struct mm_ctx *ctx, struct mm_struct *mm);
/* do_numa_page(): the hinting fault on the marked page at addr, made
 * accessible again and migrated to ctx's node if misplaced.  0. */
int do_numa_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr);

#endif
