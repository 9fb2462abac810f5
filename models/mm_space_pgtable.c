/* Page tables: walks, the anonymous fault, zapping through an mmu_gather,
 * freeing page-table pages (mm/memory.c, mm/mmu_gather.c, mm/madvise.c). */
#include "huge_memory.h"
#include "mm_space_internal.h"
#include "numa_balancing.h"
#include "page_alloc.h"
#include "swap.h"
#include "pcp.h"

#include <string.h>

struct pt_dir *pt_dir_new(pfn_t page)
{
	struct pt_dir *dir = g_new0(struct pt_dir, 1);

	dir->page = page;
	return dir;
}

void pte_table_free(struct pte_table *pt)
{
	g_free(pt->numa);
	g_free(pt);
}

struct pte_table *pte_table_new(pfn_t page)
{
	struct pte_table *pt = g_new0(struct pte_table, 1);

	pt->page = page;
	memset(pt->pte, 0xff, sizeof(pt->pte));
	return pt;
}

/* Free the model's tables below dir (a table of this level) and dir. */
void free_table_tree(struct pt_dir *dir, int level)
{
	for (unsigned i = 0; i < PTRS_PER_TABLE; i++) {
		if (!dir->entry[i])
			continue;
		if (level - 1 == PGTABLE_PTE)
			pte_table_free(dir->entry[i]);
		else
			free_table_tree(dir->entry[i], level - 1);
	}
	g_free(dir);
}

/* The directory table of this level (PMD, PUD or PGD) covering addr. */
struct pt_dir *dir_lookup(const struct mm_struct *mm, int level, uint64_t addr)
{
	struct pt_dir *dir = mm->pgd;

	for (int l = PGTABLE_PGD; l > level && dir; l--)
		dir = dir->entry[level_index(addr, l)];
	return dir;
}

pfn_t follow_page(struct mm_struct *mm, uint64_t addr)
{
	struct pte_table *pt = pte_table_lookup(mm, addr);

	return pt ? pt->pte[level_index(addr, PGTABLE_PTE)] : PFN_NONE;
}

/* The first table of level `want` below dir (of level dlevel, mapping from
 * base) whose span meets [addr, end), with base <= addr < end. */
static void *next_in(struct pt_dir *dir, int dlevel, uint64_t base, int want, uint64_t addr,
		     uint64_t end, uint64_t *table_start)
{
	uint64_t es = level_entry_size(dlevel);
	unsigned last = (unsigned)MIN((end - 1 - base) / es, PTRS_PER_TABLE - 1);

	for (unsigned i = (unsigned)((addr - base) / es); i <= last; i++) {
		uint64_t cbase = base + i * es;
		void *t;

		if (!dir->entry[i])
			continue;
		if (dlevel - 1 == want) {
			*table_start = cbase;
			return dir->entry[i];
		}
		t = next_in(dir->entry[i], dlevel - 1, cbase, want, MAX(addr, cbase),
			    MIN(end, cbase + es), table_start);
		if (t)
			return t;
	}
	return NULL;
}

/* The lowest existing table of this level (PTE, PMD or PUD) whose span
 * meets [addr, end), and where its span starts; NULL if none.  Only the
 * tables that exist are visited. */
void *next_table(const struct mm_struct *mm, int level, uint64_t addr, uint64_t end,
		 uint64_t *table_start)
{
	end = MIN(end, TASK_SIZE);
	if (addr >= end)
		return NULL;
	return next_in(mm->pgd, PGTABLE_PGD, 0, level, addr, end, table_start);
}

static bool access_ok(int prot, bool write)
{
	return write ? prot & PROT_WRITE : prot & (PROT_READ | PROT_WRITE);
}

/* A present page needs no fault.  A write to a lazy-free page makes it
 * dirty again: MADV_FREE is cancelled for it, as when the kernel finds a
 * lazyfree folio dirty. */
static void touch_present(struct mm_struct *mm, struct pte_table *pt, unsigned i, bool write)
{
	if (write && pte_lazyfree(pt, i)) {
		pte_set_lazyfree(pt, i, false);
		mm->nr_lazyfree--;
	}
}

