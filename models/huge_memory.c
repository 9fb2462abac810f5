/* Anonymous THPs at 2 MiB and 1 GiB (mm/huge_memory.c): fault, deposit,
 * zap, mapping and folio splits, the deferred split queue.  See
 * huge_memory.h for how the page tables hold them. */
#include "huge_memory.h"
#include "huge_memory_internal.h"
#include "mempolicy.h"
#include "mm_space_internal.h"
#include "page_alloc.h"
#include "pcp.h"
#include "superpageblock.h"
#include "swap.h"

#include <string.h>

/* The shrinker's batch (SHRINK_BATCH): folios split per reclaim pass. */
#define DEFERRED_SPLIT_BATCH 128

const char *const thp_enabled_names[NR_THP_ENABLED] = { "never", "madvise", "always" };
const char *const thp_defrag_names[NR_THP_DEFRAG] = { "always", "defer", "defer+madvise",
						      "madvise", "never" };
const char *const thp_deposit_names[NR_THP_DEPOSIT] = { "full", "pmd_only", "none" };
const char *const pud_split_names[NR_PUD_SPLIT] = { "pte", "pmd" };
const char *const gb_thp_migration_names[NR_GB_THP_MIGRATION] = { "block", "split", "whole" };
const char *const thp_size_names[NR_THP_SIZES] = { "hugepages-2048kB", "hugepages-1048576kB" };

const char *const mthp_stat_names[NR_MTHP_STAT] = {
	"anon_fault_alloc", "anon_fault_fallback", "split", "split_deferred", "nr_anon",
	"anon_free_whole",
};

void thp_params_default(struct thp_params *p)
{
	p->pud_enabled = THP_NEVER;
	p->defrag = THP_DEFRAG_MADVISE;
	p->deposit = THP_DEPOSIT_FULL;
	p->pud_split = PUD_SPLIT_PTE;
	p->gb_migration = GB_THP_MIGRATION_BLOCK;
}

int thp_option_parse(const char *const *names, int n, const char *value)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], value))
			return i;
	return -1;
}

static void folio_free(gpointer p)
{
	struct thp_folio *f = p;

	if (f->sharers)
		g_array_free(f->sharers, TRUE);
	g_free(f);
}

struct thp_state *thp_state(struct machine *m)
{
	if (!m->thp_state) {
		struct thp_state *s = g_new0(struct thp_state, 1);

		s->folios = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, folio_free);
		s->deferred = g_new0(GQueue, m->nr_nodes);
		m->thp_state = s;
	}
	return m->thp_state;
}

void thp_state_destroy(struct machine *m)
{
	struct thp_state *s = m->thp_state;

	if (!s)
		return;
	for (unsigned n = 0; n < m->nr_nodes; n++)
		g_queue_clear(&s->deferred[n]);
	g_free(s->deferred);
	g_hash_table_destroy(s->folios);
	g_free(s);
	m->thp_state = NULL;
}

static enum thp_size order_size(unsigned order)
{
	return order == HPAGE_PUD_ORDER ? THP_PUD : THP_PMD;
}

static uint64_t size_bytes(enum thp_size size)
{
	return size == THP_PUD ? PUD_SIZE : PMD_SIZE;
}

unsigned long mthp_stat(const struct machine *m, enum thp_size size, enum mthp_stat_item item)
{
	return m->thp_state ? m->thp_state->stats[size][item] : 0;
}

unsigned long thp_nr_anon(const struct machine *m)
{
	return m->thp_state ? m->thp_state->huge_mapped / HPAGE_PMD_NR : 0;
}

struct thp_folio *thp_folio_of(struct machine *m, pfn_t pfn)
{
	static const unsigned orders[] = { HPAGE_PMD_ORDER, HPAGE_PUD_ORDER };

	if (!m->thp_state)
		return NULL;
	for (unsigned i = 0; i < G_N_ELEMENTS(orders); i++) {
		pfn_t head = pfn & ~((1u << orders[i]) - 1);
		struct thp_folio *f = g_hash_table_lookup(m->thp_state->folios,
							  GUINT_TO_POINTER(head));

		if (f && pfn - head < (1u << f->order))
			return f;
	}
	return NULL;
}

static struct thp_folio *folio_record(struct machine *m, pfn_t head, unsigned order,
				      unsigned pid, uint64_t haddr, unsigned long mapped)
{
	struct thp_state *s = thp_state(m);
	struct thp_folio *f = g_new0(struct thp_folio, 1);

	f->head = head;
	f->order = order;
	f->pid = pid;
	f->haddr = haddr;
	f->mapped = mapped;
	g_hash_table_insert(s->folios, GUINT_TO_POINTER(head), f);
	s->stats[order_size(order)][MTHP_STAT_NR_ANON]++;
	return f;
}

void thp_folio_mapped(struct mm_struct *mm, pfn_t folio, unsigned order, uint64_t haddr)
{
	thp_state(mm->m)->huge_mapped += 1ul << order;
	folio_record(mm->m, folio, order, mm->pid, haddr, 1ul << order);
}

