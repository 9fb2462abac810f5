/* fork with copy-on-write (kernel/fork.c dup_mm, dup_mmap; mm/memory.c
 * copy_page_range, do_wp_page, wp_page_copy): the child gets copies of
 * the parent's VMAs and page tables, the anonymous pages and THPs are
 * shared and write-protected in both, and the first write to a shared
 * page copies it.
 *
 * A shared order-0 page keeps its owner record (one mapper, the address)
 * and has an entry in the machine's share table naming the others; every
 * mapper maps it at that address, since nothing here moves a mapping.
 * When the owner record's process unmaps it, the record passes to another
 * mapper, so the reverse map always finds a live mapping.  A shared THP
 * keeps the same in its folio record (huge_memory.c). */
#include "huge_memory.h"
#include "mempolicy.h"
#include "mm_space_internal.h"
#include "page_alloc.h"
#include "swap.h"

#include <string.h>


static struct anon_share *share_lookup(const struct machine *m, pfn_t pfn)
{
	GHashTable *t = m->procs ? m->procs->shared : NULL;

	return t ? g_hash_table_lookup(t, GUINT_TO_POINTER(pfn)) : NULL;
}

static bool order0_page(struct machine *m, pfn_t pfn)
{
	return page_kind(&m->mm, pfn) == PG_KIND_ALLOC && page_order(&m->mm, pfn) == 0;
}

/* Where pid is, or would go, in sh's pids, which are kept in increasing
 * order so that the lookups and the checker's are not linear in the
 * sharers (a thousand forks made check_invariants quadratic). */
