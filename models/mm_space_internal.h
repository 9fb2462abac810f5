/* Data structures shared by the mm_space*.c files (not part of the API).
 *
 * Memory per process: a VMA is 40 bytes in a sorted array; a PTE table
 * (maps 2 MiB) is 2192 bytes: 512 pfns, 512-bit lazy-free and
 * write-protect bitmaps, its own frame, a count and a pointer to NUMA
 * balancing's state (576 bytes, made when the scanner first marks the
 * table); PMD, PUD and PGD tables are 4104 bytes each (512 child
 * pointers).  No per-page heap object exists, except for the pages a fork
 * shares (mm_space_fork.c): 8 bytes and 4 per extra process, in a table
 * by pfn that holds nothing until the first fork.
 *
 * Concurrency.  Simulated threads of one process may call into the same
 * mm_struct, and any call into the engine (mm_charge, an allocation, a
 * free) may switch to another thread.  The kernel serialises with
 * mmap_lock and the page-table locks; here every change to the VMAs and
 * tables is made between two engine calls, and no table pointer is kept
 * across an engine call: walks start again from the PGD afterwards.
 * munmap and exit turn the VMAs they remove into placeholders ("dying",
 * tagged with the call's token) while they zap: faults and madvise see a
 * hole there, new mappings do not go there, and no page table under them
 * is freed by anyone else, as the kernel's mmap_lock would ensure.
 * exit_mmap itself must not race with other calls on the same process:
 * the kernel runs it once no thread uses the mm any more. */
#ifndef MMSIM_MM_SPACE_INTERNAL_H
#define MMSIM_MM_SPACE_INTERNAL_H

#include "mempolicy.h"
#include "mm_space.h"
#include "swap.h"

#include <glib.h>

#define PTRS_PER_TABLE 512
#define PTE_TABLE_SHIFT 21      /* a PTE table maps 2 MiB */
#define CPUMASK_WORD_BITS (8 * sizeof(unsigned long))    /* CPUs per cpumask word */
#define PMD_SIZE (1ULL << (PAGE_SHIFT + HPAGE_PMD_ORDER))   /* bytes a PMD entry maps */
#define PUD_SIZE (1ULL << (PAGE_SHIFT + HPAGE_PUD_ORDER))   /* bytes a PUD entry maps */

/* Bytes one entry of a table of this level maps (level 1: a page). */
static inline uint64_t level_entry_size(int level)
{
	return 1ULL << (PAGE_SHIFT + 9 * (level - 1));
}

/* Bytes a table of this level maps. */
static inline uint64_t level_span(int level)
{
	return 1ULL << (PAGE_SHIFT + 9 * level);
}

static inline unsigned level_index(uint64_t addr, int level)
{
	return (unsigned)(addr >> (PAGE_SHIFT + 9 * (level - 1))) & (PTRS_PER_TABLE - 1);
}

static inline uint32_t pgtable_offset(int level, uint64_t addr)
{
	return (uint32_t)level << PGTABLE_LEVEL_SHIFT |
	       (uint32_t)(addr >> (PAGE_SHIFT + 9 * level));
}

/* vm_flags the model reads: madvise(MADV_HUGEPAGE / MADV_NOHUGEPAGE). */
#define VM_HUGEPAGE 0x1u
#define VM_NOHUGEPAGE 0x2u

struct vm_area_struct {
	uint64_t vm_start, vm_end;
	int prot;
	unsigned vm_flags;
	unsigned dying;         /* 0: live; else the token of the munmap or exit removing it */
	struct mempolicy policy;    /* mbind(2)'s; MPOL_DEFAULT: the address space's applies */
};

/* NUMA balancing's state of a PTE table, made when task_numa_work first
 * marks it: which entries are PROT_NONE for a hinting fault, and the node
 * of each page's last hinting fault (the folio's last_cpupid, kept with its
 * only mapping; NUMA_NO_LAST_NID: none since it was faulted in). */
#define NUMA_NO_LAST_NID 0xff
struct pte_numa {
	uint64_t protnone[PTRS_PER_TABLE / 64];
	uint8_t last_nid[PTRS_PER_TABLE];
};

/* A PTE table: the data pages it maps, which of them are lazy-free, and
 * which are write-protected for copy-on-write (fork shared them; a huge
 * table has all or none). */
