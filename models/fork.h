/* A process's and its threads' kernel objects (kernel/fork.c copy_process,
 * mm/mmap.c): the slab objects fork, clone and exec make and exit frees,
 * and each thread's kernel stack, THREAD_SIZE (16 KiB): four order-0 pages
 * through vmalloc and a vmap_area object with VMAP_STACK (the machine's
 * vmap_stack, on by default as in Debian's kernels), one order-2 block
 * without.  Made only while the slab model is on.  Not modelled: the
 * per-CPU cache of two freed stacks (NR_CACHED_STACKS), VMAs made by later
 * mmap calls. */
#ifndef MMSIM_FORK_H
#define MMSIM_FORK_H

#include "mm_env.h"
#include "mmzone.h"

/* VMAs of a freshly exec'ed dynamically linked program (text, data, bss,
 * heap, stack, vdso and a few libraries' segments), and the anonymous
 * ones that carry an anon_vma_chain. */
#define NR_EXEC_VMAS 24
#define NR_EXEC_ANON_VMAS 12
#define THREAD_SIZE_ORDER 2
#define THREAD_SIZE_PAGES (1u << THREAD_SIZE_ORDER)

struct task_kobjs;

/* m->kstacks counts the stacks made and freed (every thread's). */

/* copy_process()'s objects on ctx's CPU and node, its first thread's
 * (tid 0) included: 0 and *out, or -1 if an allocation failed (nothing is
 * held).  A process made while the slab model is off keeps its threads'
 * count only, it and its threads have no objects. */
int copy_process_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs **out);
/* copy_process() with CLONE_THREAD: a task_struct, a pid and a stack for
 * one more thread of the process, *tid its number; 0, or -1 if an
 * allocation failed (nothing is held). */
int copy_thread_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k,
			unsigned *tid);
/* Thread tid (not the first) exits: its objects go back.  -1 if k has no
 * such thread. */
int exit_thread_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k, unsigned tid);
/* The bookkeeping of k alone, when the machine goes. */
void task_objects_forget(struct task_kobjs *k);
/* Threads alive, the first included. */
unsigned task_threads(const struct task_kobjs *k);
/* The owner word of kernel stack pages. */
uint32_t task_stack_owner(void);
/* do_exit() of every thread: the objects and the stacks go back. */
void free_task_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k);
/* Every thread's stack is whole, its pages allocated as a stack's, and
 * m->kstacks counts them: NULL, or a g_malloc'ed message. */
char *kstack_check(struct machine *m);

#endif