/* Whether addr needs a fault: 0 if its page is present (the access is done),
 * 1 if it must be faulted in, 2 if it is present but marked for a NUMA
 * hinting fault, 3 if it is a write to a write-protected page (a fork
 * shared it), or -errno. */
static int fault_check(struct mm_struct *mm, uint64_t addr, bool write)
{
	struct vm_area_struct *vma = find_live_vma(mm, addr);
	struct pte_table *pt;
	unsigned i = level_index(addr, PGTABLE_PTE);

	if (!vma)
		return -MM_EFAULT;
	if (!access_ok(vma->prot, write))
		return -MM_EACCES;
	pt = pte_table_lookup(mm, addr);
	if (!pt || pt->pte[i] == PFN_NONE)
		return 1;
	touch_present(mm, pt, i, write);
	if (pte_protnone(pt, i))
		return 2;
	return write && pte_wrprotected(pt, i) ? 3 : 0;
}

/* splitmix64's finaliser: a well-mixed 64-bit hash of x. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Whether the anonymous page faulted at addr into pfn gets a long-term pin
 * (pin_user_pages with FOLL_LONGTERM, as RDMA or vfio take): a share
 * pinned_share of them, picked by a hash of the run's seed, the pid and
 * the virtual page, so that the choice does not depend on the order faults
 * run in.  The kernel moves a page out of ZONE_MOVABLE before pinning it
 * long-term; the model leaves pages there unpinned instead. */
static bool fault_longterm_pin(const struct mm_struct *mm, uint64_t addr, pfn_t pfn)
{
	struct machine *m = mm->m;
	uint64_t h;

	if (m->pinned_share <= 0 || pfn_zone(m, pfn)->idx == ZONE_MOVABLE)
		return false;
	h = mix64(m->pin_seed ^ mix64((uint64_t)mm->pid << 32 | (addr >> PAGE_SHIFT)));
	return (double)(h >> 11) * 0x1.0p-53 < m->pinned_share;
}

/* One pass of the fault, with no engine call: walk down from the PGD,
 * installing the tables and the data page allocated so far (stash, by
 * level, 0 = the data page).  0 when the page is present, -errno, or 1 with
 * *need the level of the page to allocate before the next pass.  Pages
 * another thread installed first stay in the stash, to be freed. */
static int fault_step(struct mm_struct *mm, uint64_t addr, bool write, pfn_t *stash, int *need,
		      unsigned *written, pfn_t *installed)
{
	struct vm_area_struct *vma = find_live_vma(mm, addr);
	struct pt_dir *dir = mm->pgd;
	struct pte_table *pt;
	unsigned i;

	if (!vma)
		return -MM_EFAULT;
	if (!access_ok(vma->prot, write))
		return -MM_EACCES;
	/* Mostly the tables are all there. */
	pt = pte_table_lookup(mm, addr);
	for (int level = PGTABLE_PUD; !pt && level >= PGTABLE_PTE; level--) {
		i = level_index(addr, level + 1);
		if (!dir->entry[i]) {
			if (stash[level] == PFN_NONE) {
				*need = level;
				return 1;
			}
			if (level == PGTABLE_PTE)
				dir->entry[i] = pte_table_new(stash[level]);
			else
				dir->entry[i] = pt_dir_new(stash[level]);
			stash[level] = PFN_NONE;
			dir->nr++;
			mm->nr_pgtables++;
			(*written)++;
		}
		if (level == PGTABLE_PTE)
			pt = dir->entry[i];
		else
			dir = dir->entry[i];
	}
	i = level_index(addr, PGTABLE_PTE);
	if (pt->pte[i] != PFN_NONE) {
		touch_present(mm, pt, i, write);
		return 0;
	}
	if (stash[0] == PFN_NONE) {
		*need = 0;
		return 1;
	}
	pt->pte[i] = stash[0];
	pte_numa_reset(pt, i);
	if (fault_longterm_pin(mm, addr, stash[0]))
		mm->m->mm.flags[stash[0]].aux |= PG_pinned;
	*installed = stash[0];
	stash[0] = PFN_NONE;
	pt->nr_present++;
	mm->rss++;
	(*written)++;
	return 0;
}