struct pte_table {
	pfn_t page;             /* the frame holding this table; a huge one's deposit, or PFN_NONE */
	uint16_t nr_present;
	bool huge;              /* a PMD mapping of a THP (models/huge_memory.h) */
	uint64_t lazyfree[PTRS_PER_TABLE / 64];
	uint64_t wrprotect[PTRS_PER_TABLE / 64];
	pfn_t pte[PTRS_PER_TABLE];      /* PFN_NONE: not present */
	struct pte_numa *numa;  /* NULL until NUMA balancing marks an entry */
};

static inline bool pte_protnone(const struct pte_table *pt, unsigned i)
{
	return pt->numa && (pt->numa->protnone[i / 64] >> (i % 64) & 1);
}

/* Entries marked MADV_FREE. */
static inline unsigned lazyfree_count(const struct pte_table *pt)
{
	unsigned n = 0;

	for (unsigned w = 0; w < PTRS_PER_TABLE / 64; w++)
		n += (unsigned)__builtin_popcountll(pt->lazyfree[w]);
	return n;
}

/* The entry maps a new page, or none: no mark, no last node. */
static inline void pte_numa_reset(struct pte_table *pt, unsigned i)
{
	if (pt->numa) {
		pt->numa->protnone[i / 64] &= ~(1ULL << (i % 64));
		pt->numa->last_nid[i] = NUMA_NO_LAST_NID;
	}
}

/* A PGD, PUD or PMD table: pointers to the tables of the level below. */
struct pt_dir {
	pfn_t page;             /* a huge one's deposit, or PFN_NONE */
	uint16_t nr;            /* non-NULL entries */
	bool huge;              /* a PMD table standing for a PUD mapping of a 1 GiB THP */
	void *entry[PTRS_PER_TABLE];
};

struct mm_struct {
	struct machine *m;
	unsigned pid;
	unsigned next_token;    /* tags the placeholders of each munmap or exit */
	unsigned map_count;     /* live VMAs */
	GArray *vmas;           /* struct vm_area_struct, sorted by address */
	/* The index find_live_vma found last, tried first (a fault looks its
	 * VMA up three times, a range of faults the same one): a cache. */
	unsigned vma_hint;
	struct pt_dir *pgd;
	unsigned long rss, nr_pgtables, nr_lazyfree;
	/* THP mappings: PMD entries mapping 2 MiB (outside PUD mappings) and
	 * PUD entries mapping 1 GiB. */
	unsigned long nr_thp_pmd, nr_thp_pud;
	struct mempolicy policy;    /* set_mempolicy(2)'s */
	/* NUMA balancing (models/numa_balancing.c): when task_numa_work runs
	 * next (ns; 0: not started), its period (ns), where the next window
	 * starts, and the hinting faults since the period was last updated. */
	uint64_t numa_next_scan, numa_scan_period, numa_scan_offset;
	unsigned long numa_faults_local, numa_faults_remote;
	/* mm_cpumask: the CPUs that ran calls on this address space, whose
	 * TLBs a migration must flush. */
	unsigned long *cpumask;
	struct task_kobjs *kobjs;   /* its threads and kernel objects (models/fork.c) */
	struct spinlock mmap_lock;
	unsigned mm_users;          /* mmget's references */
	/* The split PTE locks, by PTE table (address >> PTE_TABLE_SHIFT).  The
	 * kernel keeps each in its table's ptdesc; here they outlive the
	 * tables, so that no thread waits on a lock a free made disappear. */
	GHashTable *ptlocks;
	/* The PTE table lock pte_lockptr found last (they live as long as
	 * the mm): a fault and its neighbours ask for the same one. */
	struct spinlock *ptl_last;
	gsize ptl_last_key;
	struct mmu_notifier *notifiers;    /* mmu_notifier_register's */
};

/* mmu_notifier_invalidate_range_start: tell the subscribers. */
static inline void mmu_notifier_invalidate(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	for (struct mmu_notifier *n = mm->notifiers; n; n = n->next)
		n->invalidate_range_start(n, start, end);
}

/* The machine's process table. */
struct mm_registry {
	GTree *by_pid;          /* pid -> mm_struct, iterated in pid order */
	unsigned next_pid;
	/* pfn -> struct anon_share: the order-0 pages that more than one
	 * process maps (NULL until a fork shares one). */
	GHashTable *shared;
	bool forked;            /* a fork ran: pages and THPs may be shared */
};

/* The processes besides the owner record's that map a shared order-0
 * page, all at the owner record's address (fork keeps addresses): the
 * page's map count is 1 + nr. */
struct anon_share {
	unsigned nr;
	unsigned pid[];
};

