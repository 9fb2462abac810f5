/* Processes and their anonymous memory: VMAs, page tables that are real
 * allocations, first-touch faults, munmap, madvise, mprotect, exit, and the
 * reverse map from a frame to its (process, virtual page).
 * (mm/mmap.c, mm/memory.c, mm/madvise.c, mm/mprotect.c, kernel/exit.c) */
#ifndef MMSIM_MM_SPACE_H
#define MMSIM_MM_SPACE_H

#include "mm_env.h"
#include "mmzone.h"

/* Owner words (page_owner()): the kind in the top bits, an id below.
 *   ANON:    id = pid, offset = virtual page number
 *   PGTABLE: id = pid, offset = level << 28 | index of the table
 *   KERNEL:  id = a kernel allocation source, offset = its own
 *   FILE:    id = a file, offset = the page's index in it
 *   HUGETLB: id = 0, offset = the block's index in its gigantic page
 *   RESERVED: id = what the boot reservation is for, offset = 0 */
#define OWNER_KIND_SHIFT 28
#define OWNER_ID_MASK ((1u << OWNER_KIND_SHIFT) - 1)
/* KERNEL ids from here up are the model's own allocators' (kvmalloc, slab):
 * scripts number their kernel sources below it, so m:free never takes a
 * page one of those allocators holds for a script's own. */
#define OWNER_KERNEL_MODEL_ID 0x0f000000u
enum owner_kind {
	OWNER_KIND_NONE,
	OWNER_KIND_ANON,
	OWNER_KIND_PGTABLE,
	OWNER_KIND_KERNEL,
	OWNER_KIND_FILE,        /* page cache: id = file, offset = page index */
	OWNER_KIND_HUGETLB,     /* a gigantic page: offset = its MAX_PAGE_ORDER block's index */
	OWNER_KIND_RESERVED,    /* reserved at boot (PageReserved): id = enum memblock_use */
};

static inline uint32_t make_owner(enum owner_kind kind, uint32_t id)
{
	return (uint32_t)kind << OWNER_KIND_SHIFT | (id & OWNER_ID_MASK);
}

static inline enum owner_kind owner_kind(uint32_t owner)
{
	return (enum owner_kind)(owner >> OWNER_KIND_SHIFT);
}

/* The address space (x86-64, 4-level paging, 4 KiB pages).  TASK_SIZE is
 * 2^44 (16 TiB) rather than the kernel's 2^47 so that the virtual page
 * number, an ANON page's owner offset, fits its 32-bit word.  mmap_base
 * sits a 128 MiB stack gap below it (mmap_base() with the default 8 MiB
 * stack rlimit and no randomisation), and mappings are placed top-down
 * from there down to mmap_min_addr. */
#define TASK_SIZE (1ULL << 44)
#define MMAP_BASE (TASK_SIZE - (128ULL << 20))
#define MMAP_MIN_ADDR 0x10000ULL

/* PGTABLE owner offsets: level << PGTABLE_LEVEL_SHIFT | index, where the
 * index is the table's first address shifted by the span of one table of
 * that level: addr >> 21 for a PTE table, >> 30 for a PMD table, >> 39
 * for a PUD table, 0 for the PGD. */
enum pgtable_level { PGTABLE_PTE = 1, PGTABLE_PMD, PGTABLE_PUD, PGTABLE_PGD };
#define PGTABLE_LEVEL_SHIFT 28

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define MADV_FREE 8
#define MADV_DONTNEED 4
#define MADV_HUGEPAGE 14
#define MADV_NOHUGEPAGE 15
#define MADV_COLLAPSE 25

/* Errors, as the kernel returns them (negated). */
#define MM_EINVAL 22
#define MM_ENOMEM 12
#define MM_EFAULT 14
#define MM_EACCES 13
#define MM_EBUSY 16
#define MM_EAGAIN 11
#define MM_EEXIST 17
#define MM_EINTR 4

struct mm_struct;

/* A new process with an empty address space (its PGD page allocated on
 * ctx's node); NULL if that allocation fails.  Registered in the machine's
 * process table under a new pid (1, 2, ...). */
