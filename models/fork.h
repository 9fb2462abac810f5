/* A process's kernel objects (kernel/fork.c copy_process, mm/mmap.c): the
 * slab objects fork and exec make and exit frees, and the kernel stack,
 * THREAD_SIZE (16 KiB) of order-0 pages through vmalloc (VMAP_STACK).
 * Made only while the slab model is on.  Not modelled: the per-CPU cache
 * of two freed stacks (NR_CACHED_STACKS), VMAs made by later mmap calls. */
#ifndef MMSIM_FORK_H
#define MMSIM_FORK_H

#include "mm_env.h"
#include "mmzone.h"

/* VMAs of a freshly exec'ed dynamically linked program (text, data, bss,
 * heap, stack, vdso and a few libraries' segments), and the anonymous
 * ones that carry an anon_vma_chain. */
#define NR_EXEC_VMAS 24
#define NR_EXEC_ANON_VMAS 12
#define THREAD_SIZE_PAGES 4

struct task_kobjs;

/* copy_process()'s objects on ctx's CPU and node: 0 and *out (NULL while
 * the slab model is off), or -1 if an allocation failed (nothing is held). */
int copy_process_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs **out);
/* The owner word of kernel stack pages. */
uint32_t task_stack_owner(void);
/* do_exit(): the objects and the stack go back. */
void free_task_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k);

#endif