/* deferred_split_folio(): a partly unmapped folio waits for the shrinker. */
static void deferred_split_folio(struct machine *m, struct thp_folio *f)
{
	struct thp_state *s = thp_state(m);

	if (f->queued)
		return;
	f->queued = true;
	g_queue_push_tail(&s->deferred[pfn_zone(m, f->head)->node], f);
	m->vm_events[THP_DEFERRED_SPLIT_PAGE]++;
	s->stats[order_size(f->order)][MTHP_STAT_SPLIT_DEFERRED]++;
}

/* The record goes; the caller frees or keeps the pages. */
static void folio_forget(struct machine *m, struct thp_folio *f)
{
	struct thp_state *s = m->thp_state;

	if (f->queued)
		g_queue_remove(&s->deferred[pfn_zone(m, f->head)->node], f);
	s->stats[order_size(f->order)][MTHP_STAT_NR_ANON]--;
	g_hash_table_remove(s->folios, GUINT_TO_POINTER(f->head));
}

unsigned long *mapper_count(struct thp_folio *f, unsigned pid)
{
	if (f->pid == pid)
		return &f->mapped;
	for (guint k = 0; f->sharers && k < f->sharers->len; k++)
		if (g_array_index(f->sharers, struct thp_sharer, k).pid == pid)
			return &g_array_index(f->sharers, struct thp_sharer, k).mapped;
	return NULL;
}

/* Process pid, which shared f, maps none of it any more: gone from the
 * sharers, or, if the owner records named it, replaced there by the first
 * sharer. */
static void folio_drop_mapper(struct machine *m, struct thp_folio *f, unsigned pid)
{
	guint k = 0;

	if (f->pid == pid) {
		struct thp_sharer next = g_array_index(f->sharers, struct thp_sharer, 0);
		unsigned block_order = MIN(f->order, (unsigned)MAX_PAGE_ORDER);

		f->pid = next.pid;
		f->mapped = next.mapped;
		for (pfn_t b = f->head; b < f->head + (1u << f->order); b += 1u << block_order)
			*block_word_a(&m->mm, b, block_order) = make_owner(OWNER_KIND_ANON, next.pid);
	} else {
		while (g_array_index(f->sharers, struct thp_sharer, k).pid != pid)
			k++;
	}
	g_array_remove_index(f->sharers, k);
	if (!f->sharers->len) {
		g_array_free(f->sharers, TRUE);
		f->sharers = NULL;
	}
}

/* folio_remove_rmap_*: n pages of f unmapped by tlb's process; the last
 * mapping frees it whole through tlb, one order-9 or gigantic free. */
static void folio_unmap(struct mmu_gather *tlb, struct thp_folio *f, unsigned long n)
{
	struct machine *m = tlb->mm->m;
	unsigned long *count = mapper_count(f, tlb->mm->pid);
	pfn_t head = f->head;
	unsigned order = f->order;

	g_assert(count && *count >= n);
	*count -= n;
	if (!*count && f->sharers)
		folio_drop_mapper(m, f, tlb->mm->pid);
	if (f->sharers)
		return;
	if (f->mapped) {
		if (f->mapped < (1UL << order))
			deferred_split_folio(m, f);
		return;
	}
	m->thp_state->stats[order_size(order)][MTHP_STAT_FREE_WHOLE]++;
	folio_forget(m, f);
	if (order == HPAGE_PUD_ORDER)
		tlb->giant = head;
	else
		tlb->pages[tlb->nr++] = head;
}

bool thp_unmap_page(struct mmu_gather *tlb, pfn_t pfn)
{
	struct thp_folio *f = thp_folio_of(tlb->mm->m, pfn);

	if (!f)
		return false;
	folio_unmap(tlb, f, 1);
	return true;
}

bool thp_mapped_shared(struct machine *m, pfn_t pfn)
{
	struct thp_folio *f = thp_folio_of(m, pfn);

	return f && f->sharers;
}

void thp_dup_rmap(struct machine *m, pfn_t pfn, unsigned pid, unsigned long n)
{
	struct thp_folio *f = thp_folio_of(m, pfn);
	unsigned long *count = mapper_count(f, pid);

	if (!count) {
		struct thp_sharer sh = { .pid = pid };

		if (!f->sharers)
			f->sharers = g_array_new(FALSE, FALSE, sizeof(struct thp_sharer));
		g_array_append_val(f->sharers, sh);
		count = &g_array_index(f->sharers, struct thp_sharer, f->sharers->len - 1).mapped;
		/* Shared, it waits off the queue until one process maps it again. */
		if (f->queued) {
			g_queue_remove(&m->thp_state->deferred[pfn_zone(m, f->head)->node], f);
			f->queued = false;
		}
	}
	*count += n;
}

bool thp_vma_allowable(const struct machine *m, const struct vm_area_struct *vma,
		       enum thp_size size)
{
	enum thp_enabled e = size == THP_PMD ? m->thp : m->thp_opts.pud_enabled;

	if (vma->vm_flags & VM_NOHUGEPAGE)
		return false;
	return e == THP_ALWAYS || (e == THP_MADVISE && (vma->vm_flags & VM_HUGEPAGE));
}

/* vma_thp_gfp_mask(): GFP_TRANSHUGE_LIGHT (no reclaim, no reserves, no
 * warning) plus what the defrag mode lets this VMA's fault do. */