/* pud_alloc / pmd_alloc / pte_alloc (level 1-3), on the faulting CPU's
 * node (the model does not apply the address space's policy to page
 * tables), or the zeroed data page (level 0) where the memory policy in
 * force at addr puts it. */
pfn_t fault_alloc(struct mm_ctx *ctx, struct mm_struct *mm, int level, uint64_t addr)
{
	struct machine *m = mm->m;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);

	if (level == 0)
		return alloc_pages_mpol(ctx, mm, GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0, addr,
					make_owner(OWNER_KIND_ANON, mm->pid),
					(uint32_t)(addr >> PAGE_SHIFT));
	return __alloc_pages(ctx, m, GFP_KERNEL | __GFP_ZERO, 0, nid,
			     make_owner(OWNER_KIND_PGTABLE, mm->pid), pgtable_offset(level, addr));
}

/* handle_mm_fault -> do_anonymous_page for a page found missing or
 * marked (fault_check's 1 to 3, without the lock); *installed says how
 * many pages this call mapped (a THP's, or one).  Allocations are made
 * between passes of fault_step, so that what they wait for never leaves a
 * half-made walk behind. */
static int __handle_mm_fault(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr,
			     bool write, unsigned long *installed)
{
	pfn_t stash[PGTABLE_PUD + 1] = { PFN_NONE, PFN_NONE, PFN_NONE, PFN_NONE };
	int ret;

	/* A writer may change the mapping while the fault waits: check again. */
	mmap_read_lock_entry(ctx, mm, SITE_LOCK_MM_AND_FIND_VMA);
	ret = fault_check(mm, addr, write);
	if (ret == 0)
		return 0;
	mm->m->vm_events[PGFAULT]++;
	if (ret == 2) {
		ret = do_numa_page(ctx, mm, addr);
		/* A write goes on to copy-on-write, as the kernel refaults. */
		if (ret || fault_check(mm, addr, write) != 3)
			return ret;
		ret = 3;
	}
	mm_charge(ctx, COST_FAULT, 1);
	if (ret == 3)
		return do_wp_page(ctx, mm, addr);
	if (ret < 0)
		return ret;
	/* A THP first, where the knobs and the VMA allow one. */
	ret = do_huge_anonymous_page(ctx, mm, addr, installed);
	if (ret <= 0)
		return ret;
	for (;;) {
		unsigned written = 0;
		int need = 0;
		pfn_t page = PFN_NONE;

		ret = fault_step(mm, addr, write, stash, &need, &written, &page);
		if (written) {
			/* Looked up before the next engine call, which may unmap it. */
			struct spinlock *ptl = pte_lockptr(mm, addr);

			*installed = page != PFN_NONE;
			spin_lock(ctx, ptl, SITE_DO_ANONYMOUS_PAGE);
			mm_charge(ctx, COST_PTE, written);
			if (page != PFN_NONE)
				folio_add_lru(ctx, mm->m, page);
			spin_unlock(ctx, ptl);
		}
		if (ret <= 0)
			break;
		stash[need] = fault_alloc(ctx, mm, need, addr);
		if (stash[need] == PFN_NONE) {
			ret = -MM_ENOMEM;
			break;
		}
	}
	for (unsigned l = 0; l < G_N_ELEMENTS(stash); l++)
		if (stash[l] != PFN_NONE)
			__free_pages(ctx, mm->m, stash[l]);
	return ret;
}

/* A present page needs no fault: the access is done without a lock. */
static int do_fault(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, bool write,
		    unsigned long *installed)
{
	addr &= ~(PAGE_SIZE - 1);
	*installed = 0;
	mm_cpumask_set(mm, ctx->cpu);
	if (fault_check(mm, addr, write) == 0)
		return 0;
	return __handle_mm_fault(ctx, mm, addr, write, installed);
}

int handle_mm_fault(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, bool write)
{
	unsigned long installed;

	return do_fault(ctx, mm, addr, write, &installed);
}

/* Whether entries [i, i + n) of pt carry no mark a touch acts on: lazy
 * free, write-protected or NUMA hinting, a word of 64 entries at a time. */