/* mmu_gather: cleared entries and the pages to free, a batch at a time. */
struct mmu_gather {
	struct mm_ctx *ctx;
	struct mm_struct *mm;
	unsigned nr;
	unsigned long ptes;     /* entries cleared and not charged yet */
	bool need_flush;        /* something was unmapped: the TLB must be flushed */
	uint64_t ptl_addr;      /* an address of the batch's first PTE table */
	pfn_t pages[FOLIO_BATCH_SIZE];
	/* THPs unmapped whole: a gigantic folio to free (PFN_NONE: none) and
	 * the deposited table frames (NULL until the first). */
	pfn_t giant;
	GArray *tables;
};

/* The batch must be flushed before more is gathered. */
static inline bool tlb_full(const struct mmu_gather *tlb)
{
	return tlb->nr == FOLIO_BATCH_SIZE || tlb->giant != PFN_NONE;
}

static inline struct vm_area_struct *vma_at(const struct mm_struct *mm, unsigned i)
{
	return &g_array_index(mm->vmas, struct vm_area_struct, i);
}

/* Bit i of a PTE table's bitmap. */
static inline bool pte_bit(const uint64_t *map, unsigned i)
{
	return map[i / 64] >> (i % 64) & 1;
}

static inline void pte_set_bit(uint64_t *map, unsigned i, bool on)
{
	if (on)
		map[i / 64] |= 1ULL << (i % 64);
	else
		map[i / 64] &= ~(1ULL << (i % 64));
}

static inline bool pte_lazyfree(const struct pte_table *pt, unsigned i)
{
	return pte_bit(pt->lazyfree, i);
}

static inline void pte_set_lazyfree(struct pte_table *pt, unsigned i, bool on)
{
	pte_set_bit(pt->lazyfree, i, on);
}

static inline bool pte_wrprotected(const struct pte_table *pt, unsigned i)
{
	return pte_bit(pt->wrprotect, i);
}

/* mm_space.c: the CPU ran this address space (mm_cpumask). */
static inline void mm_cpumask_set(struct mm_struct *mm, unsigned cpu)
{
	mm->cpumask[cpu / CPUMASK_WORD_BITS] |= 1UL << (cpu % CPUMASK_WORD_BITS);
}

/* mm_space.c: the PTE table lock of addr (pte_lockptr). */
struct spinlock *pte_lockptr(struct mm_struct *mm, uint64_t addr);
/* mmap_read_lock and unlock at once: an rwsem reader moves the lock
 * word's line and waits for a writer, but readers do not exclude each
 * other, so the model takes the lock only when a writer holds it, and
 * only for the entry (a writer does not wait for the readers inside). */
void mmap_read_lock_entry(struct mm_ctx *ctx, struct mm_struct *mm, enum lock_site site);

/* mm_space.c: VMA lookups. */
unsigned vma_lower_bound(const struct mm_struct *mm, uint64_t addr);
unsigned next_live(const struct mm_struct *mm, uint64_t addr);
/* find_live_vma's search when the hint misses. */
struct vm_area_struct *__find_live_vma(const struct mm_struct *mm, uint64_t addr);

/* find_vma_intersection for one address, placeholders excluded; the hint
 * first, inline (a fault looks up its VMA several times). */
static inline struct vm_area_struct *find_live_vma(const struct mm_struct *mm, uint64_t addr)
{
	if (G_LIKELY(mm->vma_hint < mm->vmas->len)) {
		struct vm_area_struct *vma = vma_at(mm, mm->vma_hint);

		if (vma->vm_start <= addr && addr < vma->vm_end)
			return vma->dying ? NULL : vma;
	}
	return __find_live_vma(mm, addr);
}
bool range_has_vma(const struct mm_struct *mm, uint64_t start, uint64_t end);
void vma_split(struct mm_struct *mm, unsigned i, uint64_t addr);
void vma_merge_range(struct mm_struct *mm, unsigned lo, unsigned hi);

/* mm_space_pgtable.c: page tables. */
struct pt_dir *pt_dir_new(pfn_t page);
struct pte_table *pte_table_new(pfn_t page);
void pte_table_free(struct pte_table *pt);
void free_table_tree(struct pt_dir *dir, int level);
struct pt_dir *dir_lookup(const struct mm_struct *mm, int level, uint64_t addr);

/* The PMD table under the PUD entry at haddr, or NULL. */
static inline struct pt_dir *pud_entry(const struct mm_struct *mm, uint64_t haddr)
{
	struct pt_dir *pud = dir_lookup(mm, PGTABLE_PUD, haddr);

	return pud ? pud->entry[level_index(haddr, PGTABLE_PUD)] : NULL;
}