static gfp_t vma_thp_gfp_mask(const struct machine *m, const struct vm_area_struct *vma)
{
	bool madvised = vma->vm_flags & VM_HUGEPAGE;

	switch (m->thp_opts.defrag) {
	case THP_DEFRAG_ALWAYS:
		return GFP_TRANSHUGE | (madvised ? 0 : __GFP_NORETRY);
	case THP_DEFRAG_DEFER:
		return GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM;
	case THP_DEFRAG_DEFER_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : __GFP_KSWAPD_RECLAIM);
	case THP_DEFRAG_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : 0);
	default:
		return GFP_TRANSHUGE_LIGHT;
	}
}

/* pmd_none / pud_none at haddr: no table and no page there yet (missing
 * upper tables count as empty). */
static bool huge_slot_empty(const struct mm_struct *mm, enum thp_size size, uint64_t haddr)
{
	struct pt_dir *pud = dir_lookup(mm, PGTABLE_PUD, haddr), *pmd;

	if (!pud)
		return true;
	pmd = pud->entry[level_index(haddr, PGTABLE_PUD)];
	if (size == THP_PUD || !pmd)
		return !pmd;
	return !pmd->huge && !pmd->entry[level_index(haddr, PGTABLE_PMD)];
}

/* The deposit frames a THP of this size takes: a 2 MiB one its PTE table,
 * a 1 GiB one its PMD table (first) and 512 PTE tables. */
static unsigned deposit_count(const struct machine *m, enum thp_size size)
{
	switch (m->thp_opts.deposit) {
	case THP_DEPOSIT_FULL:
		return size == THP_PUD ? 1 + PTRS_PER_TABLE : 1;
	case THP_DEPOSIT_PMD_ONLY:
		return 1;
	default:
		return 0;
	}
}

static struct pte_table *huge_pte_table(pfn_t first, pfn_t page)
{
	struct pte_table *pt = pte_table_new(page);

	for (unsigned i = 0; i < PTRS_PER_TABLE; i++)
		pt->pte[i] = first + i;
	pt->nr_present = PTRS_PER_TABLE;
	pt->huge = true;
	return pt;
}

/* One pass of the THP fault, with no engine call: the upper tables from
 * stash, then the huge entry and its deposit.  0 when mapped, 1 with
 * *need the level of a table to allocate first, -1 if the slot was taken
 * or the VMA changed meanwhile. */
static int huge_install(struct mm_struct *mm, enum thp_size size, uint64_t haddr, pfn_t folio,
			const pfn_t *dep, unsigned ndep, pfn_t *stash, int *need,
			unsigned *written)
{
	struct vm_area_struct *vma = find_live_vma(mm, haddr);
	int bottom = size == THP_PUD ? PGTABLE_PUD : PGTABLE_PMD;
	struct pt_dir *dir = mm->pgd;
	unsigned long pages = size == THP_PUD ? HPAGE_PUD_NR : HPAGE_PMD_NR;
	void *entry;

	if (!vma || vma->vm_end < haddr + size_bytes(size) || !huge_slot_empty(mm, size, haddr))
		return -1;
	for (int level = PGTABLE_PUD; level >= bottom; level--) {
		unsigned i = level_index(haddr, level + 1);

		if (!dir->entry[i]) {
			if (stash[level] == PFN_NONE) {
				*need = level;
				return 1;
			}
			dir->entry[i] = pt_dir_new(stash[level]);
			stash[level] = PFN_NONE;
			dir->nr++;
			mm->nr_pgtables++;
			(*written)++;
		}
		dir = dir->entry[i];
	}
	if (size == THP_PMD) {
		entry = huge_pte_table(folio, ndep ? dep[0] : PFN_NONE);
		mm->nr_thp_pmd++;
	} else {
		struct pt_dir *pmd = pt_dir_new(ndep ? dep[0] : PFN_NONE);

		pmd->huge = true;
		for (unsigned j = 0; j < PTRS_PER_TABLE; j++)
			pmd->entry[j] = huge_pte_table(folio + j * HPAGE_PMD_NR,
						       ndep > 1 ? dep[1 + j] : PFN_NONE);
		pmd->nr = PTRS_PER_TABLE;
		entry = pmd;
		mm->nr_thp_pud++;
	}
	dir->entry[level_index(haddr, bottom)] = entry;
	dir->nr++;
	mm->nr_pgtables += ndep;
	mm->rss += pages;
	thp_folio_mapped(mm, folio, size == THP_PUD ? HPAGE_PUD_ORDER : HPAGE_PMD_ORDER, haddr);
	(*written)++;
	return 0;
}

/* The contiguous allocator's part of a THP mask: alloc_contig_range takes
 * no __GFP_NORETRY or __GFP_NOMEMALLOC (one pass over the ranges either
 * way). */
static gfp_t contig_gfp(gfp_t gfp)
{
	return gfp & ~(__GFP_NORETRY | __GFP_NOMEMALLOC);
}

/* thp_folio_of() finds a folio by its natural alignment: a gigabyte the
 * contiguous allocator gave unaligned is given back. */
static pfn_t pud_folio_aligned(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	if (pfn != PFN_NONE && (pfn & (HPAGE_PUD_NR - 1))) {
		free_contig_range(ctx, m, pfn, HPAGE_PUD_NR);
		return PFN_NONE;
	}
	return pfn;
}