static bool pte_range_unmarked(const struct pte_table *pt, unsigned i, unsigned n)
{
	for (unsigned end = i + n; i < end;) {
		unsigned w = i / 64, hi = MIN(end - w * 64, 64u);
		uint64_t mask = (hi == 64 ? ~0ULL : (1ULL << hi) - 1) & ~((1ULL << (i % 64)) - 1);
		uint64_t marks = pt->lazyfree[w] | pt->wrprotect[w];

		if (pt->numa)
			marks |= pt->numa->protnone[w];
		if (marks & mask)
			return false;
		i = (w + 1) * 64;
	}
	return true;
}

/* touch_present for the entries of pt from a up to stop, while they are
 * present, unmarked and not write-protected: the first address left to
 * the fault path.  No engine call, in a tight loop; none at all when the
 * table maps all its pages and none in the range is marked (touch_present
 * then does nothing: a workload's re-touch of its resident memory). */
static uint64_t touch_present_run(struct mm_struct *mm, struct pte_table *pt, uint64_t a,
				  uint64_t stop)
{
	unsigned n = (unsigned)((stop - a + PAGE_SIZE - 1) / PAGE_SIZE);

	if (pt->nr_present == PTRS_PER_TABLE &&
	    pte_range_unmarked(pt, level_index(a, PGTABLE_PTE), n))
		return a + (uint64_t)n * PAGE_SIZE;
	for (unsigned i = level_index(a, PGTABLE_PTE); a < stop; a += PAGE_SIZE, i++) {
		if (pt->pte[i] == PFN_NONE || pte_protnone(pt, i) || pte_wrprotected(pt, i))
			break;
		touch_present(mm, pt, i, true);
	}
	return a;
}

static int __touch_range(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
			 uint64_t *faulted)
{
	uint64_t start = addr & ~(PAGE_SIZE - 1), end = addr + len, n = 0, pt_end = 0;
	/* The PTE table of the page, looked up once for the pages it maps
	 * while they stay in a writable VMA and no engine call (none in a
	 * present page's access, nor in task_tick_numa with NUMA balancing
	 * off) lets anything change: fault_check without its lookups, also
	 * for the first page (most objects span one or two).  A
	 * write-protected (copy-on-write) or marked entry still takes the
	 * fault; after a fault the table is looked up again. */
	struct pte_table *pt = NULL;
	int ret = 0;

	if (end < addr)
		return -MM_EINVAL;
	for (uint64_t a = start; a < end;) {
		unsigned long installed = 0;

		/* Nothing to tick with balancing off (the common case). */
		if (mm->m->numab.enabled)
			task_tick_numa(ctx, mm);
		else if (!pt || a >= pt_end) {
			struct vm_area_struct *vma = find_live_vma(mm, a);

			pt = NULL;
			if (vma && access_ok(vma->prot, true)) {
				pt = pte_table_lookup(mm, a);
				pt_end = MIN(vma->vm_end, (a & ~(level_span(PGTABLE_PTE) - 1)) +
					     level_span(PGTABLE_PTE));
			}
		}
		/* The CPU ran the address space, as do_fault records (a fault
		 * records it again, a present page after the first need not). */
		if (a == start)
			mm_cpumask_set(mm, ctx->cpu);
		if (pt) {
			uint64_t next = touch_present_run(mm, pt, a, MIN(end, pt_end));

			if (next != a) {
				a = next;
				continue;
			}
		}
		if (pt && pt->pte[level_index(a, PGTABLE_PTE)] == PFN_NONE)
			/* fault_check would find the page missing. */
			ret = __handle_mm_fault(ctx, mm, a, true, &installed);
		else
			ret = do_fault(ctx, mm, a, true, &installed);
		if (ret)
			break;
		n += installed;
		pt = NULL;
		a += PAGE_SIZE;
	}
	if (faulted)
		*faulted = n;
	return ret;
}

int touch_range(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
		uint64_t *faulted)
{
	int ret;

	mm_bulk_begin(ctx);
	ret = __touch_range(ctx, mm, addr, len, faulted);
	mm_bulk_end(ctx);
	return ret;
}

bool touch_range_resident(struct mm_ctx *ctx, struct mm_struct *mm)
{
	if (mm->m->numab.enabled)
		return false;
	mm_cpumask_set(mm, ctx->cpu);
	return true;
}