struct mm_struct *mm_alloc(struct mm_ctx *ctx, struct machine *m);
/* clone(CLONE_VM | CLONE_THREAD) on ctx's CPU: one more thread, *tid its
 * number (1, 2, ...), with its kernel objects if the process was made
 * while the slab model was on (models/fork.c); 0, or -MM_ENOMEM.
 * mm_exit_thread: thread tid exits; -MM_EINVAL if there is none such (the
 * first thread, 0, ends with exit_mmap). */
int mm_clone_thread(struct mm_ctx *ctx, struct mm_struct *mm, unsigned *tid);
int mm_exit_thread(struct mm_ctx *ctx, struct mm_struct *mm, unsigned tid);
unsigned mm_threads(const struct mm_struct *mm);
/* fork(): dup_mm -> dup_mmap.  A new process (one thread) with copies of
 * mm's live VMAs and page tables: its anonymous pages and THPs shared,
 * write-protected in both for copy-on-write, except long-term pinned
 * pages, which are copied (page_needs_cow_for_dma).  NULL if memory ran
 * out (what was copied is undone). */
struct mm_struct *dup_mm(struct mm_ctx *ctx, struct mm_struct *mm);
/* mm_users: mmget() takes a reference for a caller working on mm (a
 * workload's thread, a call in progress that may let other threads run),
 * mmput() drops it.  The kernel's last mmput tears the address space
 * down; here exit_mmap's caller does, and first checks that no reference
 * is left (mm_users() == 0), so that nothing works on a freed mm. */
void mmget(struct mm_struct *mm);
void mmput(struct mm_struct *mm);
unsigned mm_users(const struct mm_struct *mm);
/* exit_mmap(): unmap everything (pages freed in batches through the
 * per-CPU lists, as the kernel's mmu_gather does), free the page tables,
 * and forget the process. */
void exit_mmap(struct mm_ctx *ctx, struct mm_struct *mm);
/* Free every process of a machine being destroyed (no simulated time). */
void mm_free_all(struct machine *m);

/* mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS): the start address,
 * page aligned, or 0 with *err = -MM_EINVAL / -MM_ENOMEM.  Nothing is
 * allocated until first touch. */
uint64_t mmap_anon(struct mm_struct *mm, uint64_t len, int prot, int *err);
/* vm_mmap_pgoff: mmap_anon under mmap_lock for write. */
uint64_t vm_mmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t len, int prot, int *err);
/* mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED): what the
 * range held is unmapped first; 0, or -MM_EINVAL, -MM_ENOMEM (outside
 * [MMAP_MIN_ADDR, TASK_SIZE), or a THP the unmap must split could not be),
 * -MM_EEXIST (another thread mapped part of the range meanwhile). */
int vm_mmap_fixed(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
		  int prot);
/* munmap(), madvise(MADV_DONTNEED | MADV_FREE | MADV_HUGEPAGE |
 * MADV_NOHUGEPAGE | MADV_COLLAPSE), mprotect(): 0 or -errno.  A munmap, mprotect or
 * MADV_DONTNEED whose edges cut a THP mapping splits it first, and fails
 * with -MM_ENOMEM, nothing changed, if the page tables the split needs
 * cannot be allocated (models/huge_memory.h). */
int do_munmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len);
int do_madvise(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
	       int advice);
int do_mprotect(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len, int prot);
/* handle_mm_fault() for one address: 0 if the page is present afterwards
 * (allocated on first touch, zeroed, on the faulting CPU's node), or
 * -MM_EFAULT (no VMA), -MM_EACCES (protection), -MM_ENOMEM (no memory). */
int handle_mm_fault(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, bool write);
/* Touch every page of [addr, addr + len): pages faulted in, or -errno at
 * the first failure (*faulted says how many were faulted before it). */
int touch_range(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
		uint64_t *faulted);