pfn_t alloc_thp_gigabyte(struct mm_ctx *ctx, struct machine *m, gfp_t gfp, int nid,
			 nodemask_t nodemask, uint32_t owner)
{
	return pud_folio_aligned(ctx, m, alloc_contig_pages(ctx, m, HPAGE_PUD_NR, contig_gfp(gfp),
							    nid, nodemask, owner, NULL));
}

/* A 1 GiB folio through the contiguous allocator (the RFC's path, as
 * gigantic hugetlb pages are taken without CMA; on spb, seed 005's
 * spb_try_alloc_contig first), where the memory policy at haddr puts it
 * (alloc_contig_mpol), zero pages of it cleared as clear_huge_page does;
 * each block's owner offset is its virtual page number.  gfp is the THP
 * mask: its direct reclaim decides whether pages may be migrated out of
 * the range (else only a wholly free range will do). */
pfn_t alloc_pud_folio(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t haddr, gfp_t gfp,
		       unsigned long zero)
{
	struct machine *m = mm->m;
	pfn_t pfn = pud_folio_aligned(ctx, m, alloc_contig_mpol(ctx, mm, contig_gfp(gfp),
								HPAGE_PUD_ORDER, haddr,
								make_owner(OWNER_KIND_ANON, mm->pid)));

	if (pfn == PFN_NONE)
		return PFN_NONE;
	for (pfn_t p = pfn; p < pfn + HPAGE_PUD_NR; p += 1u << MAX_PAGE_ORDER)
		*block_word_b(&m->mm, p, MAX_PAGE_ORDER) =
			(uint32_t)((haddr >> PAGE_SHIFT) + (p - pfn));
	/* A fault clears the folio whole; a collapse clears its holes one
	 * 4 KiB page at a time, as __collapse_huge_page_copy does. */
	mm_charge(ctx, zero == HPAGE_PUD_NR ? folio_zero_cost(HPAGE_PUD_ORDER) : COST_ZERO_PAGE,
		  zero);
	return pfn;
}

static void free_thp_folio(struct mm_ctx *ctx, struct machine *m, pfn_t pfn, enum thp_size size)
{
	if (size == THP_PUD)
		free_contig_range(ctx, m, pfn, HPAGE_PUD_NR);
	else
		__free_pages(ctx, m, pfn);
}

unsigned thp_deposit_alloc(struct mm_ctx *ctx, struct mm_struct *mm, enum thp_size size,
			   uint64_t haddr, pfn_t *dep, unsigned *want)
{
	unsigned got;

	*want = deposit_count(mm->m, size);
	for (got = 0; got < *want; got++) {
		int level = size == THP_PUD && got == 0 ? PGTABLE_PMD : PGTABLE_PTE;
		uint64_t at = haddr + (size == THP_PUD && got ? (got - 1) * PMD_SIZE : 0);

		dep[got] = fault_alloc(ctx, mm, level, at);
		if (dep[got] == PFN_NONE)
			break;
	}
	return got;
}

/* A PMD mapping's table copied, write-protected, with deposit frame page. */
static struct pte_table *copy_huge_table(struct pte_table *src, pfn_t page)
{
	struct pte_table *pt = huge_pte_table(src->pte[0], page);

	memset(src->wrprotect, 0xff, sizeof(src->wrprotect));
	memset(pt->wrprotect, 0xff, sizeof(pt->wrprotect));
	return pt;
}

/* The counters of a THP mapping of pages made in dst (a fork's share). */
static void huge_copy_account(struct mm_struct *dst, unsigned long pages, unsigned ndep)
{
	dst->rss += pages;
	dst->nr_pgtables += ndep;
	thp_state(dst->m)->huge_mapped += pages;
}

unsigned long copy_huge_pmd(struct mm_struct *dst, struct mm_struct *src, struct pt_dir *dir,
			    uint64_t haddr, const pfn_t *dep, unsigned ndep)
{
	struct pte_table *spt = pte_table_lookup(src, haddr);

	dir->entry[level_index(haddr, PGTABLE_PMD)] = copy_huge_table(spt, ndep ? dep[0] :
								       PFN_NONE);
	dir->nr++;
	dst->nr_thp_pmd++;
	huge_copy_account(dst, HPAGE_PMD_NR, ndep);
	thp_dup_rmap(dst->m, spt->pte[0], dst->pid, HPAGE_PMD_NR);
	return 2;
}

unsigned long copy_huge_pud(struct mm_struct *dst, struct mm_struct *src, struct pt_dir *dir,
			    uint64_t haddr, const pfn_t *dep, unsigned ndep)
{
	struct pt_dir *spmd = dir_lookup(src, PGTABLE_PMD, haddr);
	struct pt_dir *pmd = pt_dir_new(ndep ? dep[0] : PFN_NONE);

	pmd->huge = true;
	for (unsigned j = 0; j < PTRS_PER_TABLE; j++)
		pmd->entry[j] = copy_huge_table(spmd->entry[j], ndep > 1 ? dep[1 + j] : PFN_NONE);
	pmd->nr = PTRS_PER_TABLE;
	dir->entry[level_index(haddr, PGTABLE_PUD)] = pmd;
	dir->nr++;
	dst->nr_thp_pud++;
	huge_copy_account(dst, HPAGE_PUD_NR, ndep);
	thp_dup_rmap(dst->m, ((struct pte_table *)spmd->entry[0])->pte[0], dst->pid, HPAGE_PUD_NR);
	return 2;
}