void tlb_gather_init(struct mmu_gather *tlb, struct mm_ctx *ctx, struct mm_struct *mm)
{
	tlb->ctx = ctx;
	tlb->mm = mm;
	tlb->nr = 0;
	tlb->ptes = 0;
	tlb->need_flush = false;
	tlb->giant = PFN_NONE;
	tlb->tables = NULL;
}

/* zap_pte_range: clear the present entries of [addr, end) until the batch
 * is full; the address to go on from.  No engine call. */
uint64_t zap_some(struct mmu_gather *tlb, uint64_t addr, uint64_t end)
{
	struct mm_struct *mm = tlb->mm;

	mmu_notifier_invalidate(mm, addr, end);
	while (addr < end && !tlb_full(tlb)) {
		uint64_t start;
		struct pte_table *pt = next_table(mm, PGTABLE_PTE, addr, end, &start);
		uint64_t tend;

		if (!pt)
			return end;
		tend = MIN(end, start + level_span(PGTABLE_PTE));
		addr = MAX(addr, start);
		if (pt->huge) {
			addr = zap_huge(tlb, pt, start, addr, end);
			continue;
		}
		for (; addr < tend && pt->nr_present && !tlb_full(tlb); addr += PAGE_SIZE) {
			unsigned i = level_index(addr, PGTABLE_PTE);
			pfn_t pfn = pt->pte[i];

			if (pfn == PFN_NONE)
				continue;
			if (!tlb->ptes)
				tlb->ptl_addr = addr;
			/* A page of a PTE-mapped THP goes with its folio; a
			 * page a fork shared, with its last mapping. */
			if (page_kind(&mm->m->mm, pfn) != PG_KIND_ALLOC ||
			    page_order(&mm->m->mm, pfn) != 0) {
				bool thp = thp_unmap_page(tlb, pfn);

				g_assert(thp);
			} else if (!anon_share_drop(mm->m, pfn, mm->pid)) {
				tlb->pages[tlb->nr++] = pfn;
			}
			pte_set_bit(pt->wrprotect, i, false);
			/* The pin goes with the mapping: the model has no unpin call. */
			mm->m->mm.flags[pt->pte[i]].aux &= (uint8_t)~PG_pinned;
			pt->pte[i] = PFN_NONE;
			pte_numa_reset(pt, i);
			pt->nr_present--;
			mm->rss--;
			if (pte_lazyfree(pt, i)) {
				pte_set_lazyfree(pt, i, false);
				mm->nr_lazyfree--;
			}
			tlb->ptes++;
			tlb->need_flush = true;
		}
		if (!pt->nr_present)
			addr = tend;
	}
	return addr;
}

/* Charge the entries cleared and free the batch through the per-CPU lists
 * (free_pages_and_swap_cache -> folios_put_refs -> free_unref_folios). */
void tlb_flush_batch(struct mmu_gather *tlb)
{
	if (tlb->ptes) {
		struct spinlock *ptl = pte_lockptr(tlb->mm, tlb->ptl_addr);

		spin_lock(tlb->ctx, ptl, SITE_ZAP_PTE_RANGE);
		mm_charge(tlb->ctx, COST_PTE, tlb->ptes);
		spin_unlock(tlb->ctx, ptl);
		tlb->ptes = 0;
	}
	if (tlb->nr) {
		folios_put_refs(tlb->ctx, tlb->mm->m, tlb->pages, tlb->nr);
		tlb->nr = 0;
	}
	tlb_free_huge(tlb);
}

/* tlb_finish_mmu: the last batch and one TLB flush if anything was unmapped. */
void tlb_finish_mmu(struct mmu_gather *tlb)
{
	tlb_flush_batch(tlb);
	if (tlb->tables)
		g_array_free(tlb->tables, TRUE);
	tlb->tables = NULL;
	if (tlb->need_flush)
		mm_charge(tlb->ctx, COST_TLB_FLUSH, 1);
}

/* unmap_page_range over a range no other call touches meanwhile (the
 * placeholders of a munmap or exit). */
void zap_page_range(struct mmu_gather *tlb, uint64_t start, uint64_t end)
{
	while (start < end) {
		start = zap_some(tlb, start, end);
		if (tlb_full(tlb))
			tlb_flush_batch(tlb);
	}
}