/* The PTE table mapping addr, or NULL (a huge one included): the walk
 * every fault makes several times, unrolled. */
static inline struct pte_table *pte_table_lookup(const struct mm_struct *mm, uint64_t addr)
{
	struct pt_dir *pud, *pmd;

	if (addr >= TASK_SIZE || !mm->pgd)
		return NULL;
	pud = mm->pgd->entry[level_index(addr, PGTABLE_PGD)];
	if (!pud)
		return NULL;
	pmd = pud->entry[level_index(addr, PGTABLE_PUD)];
	return pmd ? pmd->entry[level_index(addr, PGTABLE_PMD)] : NULL;
}
pfn_t fault_alloc(struct mm_ctx *ctx, struct mm_struct *mm, int level, uint64_t addr);
void *next_table(const struct mm_struct *mm, int level, uint64_t addr, uint64_t end,
		 uint64_t *table_start);
void tlb_gather_init(struct mmu_gather *tlb, struct mm_ctx *ctx, struct mm_struct *mm);
uint64_t zap_some(struct mmu_gather *tlb, uint64_t addr, uint64_t end);
void tlb_flush_batch(struct mmu_gather *tlb);
void tlb_finish_mmu(struct mmu_gather *tlb);
void zap_page_range(struct mmu_gather *tlb, uint64_t start, uint64_t end);
void free_pgtables(struct mmu_gather *tlb, uint64_t start, uint64_t end);
unsigned long madvise_free_range(struct mm_struct *mm, uint64_t start, uint64_t end);
unsigned long count_present(const struct mm_struct *mm, uint64_t start, uint64_t end);

/* mm_space_fork.c: pages a fork shares.  No engine call in any. */
/* Whether the anonymous page pfn (order 0, or a THP's) is mapped by more
 * than one process. */
bool anon_mapped_shared(struct machine *m, pfn_t pfn);
bool __anon_share_drop(struct machine *m, pfn_t pfn, unsigned pid);
/* Process pid stops mapping the order-0 page pfn: true if another still
 * maps it (the page must not be freed); the owner record passes on to
 * another mapper when pid held it.  Inline until a fork shares a page. */
static inline bool anon_share_drop(struct machine *m, pfn_t pfn, unsigned pid)
{
	return m->procs && m->procs->shared && __anon_share_drop(m, pfn, pid);
}
/* Whether pid maps pfn through the share table (not the owner record). */
bool anon_share_has(const struct machine *m, pfn_t pfn, unsigned pid);
/* Process pid unmapped the order-0 pages pages[0..n): those another
 * process still maps are taken out of the array; how many are left to
 * free. */
unsigned anon_unshare_pages(struct machine *m, unsigned pid, pfn_t *pages, unsigned n);
/* For the checker: the share table against the page tables (mappings:
 * each shared page's mappings the page-table walk found). */
void anon_share_check(struct machine *m, GHashTable *mappings, GString *out);
/* do_wp_page for a write to the present, write-protected page at addr:
 * 0, or -MM_ENOMEM. */
int do_wp_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr);

/* mm_space.c's helpers for madvise.c and mprotect.c. */
static inline bool prot_valid(int prot)
{
	return !(prot & ~(PROT_READ | PROT_WRITE));
}