/* do_huge_pmd_anonymous_page and its PUD twin: the folio, its deposit,
 * the upper tables, then the entry.  0 mapped, 1 fell back (counted), 2
 * the slot was taken meanwhile, or -errno. */
static int huge_fault_size(struct mm_ctx *ctx, struct mm_struct *mm, enum thp_size size,
			   uint64_t haddr, gfp_t gfp)
{
	struct machine *m = mm->m;
	pfn_t stash[PGTABLE_PUD + 1] = { PFN_NONE, PFN_NONE, PFN_NONE, PFN_NONE };
	unsigned ndep = deposit_count(m, size), got = 0, written = 0;
	pfn_t *dep = g_new(pfn_t, ndep ? ndep : 1);
	pfn_t folio;
	int ret = 1;

	if (size == THP_PUD)
		folio = alloc_pud_folio(ctx, mm, haddr, gfp, HPAGE_PUD_NR);
	else
		folio = alloc_pages_mpol(ctx, mm, gfp | __GFP_ZERO, HPAGE_PMD_ORDER, haddr,
					 make_owner(OWNER_KIND_ANON, mm->pid),
					 (uint32_t)(haddr >> PAGE_SHIFT));
	if (folio != PFN_NONE)
		got = thp_deposit_alloc(ctx, mm, size, haddr, dep, &ndep);
	if (folio == PFN_NONE || got < ndep) {
		m->vm_events[THP_FAULT_FALLBACK]++;
		thp_state(m)->stats[size][MTHP_STAT_ANON_FAULT_FALLBACK]++;
		goto out;
	}
	for (;;) {
		int need = 0;

		ret = huge_install(mm, size, haddr, folio, dep, ndep, stash, &need, &written);
		if (ret <= 0)
			break;
		stash[need] = fault_alloc(ctx, mm, need, haddr);
		if (stash[need] == PFN_NONE) {
			ret = -MM_ENOMEM;
			break;
		}
	}
	if (ret == 0) {
		struct spinlock *ptl = pte_lockptr(mm, haddr);
		pfn_t head = folio;

		folio = PFN_NONE;
		got = 0;
		m->vm_events[THP_FAULT_ALLOC]++;
		thp_state(m)->stats[size][MTHP_STAT_ANON_FAULT_ALLOC]++;
		spin_lock(ctx, ptl, SITE_DO_ANONYMOUS_PAGE);
		mm_charge(ctx, COST_PTE, written);
		folio_add_lru(ctx, m, head);
		spin_unlock(ctx, ptl);
	} else if (ret < 0 && ret != -MM_ENOMEM) {
		ret = 2;
	}
out:
	for (unsigned i = 0; i < got; i++)
		__free_pages(ctx, m, dep[i]);
	for (unsigned l = 0; l < G_N_ELEMENTS(stash); l++)
		if (stash[l] != PFN_NONE)
			__free_pages(ctx, m, stash[l]);
	if (folio != PFN_NONE)
		free_thp_folio(ctx, m, folio, size);
	g_free(dep);
	return ret;
}

int do_huge_anonymous_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr,
			   unsigned long *installed)
{
	const struct vm_area_struct *first = find_live_vma(mm, addr);

	/* Most faults: no size allowed at all. */
	if (!first || (!thp_vma_allowable(mm->m, first, THP_PUD) &&
		       !thp_vma_allowable(mm->m, first, THP_PMD)))
		return 1;
	for (int size = THP_PUD; size >= THP_PMD; size--) {
		/* Looked up again each time: the allocations may change the VMAs. */
		struct vm_area_struct *vma = find_live_vma(mm, addr);
		uint64_t haddr = addr & ~(size_bytes(size) - 1);
		int ret;

		if (!vma)
			return 1;
		if (!thp_vma_allowable(mm->m, vma, size) || haddr < vma->vm_start ||
		    haddr + size_bytes(size) > vma->vm_end ||
		    !huge_slot_empty(mm, (enum thp_size)size, haddr))
			continue;
		ret = huge_fault_size(ctx, mm, (enum thp_size)size, haddr,
				      vma_thp_gfp_mask(mm->m, vma));
		if (ret == 0)
			*installed = size == THP_PUD ? HPAGE_PUD_NR : HPAGE_PMD_NR;
		if (ret != 1)
			return ret == 2 ? 1 : ret;
	}
	return 1;
}

/* __split_huge_pmd_locked(): the PMD mapping pt becomes its deposit's 512
 * PTEs.  The entries written, 0 if no table frame is there for it. */
static unsigned long split_pmd_locked(struct mm_struct *mm, struct pte_table *pt)
{
	if (pt->page == PFN_NONE)
		return 0;
	pt->huge = false;
	mm->nr_thp_pmd--;
	mm->m->thp_state->huge_mapped -= HPAGE_PMD_NR;
	mm->m->vm_events[THP_SPLIT_PMD]++;
	return PTRS_PER_TABLE;
}

/* The PUD split: to 512 PMD mappings (pud_split pmd), or to 262,144 PTEs
 * (pte), which needs every table's frame.  The entries written, 0 if a
 * frame is missing. */