/* free_pgtables: free the PTE tables meeting [start, end) that no VMA
 * needs any more, then the PMD tables, then the PUD tables.  A table is
 * unhooked before its page is freed, and the search starts again from the
 * PGD after every free. */
void free_pgtables(struct mmu_gather *tlb, uint64_t start, uint64_t end)
{
	struct mm_struct *mm = tlb->mm;

	for (int level = PGTABLE_PTE; level <= PGTABLE_PUD; level++) {
		uint64_t addr = start, span = level_span(level);

		for (;;) {
			uint64_t ts;
			void *t = next_table(mm, level, addr, end, &ts);
			struct pt_dir *parent;
			pfn_t page;

			if (!t)
				break;
			addr = ts + span;
			if (range_has_vma(mm, ts, ts + span))
				continue;
			parent = dir_lookup(mm, level + 1, ts);
			parent->entry[level_index(ts, level + 1)] = NULL;
			parent->nr--;
			if (level == PGTABLE_PTE) {
				struct pte_table *pt = t;

				g_assert(pt->nr_present == 0);
				page = pt->page;
				pte_table_free(pt);
			} else {
				struct pt_dir *dir = t;

				g_assert(dir->nr == 0);
				page = dir->page;
				g_free(dir);
			}
			mm->nr_pgtables--;
			tlb->ptes++;
			tlb->need_flush = true;
			__free_pages(tlb->ctx, mm->m, page);
		}
	}
}

/* madvise_free_pte_range: mark the present pages of [start, end) lazy-free
 * (the kernel clears their dirty bit), except those another process maps
 * too, which it leaves; the entries changed. */
unsigned long madvise_free_range(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	unsigned long n = 0;
	uint64_t ts;
	struct pte_table *pt;

	mmu_notifier_invalidate(mm, start, end);
	while ((pt = next_table(mm, PGTABLE_PTE, start, end, &ts))) {
		uint64_t tend = MIN(end, ts + level_span(PGTABLE_PTE));

		for (uint64_t a = MAX(start, ts); a < tend && pt->nr_present; a += PAGE_SIZE) {
			unsigned i = level_index(a, PGTABLE_PTE);

			if (pt->pte[i] == PFN_NONE || pte_lazyfree(pt, i) ||
			    anon_mapped_shared(mm->m, pt->pte[i]))
				continue;
			pte_set_lazyfree(pt, i, true);
			mm->nr_lazyfree++;
			n++;
		}
		start = tend;
	}
	return n;
}

/* Present pages in [start, end): the entries change_protection rewrites. */
unsigned long count_present(const struct mm_struct *mm, uint64_t start, uint64_t end)
{
	unsigned long n = 0;
	uint64_t ts;
	struct pte_table *pt;

	while ((pt = next_table(mm, PGTABLE_PTE, start, end, &ts))) {
		uint64_t tend = MIN(end, ts + level_span(PGTABLE_PTE));

		if (pt->huge) {
			n++;    /* one PMD entry */
		} else if (start <= ts && tend == ts + level_span(PGTABLE_PTE)) {
			n += pt->nr_present;
		} else {
			for (uint64_t a = MAX(start, ts); a < tend; a += PAGE_SIZE)
				n += pt->pte[level_index(a, PGTABLE_PTE)] != PFN_NONE;
		}
		start = tend;
	}
	return n;
}

void walk_page_range(const struct mm_struct *mm, uint64_t start, uint64_t end,
		     void (*fn)(uint64_t addr, pfn_t pfn, void *priv), void *priv)
{
	uint64_t ts;
	struct pte_table *pt;

	while ((pt = next_table(mm, PGTABLE_PTE, start, end, &ts))) {
		uint64_t tend = MIN(end, ts + level_span(PGTABLE_PTE));

		for (uint64_t a = MAX(start, ts); a < tend && pt->nr_present; a += PAGE_SIZE) {
			pfn_t pfn = pt->pte[level_index(a, PGTABLE_PTE)];

			if (pfn != PFN_NONE)
				fn(a, pfn, priv);
		}
		start = tend;
	}
}