/* mmu_notifier: a subscriber to an address space's invalidations, as the
 * kernel's secondary MMUs (KVM's) are.  Told of each range whose present
 * entries may be cleared, marked (lazy free, write-protected, NUMA hinting)
 * or made inaccessible (mprotect, munmap), before they change; not of a
 * migration or a THP split or collapse, after which the pages are present
 * and unmarked again before any engine call.  A subscriber that has
 * touched pages and heard of no change since knows a touch of them would
 * find them present (touch_range_resident). */
struct mmu_notifier {
	void (*invalidate_range_start)(struct mmu_notifier *sub, uint64_t start, uint64_t end);
	struct mmu_notifier *next;
};
void mmu_notifier_register(struct mm_struct *mm, struct mmu_notifier *sub);
void mmu_notifier_unregister(struct mm_struct *mm, struct mmu_notifier *sub);
/* touch_range of pages the caller knows present, writable and unmarked
 * (an mmu_notifier heard of no change since it touched them): what
 * touch_range does then, without visiting them.  false, having done
 * nothing, if touch_range would still do more (NUMA balancing's tick at
 * each page): the caller touches them with touch_range. */
bool touch_range_resident(struct mm_ctx *ctx, struct mm_struct *mm);

unsigned mm_pid(const struct mm_struct *mm);
/* Resident anonymous pages, page-table pages, and lazily freed pages
 * (MADV_FREE) still resident. */
unsigned long mm_rss(const struct mm_struct *mm);
unsigned long mm_pgtable_pages(const struct mm_struct *mm);
unsigned long mm_lazyfree_pages(const struct mm_struct *mm);
/* Resident pages that another process maps too (a fork shared them):
 * smaps_rollup's Shared_* pages.  Walks the tables, once a fork shared
 * anything. */
unsigned long mm_shared_pages(const struct mm_struct *mm);
/* THP mappings of a size (PMD entries mapping 2 MiB, PUD entries mapping
 * 1 GiB), as smaps_rollup's AnonHugePages adds them up. */
unsigned long mm_thp_mappings(const struct mm_struct *mm, enum thp_size size);
/* The process with this pid, or NULL. */
struct mm_struct *mm_find(struct machine *m, unsigned pid);

/* The reverse map: the process and virtual address an allocated frame
 * backs, checked against the page table.  false for frames that are not
 * anonymous pages of a live process. */
bool rmap_walk_anon(struct machine *m, pfn_t pfn, struct mm_struct **mm, uint64_t *addr);
/* The page currently mapped at addr, or PFN_NONE. */
pfn_t follow_page(struct mm_struct *mm, uint64_t addr);
/* walk_page_range() for the anonymous pages present in [start, end):
 * fn(addr, pfn, priv) for each, in address order.  No engine call, and fn
 * must make none. */
void walk_page_range(const struct mm_struct *mm, uint64_t start, uint64_t end,
		     void (*fn)(uint64_t addr, pfn_t pfn, void *priv), void *priv);
/* Migration's try_to_migrate and remove_migration_ptes in one step: the
 * entry at addr, which must map old, maps new (lazy-free and
 * write-protect state kept), and so does every other process's a fork
 * shared it with; false if it does not map old. */
bool rmap_replace_anon(struct mm_struct *mm, uint64_t addr, pfn_t old, pfn_t new);
/* CPUs in the address space's mm_cpumask: those that ran a fault, munmap,
 * madvise or mprotect on it, or created it. */
unsigned mm_cpumask_weight(const struct mm_struct *mm);

/* The number of VMAs (map_count). */
unsigned mm_map_count(const struct mm_struct *mm);
/* find_vma(): the first VMA that ends above addr; false if there is none. */
bool mm_find_vma(const struct mm_struct *mm, uint64_t addr, uint64_t *start, uint64_t *end,
		 int *prot);
/* The address space checker: VMAs sorted, disjoint and merged; page tables
 * only where VMAs are, each table and data page allocated with the owner
 * record it should have; the counters equal to what the tables hold.  NULL
 * if all holds, else a g_malloc'ed report.  mm_check_all checks every
 * process of the machine. */
char *mm_check_invariants(struct mm_struct *mm);
char *mm_check_all(struct machine *m);

#endif