static unsigned long split_pud_locked(struct mm_struct *mm, struct pt_dir *pmd)
{
	bool to_pte = mm->m->thp_opts.pud_split == PUD_SPLIT_PTE;

	if (pmd->page == PFN_NONE)
		return 0;
	for (unsigned j = 0; to_pte && j < PTRS_PER_TABLE; j++)
		if (((struct pte_table *)pmd->entry[j])->page == PFN_NONE)
			return 0;
	pmd->huge = false;
	mm->nr_thp_pud--;
	mm->m->vm_events[THP_SPLIT_PUD]++;
	if (!to_pte) {
		mm->nr_thp_pmd += PTRS_PER_TABLE;
		return PTRS_PER_TABLE;
	}
	for (unsigned j = 0; j < PTRS_PER_TABLE; j++)
		((struct pte_table *)pmd->entry[j])->huge = false;
	mm->m->thp_state->huge_mapped -= HPAGE_PUD_NR;
	return PTRS_PER_TABLE + HPAGE_PUD_NR;
}

/* The split an edge at addr needs, with no engine call: done if it can be
 * (*written the entries), else 1 with the level and address of the table
 * whose frame is missing (*failed the counter a failure goes to); 0 when
 * no split is left to do. */
static int split_step(struct mm_struct *mm, uint64_t addr, unsigned long *written, int *level,
		      uint64_t *at, enum vm_event_item *failed)
{
	struct pt_dir *pmd = addr < TASK_SIZE ? dir_lookup(mm, PGTABLE_PMD, addr) : NULL;
	struct pte_table *pt;

	if (!pmd)
		return 0;
	if (pmd->huge) {
		uint64_t base = addr & ~(PUD_SIZE - 1);

		if (addr == base)
			return 0;
		*failed = THP_SPLIT_PUD_FAILED;
		if (pmd->page == PFN_NONE) {
			*level = PGTABLE_PMD;
			*at = base;
			return 1;
		}
		for (unsigned j = 0; mm->m->thp_opts.pud_split == PUD_SPLIT_PTE && j < PTRS_PER_TABLE;
		     j++) {
			if (((struct pte_table *)pmd->entry[j])->page == PFN_NONE) {
				*level = PGTABLE_PTE;
				*at = base + j * PMD_SIZE;
				return 1;
			}
		}
		*written = split_pud_locked(mm, pmd);
		return 0;
	}
	pt = pmd->entry[level_index(addr, PGTABLE_PMD)];
	if (!pt || !pt->huge || !(addr & (PMD_SIZE - 1)))
		return 0;
	*failed = THP_SPLIT_PMD_FAILED;
	if (pt->page == PFN_NONE) {
		*level = PGTABLE_PTE;
		*at = addr & ~(PMD_SIZE - 1);
		return 1;
	}
	*written = split_pmd_locked(mm, pt);
	return 0;
}

/* A late deposit: the frame allocated for a split goes to the huge table
 * at addr still missing one; false if none is missing any more. */
static bool attach_frame(struct mm_struct *mm, int level, uint64_t addr, pfn_t pfn)
{
	struct pt_dir *pmd = dir_lookup(mm, PGTABLE_PMD, addr);
	struct pte_table *pt;

	if (!pmd)
		return false;
	if (level == PGTABLE_PMD) {
		if (!pmd->huge || pmd->page != PFN_NONE)
			return false;
		pmd->page = pfn;
	} else {
		pt = pmd->entry[level_index(addr, PGTABLE_PMD)];
		if (!pt || !pt->huge || pt->page != PFN_NONE)
			return false;
		pt->page = pfn;
	}
	mm->nr_pgtables++;
	return true;
}

int split_huge_at(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr)
{
	if (!mm->nr_thp_pmd && !mm->nr_thp_pud)
		return 0;
	for (;;) {
		unsigned long written = 0;
		enum vm_event_item failed = THP_SPLIT_PMD_FAILED;
		uint64_t at = 0;
		int level = 0;
		pfn_t pfn;

		if (!split_step(mm, addr, &written, &level, &at, &failed)) {
			if (!written)
				return 0;
			mm_charge(ctx, COST_PTE, written);
			mm_charge(ctx, COST_TLB_FLUSH, 1);
			continue;
		}
		pfn = fault_alloc(ctx, mm, level, at);
		if (pfn == PFN_NONE) {
			mm->m->vm_events[failed]++;
			return -MM_ENOMEM;
		}
		if (!attach_frame(mm, level, at, pfn))
			__free_pages(ctx, mm->m, pfn);
	}
}

bool split_huge_page(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	struct thp_folio *f = thp_folio_of(m, pfn);
	uint64_t haddr, size;
	unsigned pid;

	if (!f || f->sharers)
		return false;
	haddr = f->haddr;
	pid = f->pid;
	size = (uint64_t)PAGE_SIZE << f->order;
	/* Every huge mapping of it split to PTEs: an edge inside each 2 MiB
	 * cuts the PUD mapping (if any) and then that PMD.  Each step may
	 * wait for a table; the folio is looked up again after it. */
	for (uint64_t a = haddr; a < haddr + size; a += PMD_SIZE) {
		struct mm_struct *mm = mm_find(m, pid);

		if (!mm || thp_folio_of(m, pfn) != f || f->sharers ||
		    split_huge_at(ctx, mm, a + PAGE_SIZE))
			return false;
	}
	split_folio(ctx, m, f);
	return true;
}