static unsigned share_index(const struct anon_share *sh, unsigned pid)
{
	unsigned lo = 0, hi = sh->nr;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (sh->pid[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* page_dup_anon_rmap for an order-0 page: process pid maps it too. */
static void anon_share_add(struct machine *m, pfn_t pfn, unsigned pid)
{
	struct mm_registry *reg = m->procs;
	gpointer key = GUINT_TO_POINTER(pfn);
	struct anon_share *sh;
	unsigned nr, k;

	if (!reg->shared)
		reg->shared = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	sh = g_hash_table_lookup(reg->shared, key);
	nr = sh ? sh->nr : 0;
	if (sh)
		g_hash_table_steal(reg->shared, key);
	sh = g_realloc(sh, sizeof(*sh) + (nr + 1) * sizeof(sh->pid[0]));
	sh->nr = nr;
	k = nr ? share_index(sh, pid) : 0;
	memmove(&sh->pid[k + 1], &sh->pid[k], (nr - k) * sizeof(sh->pid[0]));
	sh->pid[k] = pid;
	sh->nr = nr + 1;
	g_hash_table_insert(reg->shared, key, sh);
}

bool anon_share_has(const struct machine *m, pfn_t pfn, unsigned pid)
{
	const struct anon_share *sh = share_lookup(m, pfn);
	unsigned k = sh ? share_index(sh, pid) : 0;

	return sh && k < sh->nr && sh->pid[k] == pid;
}

bool __anon_share_drop(struct machine *m, pfn_t pfn, unsigned pid)
{
	struct anon_share *sh = share_lookup(m, pfn);
	unsigned k = 0;

	if (!sh)
		return false;
	if (page_owner(m, pfn) == make_owner(OWNER_KIND_ANON, pid)) {
		k = sh->nr - 1;
		*block_word_a(&m->mm, pfn, 0) = make_owner(OWNER_KIND_ANON, sh->pid[k]);
	} else {
		k = share_index(sh, pid);
		g_assert(k < sh->nr && sh->pid[k] == pid);
	}
	sh->nr--;
	memmove(&sh->pid[k], &sh->pid[k + 1], (sh->nr - k) * sizeof(sh->pid[0]));
	if (!sh->nr)
		g_hash_table_remove(m->procs->shared, GUINT_TO_POINTER(pfn));
	return true;
}

unsigned anon_unshare_pages(struct machine *m, unsigned pid, pfn_t *pages, unsigned n)
{
	unsigned left = 0;

	for (unsigned i = 0; i < n; i++)
		if (!anon_share_drop(m, pages[i], pid))
			pages[left++] = pages[i];
	return left;
}

bool anon_mapped_shared(struct machine *m, pfn_t pfn)
{
	if (!m->procs || !m->procs->forked)
		return false;
	if (order0_page(m, pfn))
		return share_lookup(m, pfn) != NULL;
	return thp_mapped_shared(m, pfn);
}

/* A new order-0 page for mm at addr, filled by copy_user_highpage (the
 * copy charged), or PFN_NONE. */
static pfn_t alloc_anon_copy(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr)
{
	pfn_t pfn = alloc_pages_mpol(ctx, mm, GFP_HIGHUSER_MOVABLE, 0, addr,
				     make_owner(OWNER_KIND_ANON, mm->pid),
				     (uint32_t)(addr >> PAGE_SHIFT));

	if (pfn != PFN_NONE)
		mm_charge(ctx, COST_MIGRATE_COPY, 1);
	return pfn;
}

/* do_huge_pmd_wp_page (and the RFC's PUD twin) reusing an exclusive THP:
 * the huge mapping at addr made writable again. */
static void wp_huge_reuse(struct mm_struct *mm, uint64_t addr)
{
	struct pt_dir *pmd = dir_lookup(mm, PGTABLE_PMD, addr);
	unsigned lo = pmd->huge ? 0 : level_index(addr, PGTABLE_PMD);
	unsigned hi = pmd->huge ? PTRS_PER_TABLE : lo + 1;

	for (unsigned j = lo; j < hi; j++) {
		struct pte_table *pt = pmd->entry[j];

		memset(pt->wrprotect, 0, sizeof(pt->wrprotect));
	}
}

/* The page that wrote over old at addr no longer maps old: a reference
 * dropped, and old freed through tlb if that was its last mapping. */
static void wp_unmap_old(struct mmu_gather *tlb, pfn_t old)
{
	struct machine *m = tlb->mm->m;

	if (!order0_page(m, old)) {
		bool thp = thp_unmap_page(tlb, old);

		g_assert(thp);
	} else if (!anon_share_drop(m, old, tlb->mm->pid)) {
		tlb->pages[tlb->nr++] = old;
	}
}

/* As current kernels do: a page (or THP) only this process maps is
 * reused in place (wp_can_reuse_anon_folio, and do_huge_pmd_wp_page's
 * reuse); a shared THP mapping is split (__split_huge_pmd, and the PUD
 * mapping first, as wp_huge_pud does) and the fault falls back to copying
 * the one 4 KiB page written (wp_page_copy).  The kernel does not copy a
 * whole THP on a write fault. */
int do_wp_page(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr)
{
	struct machine *m = mm->m;
	unsigned i = level_index(addr, PGTABLE_PTE);

	for (;;) {
		struct pte_table *pt = pte_table_lookup(mm, addr);
		struct mmu_gather tlb;
		struct spinlock *ptl;
		pfn_t old, new;

		/* Unmapped or made writable by another thread meanwhile. */
		if (!pt || pt->pte[i] == PFN_NONE || !pte_wrprotected(pt, i))
			return 0;
		old = pt->pte[i];
		if (pt->huge && !thp_mapped_shared(m, old)) {
			wp_huge_reuse(mm, addr);
			mm_charge(ctx, COST_PTE, 1);
			return 0;
		}
		if (pt->huge) {
			if (split_huge_at(ctx, mm, (addr & ~(PMD_SIZE - 1)) + PAGE_SIZE))
				return -MM_ENOMEM;
			continue;
		}
		if (!anon_mapped_shared(m, old)) {
			pte_set_bit(pt->wrprotect, i, false);
			mm_charge(ctx, COST_PTE, 1);
			return 0;
		}
		new = alloc_anon_copy(ctx, mm, addr);
		if (new == PFN_NONE)
			return -MM_ENOMEM;
		pt = pte_table_lookup(mm, addr);
		if (!pt || pt->huge || pt->pte[i] != old || !pte_wrprotected(pt, i)) {
			__free_pages(ctx, m, new);
			continue;
		}
		pt->pte[i] = new;
		pte_set_bit(pt->wrprotect, i, false);
		pte_numa_reset(pt, i);
		if (pte_lazyfree(pt, i)) {
			pte_set_lazyfree(pt, i, false);
			mm->nr_lazyfree--;
		}
		tlb_gather_init(&tlb, ctx, mm);
		wp_unmap_old(&tlb, old);
		ptl = pte_lockptr(mm, addr);
		spin_lock(ctx, ptl, SITE_WP_PAGE_COPY);
		mm_charge(ctx, COST_PTE, 1);
		folio_add_lru(ctx, m, new);
		spin_unlock(ctx, ptl);
		mm_charge(ctx, COST_TLB_FLUSH, 1);     /* ptep_clear_flush */
		tlb_finish_mmu(&tlb);
		return 0;
	}
}

/* The frames a fork step needs before it can go on: the child's tables
 * by level ([0]: a copy of a pinned page), each made for one address, and
 * a THP mapping's deposit. */
struct fork_stash {
	pfn_t frame[PGTABLE_PUD + 1];
	uint64_t at[PGTABLE_PUD + 1];
	pfn_t *dep;             /* NULL: none */
	unsigned ndep;
	uint64_t dep_at;
	enum thp_size dep_size;
	pfn_t copied;           /* a pinned page's copy the last step mapped */
};

/* What the step stopped for: a frame of level (0-3) at addr, or (level
 * -1) the deposit of a THP mapping of size at addr. */
struct fork_need {
	int level;
	uint64_t at;
	enum thp_size size;
};

/* The stashed frame of this level if it was made for the table (or page)
 * at addr, else PFN_NONE. */
static pfn_t stash_take(struct fork_stash *st, int level, uint64_t addr)
{
	pfn_t f = st->frame[level];
	bool fits = level ? pgtable_offset(level, st->at[level]) == pgtable_offset(level, addr) :
			st->at[0] == addr;

	if (f == PFN_NONE || !fits)
		return PFN_NONE;
	st->frame[level] = PFN_NONE;
	return f;
}

/* dst's table of this level (PUD or PMD) covering addr, the missing ones
 * made from the stash; NULL with *need set if a frame is missing. */
static struct pt_dir *child_dir(struct mm_struct *dst, uint64_t addr, int level,
				struct fork_stash *st, struct fork_need *need,
				unsigned long *written)
{
	struct pt_dir *dir = dst->pgd;

	for (int l = PGTABLE_PUD; l >= level; l--) {
		unsigned i = level_index(addr, l + 1);

		if (!dir->entry[i]) {
			pfn_t f = stash_take(st, l, addr);

			if (f == PFN_NONE) {
				need->level = l;
				need->at = addr;
				return NULL;
			}
			dir->entry[i] = pt_dir_new(f);
			dir->nr++;
			dst->nr_pgtables++;
			(*written)++;
		}
		dir = dir->entry[i];
	}
	return dir;
}

/* copy_huge_pmd / copy_huge_pud for the mapping of size at haddr. */
static bool copy_huge_step(struct mm_struct *dst, struct mm_struct *src, enum thp_size size,
			   uint64_t haddr, struct fork_stash *st, struct fork_need *need,
			   unsigned long *written)
{
	struct pt_dir *dir = child_dir(dst, haddr, size == THP_PUD ? PGTABLE_PUD : PGTABLE_PMD,
				       st, need, written);

	if (!dir)
		return false;
	if (!st->dep || st->dep_at != haddr || st->dep_size != size) {
		need->level = -1;
		need->at = haddr;
		need->size = size;
		return false;
	}
	*written += size == THP_PUD ? copy_huge_pud(dst, src, dir, haddr, st->dep, st->ndep) :
		    copy_huge_pmd(dst, src, dir, haddr, st->dep, st->ndep);
	g_free(st->dep);
	st->dep = NULL;
	return true;
}

/* copy_pte_range for [s, e) of the PTE table spt: each page shared and
 * write-protected in both, or, if pinned, copied (page_needs_cow_for_dma);
 * *addr the address reached. */
static bool copy_pte_step(struct mm_struct *dst, struct pte_table *spt, uint64_t s, uint64_t e,
			  uint64_t *addr, struct fork_stash *st, struct fork_need *need,
			  unsigned long *written)
{
	struct machine *m = dst->m;
	struct pt_dir *dir = child_dir(dst, s, PGTABLE_PMD, st, need, written);
	unsigned idx = level_index(s, PGTABLE_PMD);
	struct pte_table *pt;

	if (!dir)
		return false;
	pt = dir->entry[idx];
	if (!pt) {
		pfn_t f = stash_take(st, PGTABLE_PTE, s);

		if (f == PFN_NONE) {
			need->level = PGTABLE_PTE;
			need->at = s;
			return false;
		}
		pt = dir->entry[idx] = pte_table_new(f);
		dir->nr++;
		dst->nr_pgtables++;
		(*written)++;
	}
	for (uint64_t a = s; a < e && spt->nr_present; a += PAGE_SIZE) {
		unsigned i = level_index(a, PGTABLE_PTE);
		pfn_t pfn = spt->pte[i];
		bool small;

		if (pfn == PFN_NONE || pt->pte[i] != PFN_NONE)
			continue;
		small = order0_page(m, pfn);
		if (small && (m->mm.flags[pfn].aux & PG_pinned)) {
			pfn_t copy = stash_take(st, 0, a);

			if (copy == PFN_NONE) {
				*addr = a;
				need->level = 0;
				need->at = a;
				return false;
			}
			pt->pte[i] = copy;
			st->copied = copy;
		} else {
			pt->pte[i] = pfn;
			pte_set_bit(pt->wrprotect, i, true);
			if (!pte_wrprotected(spt, i)) {
				pte_set_bit(spt->wrprotect, i, true);
				(*written)++;
			}
			if (small)
				anon_share_add(m, pfn, dst->pid);
			else
				thp_dup_rmap(m, pfn, dst->pid, 1);
		}
		pt->nr_present++;
		dst->rss++;
		(*written)++;
		/* One copy per step: its LRU add is an engine call. */
		if (st->copied != PFN_NONE) {
			*addr = a + PAGE_SIZE;
			return true;
		}
	}
	*addr = e;
	return true;
}

/* One step of copy_page_range, with no engine call: the next table or huge
 * mapping of src's live VMAs from *addr copied into dst.  0 when all is
 * copied, 1 after a step, 2 if need says what to allocate first. */
static int copy_step(struct mm_struct *dst, struct mm_struct *src, uint64_t *addr,
		     struct fork_stash *st, struct fork_need *need, unsigned long *written)
{
	for (;;) {
		unsigned v = next_live(src, *addr);
		struct vm_area_struct *vma;
		struct pte_table *pt;
		uint64_t s, e, ts;
		bool done;

		if (v == src->vmas->len)
			return 0;
		vma = vma_at(src, v);
		s = MAX(*addr, vma->vm_start);
		e = vma->vm_end;
		pt = next_table(src, PGTABLE_PTE, s, e, &ts);
		if (!pt) {
			*addr = e;
			continue;
		}
		s = MAX(s, ts);
		if (dir_lookup(src, PGTABLE_PMD, ts)->huge) {
			uint64_t base = ts & ~(PUD_SIZE - 1);

			done = copy_huge_step(dst, src, THP_PUD, base, st, need, written);
			if (done)
				*addr = base + PUD_SIZE;
		} else if (pt->huge) {
			done = copy_huge_step(dst, src, THP_PMD, ts, st, need, written);
			if (done)
				*addr = ts + PMD_SIZE;
		} else {
			done = copy_pte_step(dst, pt, s, MIN(e, ts + level_span(PGTABLE_PTE)), addr, st,
					     need, written);
		}
		return done ? 1 : 2;
	}
}

static void stash_free_dep(struct mm_ctx *ctx, struct machine *m, struct fork_stash *st)
{
	for (unsigned k = 0; st->dep && k < st->ndep; k++)
		__free_pages(ctx, m, st->dep[k]);
	g_free(st->dep);
	st->dep = NULL;
}

/* Allocate what the step needs (engine calls); false if out of memory. */
static bool stash_fill(struct mm_ctx *ctx, struct mm_struct *mm, struct fork_stash *st,
		       const struct fork_need *need)
{
	struct machine *m = mm->m;
	pfn_t f;

	if (need->level < 0) {
		pfn_t *dep = g_new(pfn_t, 1 + PTRS_PER_TABLE);
		unsigned want, got;

		stash_free_dep(ctx, m, st);
		got = thp_deposit_alloc(ctx, mm, need->size, need->at, dep, &want);
		st->dep = dep;
		st->ndep = got;
		st->dep_at = need->at;
		st->dep_size = need->size;
		return got == want;
	}
	if (st->frame[need->level] != PFN_NONE) {
		__free_pages(ctx, m, st->frame[need->level]);
		st->frame[need->level] = PFN_NONE;
	}
	f = need->level ? fault_alloc(ctx, mm, need->level, need->at) :
	    alloc_anon_copy(ctx, mm, need->at);
	st->frame[need->level] = f;
	st->at[need->level] = need->at;
	return f != PFN_NONE;
}

/* dup_mmap: the VMAs, then the tables a step at a time, allocating
 * between steps; 0 or -MM_ENOMEM. */
static int dup_mmap(struct mm_ctx *ctx, struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct machine *m = mm->m;
	struct fork_stash st = { .copied = PFN_NONE };
	uint64_t addr = 0;
	int ret = 0;

	for (unsigned l = 0; l <= PGTABLE_PUD; l++)
		st.frame[l] = PFN_NONE;
	for (unsigned v = 0; v < oldmm->vmas->len; v++) {
		if (vma_at(oldmm, v)->dying)
			continue;
		g_array_append_val(mm->vmas, *vma_at(oldmm, v));
		mm->map_count++;
	}
	mm->policy = oldmm->policy;
	for (;;) {
		struct fork_need need = { 0 };
		unsigned long written = 0;
		int r = copy_step(mm, oldmm, &addr, &st, &need, &written);
		pfn_t copied = st.copied;

		st.copied = PFN_NONE;
		if (written)
			mm_charge(ctx, COST_PTE, written);
		if (copied != PFN_NONE)
			folio_add_lru(ctx, m, copied);
		if (!r)
			break;
		if (r == 2 && !stash_fill(ctx, mm, &st, &need)) {
			ret = -MM_ENOMEM;
			break;
		}
	}
	for (unsigned l = 0; l <= PGTABLE_PUD; l++)
		if (st.frame[l] != PFN_NONE)
			__free_pages(ctx, m, st.frame[l]);
	stash_free_dep(ctx, m, &st);
	/* flush_tlb_mm: the parent's entries were write-protected. */
	mm_charge(ctx, COST_TLB_FLUSH, 1);
	return ret;
}

static struct mm_struct *__dup_mm(struct mm_ctx *ctx, struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc(ctx, oldmm->m);
	int ret;

	if (!mm)
		return NULL;
	oldmm->m->procs->forked = true;
	spin_lock(ctx, &oldmm->mmap_lock, SITE_DUP_MMAP);
	/* Its present entries are write-protected. */
	mmu_notifier_invalidate(oldmm, 0, TASK_SIZE);
	mm_cpumask_set(oldmm, ctx->cpu);
	ret = dup_mmap(ctx, mm, oldmm);
	spin_unlock(ctx, &oldmm->mmap_lock);
	if (ret) {
		exit_mmap(ctx, mm);
		return NULL;
	}
	return mm;
}

struct mm_struct *dup_mm(struct mm_ctx *ctx, struct mm_struct *oldmm)
{
	struct mm_struct *mm;

	mm_bulk_begin(ctx);
	mm = __dup_mm(ctx, oldmm);
	mm_bulk_end(ctx);
	return mm;
}

struct shared_count {
	struct machine *m;
	unsigned long n;
};

static void count_shared(uint64_t addr, pfn_t pfn, void *priv)
{
	struct shared_count *c = priv;

	(void)addr;
	c->n += anon_mapped_shared(c->m, pfn);
}

unsigned long mm_shared_pages(const struct mm_struct *mm)
{
	struct shared_count c = { .m = mm->m };

	if (mm->m->procs->forked)
		walk_page_range(mm, 0, TASK_SIZE, count_shared, &c);
	return c.n;
}

/* Process pid must map pfn at addr, write-protected. */
static void check_mapping(struct machine *m, unsigned pid, uint64_t addr, pfn_t pfn,
			  GString *out)
{
	struct mm_struct *mm = mm_find(m, pid);
	struct pte_table *pt = mm ? pte_table_lookup(mm, addr) : NULL;
	unsigned i = level_index(addr, PGTABLE_PTE);

	if (!pt || pt->pte[i] != pfn)
		g_string_append_printf(out, "shared page %u: pid %u does not map it at %#"
				       G_GINT64_MODIFIER "x\n", pfn, pid, addr);
	else if (!pte_wrprotected(pt, i))
		g_string_append_printf(out, "shared page %u: writable in pid %u\n", pfn, pid);
}

void anon_share_check(struct machine *m, GHashTable *mappings, GString *out)
{
	GHashTableIter it;
	gpointer k, v;

	if (!m->procs || !m->procs->shared)
		return;
	g_hash_table_iter_init(&it, m->procs->shared);
	while (!fatal_signal_pending() && g_hash_table_iter_next(&it, &k, &v)) {
		pfn_t pfn = GPOINTER_TO_UINT(k);
		const struct anon_share *sh = v;
		uint32_t owner;
		uint64_t addr;

		if (pfn >= m->mm.nr_frames || !order0_page(m, pfn) ||
		    owner_kind(page_owner(m, pfn)) != OWNER_KIND_ANON || !sh->nr) {
			g_string_append_printf(out, "shared page %u: not an anonymous page with "
					       "sharers\n", pfn);
			continue;
		}
		owner = page_owner(m, pfn) & OWNER_ID_MASK;
		addr = (uint64_t)page_owner_offset(m, pfn) << PAGE_SHIFT;
		check_mapping(m, owner, addr, pfn, out);
		for (unsigned j = 0; j < sh->nr; j++)
			if (sh->pid[j] == owner || (j && sh->pid[j] <= sh->pid[j - 1]))
				g_string_append_printf(out, "shared page %u: pid %u listed twice or "
						       "out of order\n", pfn, sh->pid[j]);
		/* Each mapping found was checked to be the owner's or a listed
		 * sharer's, at the owner's address: as many as the owner and
		 * the sharers means each of them maps it.  Otherwise, who not. */
		if (GPOINTER_TO_UINT(g_hash_table_lookup(mappings, k)) == sh->nr + 1)
			continue;
		for (unsigned j = 0; j < sh->nr; j++)
			check_mapping(m, sh->pid[j], addr, pfn, out);
	}
}