static inline uint64_t page_align(uint64_t len)
{
	return (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/* What a VMA change sets: a protection (prot >= 0) and vm_flags. */
struct vma_change {
	int prot;               /* -1: unchanged */
	unsigned set, clear;    /* vm_flags */
};
/* vma_modify (mm/vma.c), do_mprotect_pkey's and madvise_update_vma's walk:
 * as the kernel does, the VMAs before a hole are changed and the hole
 * makes it -ENOMEM; THP mappings the new VMA edges cut are split first
 * (-ENOMEM, nothing changed, if that fails).  *ptes: the present entries
 * of the VMAs whose protection changed. */
int vma_modify_range(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end,
		     const struct vma_change *c, unsigned long *ptes);

/* huge_memory.c: the THP side of faults, zaps and VMA changes. */
/* do_huge_pmd_anonymous_page and its PUD twin for a fault at addr that
 * found no page: 0 if a THP now maps addr (*installed its pages if this
 * call mapped it), 1 to go on with a 4 KiB fault, or -errno. */
int do_huge_anonymous_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr,
			   unsigned long *installed);
/* Split the THP mappings that an edge at addr cuts (split_huge_pmd_address,
 * and its PUD twin), allocating the tables no deposit holds: 0, or
 * -MM_ENOMEM with the mappings intact. */
int split_huge_at(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr);
/* madvise_free_huge_pmd's (and madvise_free_pte_range's) split: a THP of
 * this process that [start, end) covers in part, at either edge, is split,
 * mappings and folio (split_huge_page), so that only the range's pages
 * become lazy-free; one another process maps too is left whole, as the
 * kernel skips it. */
void madvise_free_split(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end);
/* zap_huge_pmd / zap_huge_pud for the huge table pt (at ts) that [addr,
 * end) meets: unmapped whole if covered, split in place if it can be, else
 * left.  The address to go on from.  No engine call. */
uint64_t zap_huge(struct mmu_gather *tlb, struct pte_table *pt, uint64_t ts, uint64_t addr,
		  uint64_t end);
/* A PTE mapping of pfn, a page of a THP, was cleared: the folio is freed
 * through tlb when no mapping is left, else queued for a deferred split.
 * false if pfn is not in a THP.  No engine call. */
bool thp_unmap_page(struct mmu_gather *tlb, pfn_t pfn);
/* Free what zap_huge gathered (the tables, the gigantic folio). */
void tlb_free_huge(struct mmu_gather *tlb);
/* thp_vma_allowable_order(): the size's enabled knob and the VMA's advice. */
bool thp_vma_allowable(const struct machine *m, const struct vm_area_struct *vma,
		       enum thp_size size);
/* A THP of 2^order pages at folio, mapped whole by mm at haddr through a
 * PMD or PUD entry just installed: its record and the huge-mapped count. */
void thp_folio_mapped(struct mm_struct *mm, pfn_t folio, unsigned order, uint64_t haddr);
/* A 1 GiB folio for mm at haddr (huge_memory.c), zero of its pages cleared. */
pfn_t alloc_pud_folio(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t haddr, gfp_t gfp,
		      unsigned long zero);
/* collapse_huge_page() (khugepaged.c) for the 2 MiB at haddr: a new order-9 folio (the
 * GFP of khugepaged with defrag, whatever the knobs say), the present
 * pages copied and the rest zeroed, the PTE table replaced by a PMD
 * mapping and the old pages freed.  A table holding pages of a THP is left
 * as it is (the model collapses only 4 KiB pages).  0, 1 if there was
 * nothing to collapse, or -MM_ENOMEM / -MM_EAGAIN. */
int collapse_huge_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t haddr);
/* madvise(MADV_COLLAPSE): every gigabyte of [start, end) inside a VMA
 * (not MADV_NOHUGEPAGE) collapsed into a 1 GiB THP if that size is not
 * "never", then every 2 MiB block left into a 2 MiB one.  0, or the last
 * failure: -MM_ENOMEM (no huge page), -MM_EAGAIN (the table changed, or
 * holds a THP's pages). */
int madvise_collapse(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end);
/* Whether pfn is a page of a THP that more than one process maps. */
bool thp_mapped_shared(struct machine *m, pfn_t pfn);
/* The deposit a THP of this size takes (per thp_deposit), allocated for
 * mm's mapping at haddr into dep: how many frames it got (the frames in
 * dep are the caller's either way); *want how many it needs. */
unsigned thp_deposit_alloc(struct mm_ctx *ctx, struct mm_struct *mm, enum thp_size size,
			   uint64_t haddr, pfn_t *dep, unsigned *want);
/* copy_huge_pmd / copy_huge_pud with no engine call: the huge mapping
 * src maps at haddr is shared into dir (dst's PMD table, or PUD table),
 * with the deposit dep (ndep frames, as thp_deposit_alloc made them),
 * write-protected in both; the entries written. */
unsigned long copy_huge_pmd(struct mm_struct *dst, struct mm_struct *src, struct pt_dir *dir,
			    uint64_t haddr, const pfn_t *dep, unsigned ndep);
unsigned long copy_huge_pud(struct mm_struct *dst, struct mm_struct *src, struct pt_dir *dir,
			    uint64_t haddr, const pfn_t *dep, unsigned ndep);
/* A fork shares n more pages of the THP pfn belongs to with process pid. */
void thp_dup_rmap(struct machine *m, pfn_t pfn, unsigned pid, unsigned long n);
/* For the checker: NULL if pfn, mapped at addr of process pid, is the
 * page of a THP there, else what is wrong. */
const char *thp_check_page(struct machine *m, pfn_t pfn, unsigned pid, uint64_t addr);
/* For the checker: every THP's count of mapped pages against the tables. */
void thp_check_folios(struct machine *m, GString *out);

#endif