void madvise_free_split(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	const uint64_t edges[2] = { start, end - PAGE_SIZE };

	if (!mm->m->thp_state)
		return;
	for (unsigned i = 0; i < 2; i++) {
		pfn_t pfn = follow_page(mm, edges[i]);
		struct thp_folio *f = pfn == PFN_NONE ? NULL : thp_folio_of(mm->m, pfn);
		uint64_t size;

		if (!f || f->pid != mm->pid)
			continue;
		size = (uint64_t)PAGE_SIZE << f->order;
		if (f->haddr < start || f->haddr + size > end)
			split_huge_page(ctx, mm->m, f->head);
	}
}

static void gather_table_frame(struct mmu_gather *tlb, pfn_t page)
{
	if (page == PFN_NONE)
		return;
	if (!tlb->tables)
		tlb->tables = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	g_array_append_val(tlb->tables, page);
	tlb->mm->nr_pgtables--;
}

/* Free a huge PTE table unhooked from its PMD table: its deposit to tlb. */
static void drop_huge_pte_table(struct mmu_gather *tlb, struct pte_table *pt)
{
	tlb->mm->nr_lazyfree -= lazyfree_count(pt);
	gather_table_frame(tlb, pt->page);
	pte_table_free(pt);
}

/* zap_huge_pmd / zap_huge_pud for a mapping wholly inside the range: the
 * entry cleared, the deposit and (if this was its last mapping) the
 * folio gathered. */
static uint64_t zap_whole(struct mmu_gather *tlb, uint64_t base, int level)
{
	struct mm_struct *mm = tlb->mm;
	struct pt_dir *parent = dir_lookup(mm, level + 1, base);
	unsigned idx = level_index(base, level + 1);
	void *t = parent->entry[idx];
	unsigned long pages = level == PGTABLE_PMD ? HPAGE_PUD_NR : HPAGE_PMD_NR;
	struct thp_folio *f;
	pfn_t first;

	parent->entry[idx] = NULL;
	parent->nr--;
	if (level == PGTABLE_PMD) {
		struct pt_dir *pmd = t;

		first = ((struct pte_table *)pmd->entry[0])->pte[0];
		for (unsigned j = 0; j < PTRS_PER_TABLE; j++)
			drop_huge_pte_table(tlb, pmd->entry[j]);
		gather_table_frame(tlb, pmd->page);
		g_free(pmd);
		mm->nr_thp_pud--;
	} else {
		first = ((struct pte_table *)t)->pte[0];
		drop_huge_pte_table(tlb, t);
		mm->nr_thp_pmd--;
	}
	mm->rss -= pages;
	mm->m->thp_state->huge_mapped -= pages;
	if (!tlb->ptes)
		tlb->ptl_addr = base;
	tlb->ptes++;
	tlb->need_flush = true;
	f = thp_folio_of(mm->m, first);
	g_assert(f);
	folio_unmap(tlb, f, pages);
	return base + pages * PAGE_SIZE;
}

uint64_t zap_huge(struct mmu_gather *tlb, struct pte_table *pt, uint64_t ts, uint64_t addr,
		  uint64_t end)
{
	struct mm_struct *mm = tlb->mm;
	struct pt_dir *pmd = dir_lookup(mm, PGTABLE_PMD, ts);
	unsigned long written;

	if (pmd->huge) {
		uint64_t base = ts & ~(PUD_SIZE - 1);

		if (addr <= base && end >= base + PUD_SIZE)
			return zap_whole(tlb, base, PGTABLE_PMD);
		written = split_pud_locked(mm, pmd);
		if (!written) {
			/* No edge split made room: only a fault racing the
			 * caller's split_huge_at gets here.  Left mapped. */
			mm->m->vm_events[THP_SPLIT_PUD_FAILED]++;
			return base + PUD_SIZE;
		}
	} else {
		if (addr <= ts && end >= ts + PMD_SIZE)
			return zap_whole(tlb, ts, PGTABLE_PTE);
		written = split_pmd_locked(mm, pt);
		if (!written) {
			mm->m->vm_events[THP_SPLIT_PMD_FAILED]++;
			return ts + PMD_SIZE;
		}
	}
	tlb->ptes += written;
	tlb->need_flush = true;
	return addr;
}

void tlb_free_huge(struct mmu_gather *tlb)
{
	struct machine *m = tlb->mm->m;

	if (tlb->giant != PFN_NONE) {
		free_contig_range(tlb->ctx, m, tlb->giant, HPAGE_PUD_NR);
		tlb->giant = PFN_NONE;
	}
	if (tlb->tables) {
		for (guint i = 0; i < tlb->tables->len; i++)
			__free_pages(tlb->ctx, m, g_array_index(tlb->tables, pfn_t, i));
		g_array_set_size(tlb->tables, 0);
	}
}

unsigned long piece_mapped(const struct mm_struct *mm, pfn_t pfn, unsigned order,
			   uint64_t va)
{
	unsigned long n = 0;

	if (!order)
		return follow_page((struct mm_struct *)mm, va) == pfn;
	for (unsigned long k = 0; k < (1UL << order); k += PTRS_PER_TABLE) {
		struct pte_table *pt = pte_table_lookup(mm, va + k * PAGE_SIZE);

		for (unsigned i = 0; pt && i < PTRS_PER_TABLE; i++)
			n += pt->pte[i] == pfn + k + i;
	}
	return n;
}

/* Whether a piece of the 1 GiB folio f is still PMD-mapped. */
static bool pud_folio_pmd_mapped(const struct mm_struct *mm, const struct thp_folio *f)
{
	for (uint64_t va = f->haddr; va < f->haddr + PUD_SIZE; va += PMD_SIZE) {
		struct pte_table *pt = pte_table_lookup(mm, va);

		if (pt && pt->huge && pt->pte[0] == f->head + ((va - f->haddr) >> PAGE_SHIFT))
			return true;
	}
	return false;
}

/* split_huge_page_to_list_to_order(): the folio becomes pieces of order 0,
 * or of order 9 when a 1 GiB folio still has PMD mappings (pud_split pmd);
 * pieces nothing maps are freed, a partly mapped order-9 piece is a THP
 * queued again.  The pages freed. */
unsigned long split_folio(struct mm_ctx *ctx, struct machine *m, struct thp_folio *f)
{
	struct mm_struct *mm = mm_find(m, f->pid);
	pfn_t head = f->head;
	unsigned order = f->order, pid = f->pid;
	unsigned new_order = order == HPAGE_PUD_ORDER && pud_folio_pmd_mapped(mm, f) ?
			     HPAGE_PMD_ORDER : 0;
	unsigned block_order = MIN(order, (unsigned)MAX_PAGE_ORDER);
	uint64_t haddr = f->haddr;
	GArray *victims = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	unsigned long freed = 0;

	m->vm_events[THP_SPLIT_PAGE]++;
	m->thp_state->stats[order_size(order)][MTHP_STAT_SPLIT]++;
	folio_forget(m, f);
	/* __split_folio_to_order rewrites every tail page: each becomes a
	 * head or points at a new one. */
	mm_charge(ctx, COST_SPLIT_TAIL, (1UL << order) - 1);
	for (pfn_t b = head; b < head + (1u << order); b += 1u << block_order)
		split_page(m, b, block_order, new_order);
	for (pfn_t p = head; p < head + (1u << order); p += 1u << new_order) {
		uint64_t va = haddr + ((uint64_t)(p - head) << PAGE_SHIFT);
		unsigned long mapped = piece_mapped(mm, p, new_order, va);

		if (!mapped) {
			g_array_append_val(victims, p);
			freed += 1UL << new_order;
		} else if (new_order) {
			struct thp_folio *piece = folio_record(m, p, new_order, pid, va, mapped);

			if (mapped < HPAGE_PMD_NR)
				deferred_split_folio(m, piece);
		}
	}
	if (order == HPAGE_PUD_ORDER)
		superpageblock_contig_mark(ctx, m, head, head + HPAGE_PUD_NR, false);
	for (guint i = 0; i < victims->len; i += FOLIO_BATCH_SIZE)
		free_unref_folios(ctx, m, &g_array_index(victims, pfn_t, i),
				  MIN(FOLIO_BATCH_SIZE, victims->len - i));
	g_array_free(victims, TRUE);
	return freed;
}

bool thp_migratable(struct machine *m, pfn_t pfn)
{
	struct thp_folio *f = thp_folio_of(m, pfn);

	return f && !f->sharers && (f->order == HPAGE_PMD_ORDER ||
				    (m->thp_opts.gb_migration != GB_THP_MIGRATION_BLOCK &&
				     !m->thp_state->gigantic_target_busy));
}

pfn_t thp_head(struct machine *m, pfn_t pfn)
{
	struct thp_folio *f = pfn < m->mm.nr_frames ? thp_folio_of(m, pfn) : NULL;

	return f ? f->head : PFN_NONE;
}

unsigned folio_order(struct machine *m, pfn_t pfn)
{
	struct thp_folio *f;

	if (pfn >= m->mm.nr_frames)
		return 0;
	f = thp_folio_of(m, pfn);
	return f && f->head == pfn ? f->order : page_order(&m->mm, pfn);
}

bool thp_shared(struct machine *m, pfn_t head)
{
	struct thp_folio *f = thp_folio_of(m, head);

	return f && f->sharers;
}

bool thp_partially_mapped(struct machine *m, pfn_t head)
{
	struct thp_folio *f = thp_folio_of(m, head);

	return f && f->queued;
}

unsigned long deferred_split_scan(struct mm_ctx *ctx, struct machine *m, int nid,
				  unsigned long nr)
{
	struct thp_state *s = m->thp_state;
	unsigned long freed = 0;

	while (s && nr-- && !g_queue_is_empty(&s->deferred[nid])) {
		struct thp_folio *f = g_queue_pop_head(&s->deferred[nid]);

		f->queued = false;
		freed += split_folio(ctx, m, f);
	}
	return freed;
}

unsigned long deferred_split_count(const struct machine *m, int nid)
{
	return m->thp_state ? m->thp_state->deferred[nid].length : 0;
}

unsigned long deferred_split_shrink(struct mm_ctx *ctx, struct machine *m, int nid)
{
	return deferred_split_scan(ctx, m, nid, DEFERRED_SPLIT_BATCH);
}
