/* Processes and their VMAs: the process table, mmap's top-down placement,
 * munmap, the VMA changes madvise and mprotect make, and exit
 * (kernel/fork.c, mm/mmap.c, mm/vma.c).  Page tables are in
 * mm_space_pgtable.c, madvise in madvise.c, mprotect in mprotect.c, the
 * anonymous reverse map in rmap.c.
 *
 * VMAs live in an array sorted by address: lookups are binary searches.
 * Adjacent VMAs with the same protection merge, as anonymous VMAs do, so
 * the array stays short and mmap's top-down gap search, linear here where
 * the kernel's maple tree tracks gaps, stays cheap.  Not modelled yet:
 * vm.max_map_count, the shared zero page (a read fault allocates a page as
 * a write fault does), stack guard gaps and address randomisation. */
#include "fork.h"
#include "mm_space_internal.h"
#include "page_alloc.h"
#include "swap.h"

static gint pid_cmp(gconstpointer a, gconstpointer b)
{
	unsigned x = GPOINTER_TO_UINT(a), y = GPOINTER_TO_UINT(b);

	return (x > y) - (x < y);
}

/* The first VMA (live or dying) that ends above addr; the array's length
 * if none. */
unsigned vma_lower_bound(const struct mm_struct *mm, uint64_t addr)
{
	unsigned lo = 0, hi = mm->vmas->len;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (vma_at(mm, mid)->vm_end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The first live VMA that ends above addr. */
unsigned next_live(const struct mm_struct *mm, uint64_t addr)
{
	unsigned i = vma_lower_bound(mm, addr);

	while (i < mm->vmas->len && vma_at(mm, i)->dying)
		i++;
	return i;
}

struct vm_area_struct *__find_live_vma(const struct mm_struct *mm, uint64_t addr)
{
	/* The VMAs do not overlap: one that holds addr is the lower bound. */
	unsigned i = vma_lower_bound(mm, addr);
	struct vm_area_struct *vma;

	if (i == mm->vmas->len)
		return NULL;
	/* Only the cache changes: mm is never a const object. */
	((struct mm_struct *)mm)->vma_hint = i;
	vma = vma_at(mm, i);
	return vma->vm_start <= addr && !vma->dying ? vma : NULL;
}

/* Whether any VMA, placeholders included, meets [start, end): its page
 * tables are still needed. */
bool range_has_vma(const struct mm_struct *mm, uint64_t start, uint64_t end)
{
	unsigned i = vma_lower_bound(mm, start);

	return i < mm->vmas->len && vma_at(mm, i)->vm_start < end;
}

/* __split_vma: vma i becomes [vm_start, addr) and [addr, vm_end). */
void vma_split(struct mm_struct *mm, unsigned i, uint64_t addr)
{
	struct vm_area_struct tail = *vma_at(mm, i);

	tail.vm_start = addr;
	vma_at(mm, i)->vm_end = addr;
	g_array_insert_val(mm->vmas, i + 1, tail);
	if (!tail.dying)
		mm->map_count++;
}

/* vma_merge: join each pair of neighbours in [lo, hi + 1] that touch and
 * have the same protection and policy, as an anonymous mapping's VMAs merge. */
void vma_merge_range(struct mm_struct *mm, unsigned lo, unsigned hi)
{
	if (mm->vmas->len < 2)
		return;
	for (unsigned i = MIN(hi + 1, mm->vmas->len - 1); i-- > lo;) {
		struct vm_area_struct *a = vma_at(mm, i), *b = vma_at(mm, i + 1);

		if (a->dying || b->dying || a->vm_end != b->vm_start || a->prot != b->prot ||
		    a->vm_flags != b->vm_flags || !mpol_equal(&a->policy, &b->policy))
			continue;
		a->vm_end = b->vm_end;
		g_array_remove_index(mm->vmas, i + 1);
		mm->map_count--;
	}
}

static void ptl_free(gpointer ptl)
{
	spin_lock_destroy(ptl);
	g_free(ptl);
}

struct mm_struct *mm_alloc(struct mm_ctx *ctx, struct machine *m)
{
	struct mm_registry *reg = m->procs;
	struct mm_struct *mm;
	unsigned pid;
	pfn_t pgd;

	if (!reg) {
		reg = m->procs = g_new0(struct mm_registry, 1);
		reg->by_pid = g_tree_new(pid_cmp);
		reg->next_pid = 1;
	}
	/* The pid must fit the owner word. */
	if (reg->next_pid > OWNER_ID_MASK)
		return NULL;
	pid = reg->next_pid++;
	struct task_kobjs *kobjs;

	if (copy_process_objects(ctx, m, &kobjs))
		return NULL;
	pgd = __alloc_pages(ctx, m, GFP_KERNEL | __GFP_ZERO, 0,
			    (int)topology_cpu_to_node(&m->topo, ctx->cpu),
			    make_owner(OWNER_KIND_PGTABLE, pid), pgtable_offset(PGTABLE_PGD, 0));
	if (pgd == PFN_NONE) {
		free_task_objects(ctx, m, kobjs);
		return NULL;
	}
	mm = g_new0(struct mm_struct, 1);
	mm->m = m;
	mm->kobjs = kobjs;
	mm->pid = pid;
	mm->vmas = g_array_new(FALSE, FALSE, sizeof(struct vm_area_struct));
	mm->cpumask = g_new0(unsigned long, (m->nr_cpus + CPUMASK_WORD_BITS - 1) / CPUMASK_WORD_BITS);
	mm_cpumask_set(mm, ctx->cpu);
	mm->pgd = pt_dir_new(pgd);
	mm->nr_pgtables = 1;
	spin_lock_init(&mm->mmap_lock, LOCK_CLASS_MMAP);
	mm->ptlocks = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, ptl_free);
	g_tree_insert(reg->by_pid, GUINT_TO_POINTER(pid), mm);
	return mm;
}

int mm_clone_thread(struct mm_ctx *ctx, struct mm_struct *mm, unsigned *tid)
{
	return copy_thread_objects(ctx, mm->m, mm->kobjs, tid) ? -MM_ENOMEM : 0;
}

int mm_exit_thread(struct mm_ctx *ctx, struct mm_struct *mm, unsigned tid)
{
	return exit_thread_objects(ctx, mm->m, mm->kobjs, tid) ? -MM_EINVAL : 0;
}

unsigned mm_threads(const struct mm_struct *mm)
{
	return task_threads(mm->kobjs);
}

static void mm_struct_free(struct mm_struct *mm)
{
	if (mm->pgd)
		free_table_tree(mm->pgd, PGTABLE_PGD);
	g_array_free(mm->vmas, TRUE);
	g_free(mm->cpumask);
	task_objects_forget(mm->kobjs);
	g_hash_table_destroy(mm->ptlocks);
	spin_lock_destroy(&mm->mmap_lock);
	g_free(mm);
}

struct spinlock *pte_lockptr(struct mm_struct *mm, uint64_t addr)
{
	gsize index = (gsize)(addr >> PTE_TABLE_SHIFT);
	gpointer key = GSIZE_TO_POINTER(index);
	struct spinlock *ptl;

	if (mm->ptl_last && mm->ptl_last_key == index)
		return mm->ptl_last;
	ptl = g_hash_table_lookup(mm->ptlocks, key);
	if (!ptl) {
		ptl = g_new(struct spinlock, 1);
		spin_lock_init(ptl, LOCK_CLASS_PTL);
		g_hash_table_insert(mm->ptlocks, key, ptl);
	}
	mm->ptl_last = ptl;
	mm->ptl_last_key = index;
	return ptl;
}

void mmap_read_lock_entry(struct mm_ctx *ctx, struct mm_struct *mm, enum lock_site site)
{
	if (mm->mmap_lock.owner == -1) {
		mm_touch(ctx, &mm->mmap_lock.cl);
		return;
	}
	spin_lock(ctx, &mm->mmap_lock, site);
	spin_unlock(ctx, &mm->mmap_lock);
}

static gboolean free_one(gpointer key, gpointer value, gpointer data)
{
	(void)key, (void)data;
	mm_struct_free(value);
	return FALSE;
}

void mm_free_all(struct machine *m)
{
	if (!m->procs)
		return;
	g_tree_foreach(m->procs->by_pid, free_one, NULL);
	g_tree_destroy(m->procs->by_pid);
	if (m->procs->shared)
		g_hash_table_destroy(m->procs->shared);
	g_free(m->procs);
	m->procs = NULL;
}

struct mm_struct *mm_find(struct machine *m, unsigned pid)
{
	return m->procs ? g_tree_lookup(m->procs->by_pid, GUINT_TO_POINTER(pid)) : NULL;
}

/* The start of a mapping of len at the top of the gap [bottom, top),
 * aligned down to align, or 0 if it does not fit. */
static uint64_t gap_fit(uint64_t bottom, uint64_t top, uint64_t len, uint64_t align)
{
	uint64_t start;

	if (top - bottom < len)
		return 0;
	start = (top - len) & ~(align - 1);
	return start >= bottom ? start : 0;
}

/* vma_link at index i: the new VMA goes in and merges with its neighbours. */
static void vma_link(struct mm_struct *mm, unsigned i, uint64_t start, uint64_t end, int prot)
{
	struct vm_area_struct vma = { .vm_start = start, .vm_end = end, .prot = prot };

	g_array_insert_val(mm->vmas, i, vma);
	mm->map_count++;
	vma_merge_range(mm, i ? i - 1 : 0, i);
}

/* unmapped_area_topdown: the highest gap below mmap_base that fits.  A
 * length that is a multiple of 2 MiB is placed 2 MiB-aligned, as
 * thp_get_unmapped_area does for anonymous mappings, so that THPs can map
 * it; the kernel does so whenever THP is built in, the model only when
 * 2 MiB THPs are "always", so that placements (and every figure) stay as
 * they were under the default. */
uint64_t mmap_anon(struct mm_struct *mm, uint64_t len, int prot, int *err)
{
	uint64_t top = MMAP_BASE, align = PAGE_SIZE, start = 0;
	unsigned i;

	*err = 0;
	if (!len || !prot_valid(prot)) {
		*err = -MM_EINVAL;
		return 0;
	}
	if (len > TASK_SIZE) {
		*err = -MM_ENOMEM;
		return 0;
	}
	len = page_align(len);
	if (mm->m->thp == THP_ALWAYS && !(len & (level_span(PGTABLE_PTE) - 1)))
		align = level_span(PGTABLE_PTE);
	/* Placeholders count as mapped: their range is not free until the
	 * munmap removing them is done. */
	for (i = mm->vmas->len; i > 0; i--) {
		start = gap_fit(vma_at(mm, i - 1)->vm_end, top, len, align);
		if (start)
			break;
		top = vma_at(mm, i - 1)->vm_start;
	}
	if (!i)
		start = top > MMAP_MIN_ADDR ? gap_fit(MMAP_MIN_ADDR, top, len, align) : 0;
	if (!start) {
		*err = -MM_ENOMEM;
		return 0;
	}
	vma_link(mm, i, start, start + len, prot);
	return start;
}

/* MAP_FIXED_NOREPLACE: [addr, addr + len) must be free (placeholders count
 * as mapped); -MM_EEXIST if anything is there. */
static int mmap_anon_fixed(struct mm_struct *mm, uint64_t addr, uint64_t len, int prot)
{
	unsigned i;

	if (!len || !prot_valid(prot) || (addr & (PAGE_SIZE - 1)))
		return -MM_EINVAL;
	len = page_align(len);
	if (addr < MMAP_MIN_ADDR || addr > TASK_SIZE || len > TASK_SIZE - addr)
		return -MM_ENOMEM;
	i = vma_lower_bound(mm, addr);
	if (i < mm->vmas->len && vma_at(mm, i)->vm_start < addr + len)
		return -MM_EEXIST;
	vma_link(mm, i, addr, addr + len, prot);
	return 0;
}

/* The next stretch of [addr, end) held by this call's placeholders. */
static bool next_owned(const struct mm_struct *mm, unsigned token, uint64_t addr, uint64_t end,
		       uint64_t *s, uint64_t *e)
{
	for (unsigned i = vma_lower_bound(mm, addr); i < mm->vmas->len; i++) {
		struct vm_area_struct *vma = vma_at(mm, i);

		if (vma->vm_start >= end)
			break;
		if (vma->dying == token) {
			*s = MAX(addr, vma->vm_start);
			*e = MIN(end, vma->vm_end);
			return true;
		}
	}
	return false;
}

/* Zap the placeholders tagged token in [start, end), remove them, and
 * free the page tables left without a VMA. */
static void unmap_region(struct mmu_gather *tlb, unsigned token, uint64_t start, uint64_t end)
{
	struct mm_struct *mm = tlb->mm;
	uint64_t s, e;

	for (uint64_t addr = start; next_owned(mm, token, addr, end, &s, &e); addr = e)
		zap_page_range(tlb, s, e);
	for (unsigned i = vma_lower_bound(mm, start);
	     i < mm->vmas->len && vma_at(mm, i)->vm_start < end;) {
		if (vma_at(mm, i)->dying == token)
			g_array_remove_index(mm->vmas, i);
		else
			i++;
	}
	free_pgtables(tlb, start, end);
}

static unsigned new_token(struct mm_struct *mm)
{
	if (!++mm->next_token)
		mm->next_token = 1;
	return mm->next_token;
}

uint64_t vm_mmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t len, int prot, int *err)
{
	uint64_t addr;

	spin_lock(ctx, &mm->mmap_lock, SITE_VM_MMAP_PGOFF);
	addr = mmap_anon(mm, len, prot, err);
	spin_unlock(ctx, &mm->mmap_lock);
	return addr;
}

/* MAP_FIXED: whatever was mapped in the range is unmapped first.  The
 * kernel detaches the old VMAs and links the new one in one hold of
 * mmap_lock; here the munmap runs whole first, so a mapping another thread
 * places into the hole in between makes the call fail with -MM_EEXIST. */
int vm_mmap_fixed(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len,
		  int prot)
{
	int err;

	if (!len || !prot_valid(prot) || (addr & (PAGE_SIZE - 1)))
		return -MM_EINVAL;
	if (addr < MMAP_MIN_ADDR || addr > TASK_SIZE || page_align(len) > TASK_SIZE - addr)
		return -MM_ENOMEM;
	err = do_munmap(ctx, mm, addr, len);
	if (err)
		return err;
	spin_lock(ctx, &mm->mmap_lock, SITE_VM_MMAP_PGOFF);
	err = mmap_anon_fixed(mm, addr, len, prot);
	spin_unlock(ctx, &mm->mmap_lock);
	return err;
}

/* __vm_munmap -> do_vmi_munmap: under mmap_lock for write, split the VMAs
 * at the edges and turn those inside into this call's placeholders; then,
 * the lock downgraded (mmap_write_downgrade), zap, remove them and free
 * the page tables. */
static int __do_munmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len)
{
	struct mmu_gather tlb;
	unsigned token, i;
	uint64_t end;
	bool detached = false;

	if ((addr & (PAGE_SIZE - 1)) || addr > TASK_SIZE || len > TASK_SIZE - addr)
		return -MM_EINVAL;
	len = page_align(len);
	if (!len)
		return -MM_EINVAL;
	end = addr + len;
	spin_lock(ctx, &mm->mmap_lock, SITE_VM_MUNMAP);
	/* No engine call from the last split check to the VMA changes: no
	 * fault maps a THP across the edges meanwhile. */
	if (split_huge_at(ctx, mm, addr) || split_huge_at(ctx, mm, end)) {
		spin_unlock(ctx, &mm->mmap_lock);
		return -MM_ENOMEM;
	}
	token = new_token(mm);
	i = vma_lower_bound(mm, addr);
	if (i < mm->vmas->len && vma_at(mm, i)->vm_start < addr && !vma_at(mm, i)->dying)
		vma_split(mm, i++, addr);
	for (; i < mm->vmas->len && vma_at(mm, i)->vm_start < end; i++) {
		if (vma_at(mm, i)->dying)
			continue;
		if (vma_at(mm, i)->vm_end > end)
			vma_split(mm, i, end);
		mmu_notifier_invalidate(mm, vma_at(mm, i)->vm_start, vma_at(mm, i)->vm_end);
		vma_at(mm, i)->dying = token;
		mm->map_count--;
		detached = true;
	}
	/* The zap runs as a reader: faults elsewhere in the process go on,
	 * and the readers of the model do not hold the lock. */
	spin_unlock(ctx, &mm->mmap_lock);
	if (!detached)
		return 0;
	mm_cpumask_set(mm, ctx->cpu);
	lru_add_drain(ctx, mm->m);
	tlb_gather_init(&tlb, ctx, mm);
	unmap_region(&tlb, token, addr, end);
	tlb_finish_mmu(&tlb);
	return 0;
}

int do_munmap(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t addr, uint64_t len)
{
	int ret;

	mm_bulk_begin(ctx);
	ret = __do_munmap(ctx, mm, addr, len);
	mm_bulk_end(ctx);
	return ret;
}

static bool vma_change_needed(const struct vm_area_struct *vma, const struct vma_change *c)
{
	return (c->prot >= 0 && vma->prot != c->prot) ||
	       ((vma->vm_flags | c->set) & ~c->clear) != vma->vm_flags;
}

/* Whether a THP mapping across the edge of the range at addr must be
 * split first: the VMA at in, inside the range next to the edge, changes
 * (vma_adjust_trans_huge when the VMA splits there; change_protection's
 * split of a huge entry the range covers in part when a VMA edge is there
 * already). */
static bool edge_splits(const struct mm_struct *mm, uint64_t in, const struct vma_change *c)
{
	struct vm_area_struct *vma = find_live_vma(mm, in);

	return vma && vma_change_needed(vma, c);
}

int vma_modify_range(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t end,
		     const struct vma_change *c, unsigned long *ptes)
{
	unsigned i, first;

	if ((edge_splits(mm, start, c) && split_huge_at(ctx, mm, start)) ||
	    (edge_splits(mm, end - PAGE_SIZE, c) && split_huge_at(ctx, mm, end)))
		return -MM_ENOMEM;
	/* From here on no engine call: the VMAs and tables stay as checked. */
	first = i = vma_lower_bound(mm, start);
	if (i == mm->vmas->len || vma_at(mm, i)->dying || vma_at(mm, i)->vm_start > start)
		return -MM_ENOMEM;
	mm_cpumask_set(mm, ctx->cpu);
	for (;;) {
		uint64_t next;

		if (vma_change_needed(vma_at(mm, i), c)) {
			if (vma_at(mm, i)->vm_start < start)
				vma_split(mm, i++, start);
			if (vma_at(mm, i)->vm_end > end)
				vma_split(mm, i, end);
			if (c->prot >= 0 && vma_at(mm, i)->prot != c->prot) {
				mmu_notifier_invalidate(mm, vma_at(mm, i)->vm_start,
							vma_at(mm, i)->vm_end);
				*ptes += count_present(mm, vma_at(mm, i)->vm_start,
						       vma_at(mm, i)->vm_end);
				vma_at(mm, i)->prot = c->prot;
			}
			vma_at(mm, i)->vm_flags = (vma_at(mm, i)->vm_flags | c->set) & ~c->clear;
		}
		next = vma_at(mm, i)->vm_end;
		if (next >= end)
			break;
		if (i + 1 == mm->vmas->len || vma_at(mm, i + 1)->dying ||
		    vma_at(mm, i + 1)->vm_start != next) {
			vma_merge_range(mm, first ? first - 1 : 0, i);
			return -MM_ENOMEM;
		}
		i++;
	}
	vma_merge_range(mm, first ? first - 1 : 0, i);
	return 0;
}

/* exit_mmap: every VMA becomes a placeholder, is zapped and removed, the
 * page tables are freed level by level and the PGD last. */
static void __exit_mmap(struct mm_ctx *ctx, struct mm_struct *mm)
{
	struct mmu_gather tlb;
	unsigned token = new_token(mm);
	pfn_t pgd = mm->pgd->page;

	spin_lock(ctx, &mm->mmap_lock, SITE_EXIT_MMAP);
	lru_add_drain(ctx, mm->m);
	mmu_notifier_invalidate(mm, 0, TASK_SIZE);
	for (unsigned i = 0; i < mm->vmas->len; i++)
		if (!vma_at(mm, i)->dying)
			vma_at(mm, i)->dying = token;
	mm->map_count = 0;
	tlb_gather_init(&tlb, ctx, mm);
	unmap_region(&tlb, token, 0, TASK_SIZE);
	tlb_finish_mmu(&tlb);
	g_assert(mm->pgd->nr == 0 && mm->rss == 0);
	g_free(mm->pgd);
	mm->pgd = NULL;
	mm->nr_pgtables--;
	g_tree_remove(mm->m->procs->by_pid, GUINT_TO_POINTER(mm->pid));
	__free_pages(ctx, mm->m, pgd);
	spin_unlock(ctx, &mm->mmap_lock);
	free_task_objects(ctx, mm->m, mm->kobjs);
	mm->kobjs = NULL;
	mm_struct_free(mm);
}

void exit_mmap(struct mm_ctx *ctx, struct mm_struct *mm)
{
	mm_bulk_begin(ctx);
	__exit_mmap(ctx, mm);
	mm_bulk_end(ctx);
}

void mmu_notifier_register(struct mm_struct *mm, struct mmu_notifier *sub)
{
	sub->next = mm->notifiers;
	mm->notifiers = sub;
}

void mmu_notifier_unregister(struct mm_struct *mm, struct mmu_notifier *sub)
{
	struct mmu_notifier **p = &mm->notifiers;

	while (*p != sub)
		p = &(*p)->next;
	*p = sub->next;
}

unsigned mm_pid(const struct mm_struct *mm)
{
	return mm->pid;
}

void mmget(struct mm_struct *mm)
{
	mm->mm_users++;
}

void mmput(struct mm_struct *mm)
{
	g_assert(mm->mm_users);
	mm->mm_users--;
}

unsigned mm_users(const struct mm_struct *mm)
{
	return mm->mm_users;
}

unsigned long mm_rss(const struct mm_struct *mm)
{
	return mm->rss;
}

unsigned long mm_pgtable_pages(const struct mm_struct *mm)
{
	return mm->nr_pgtables;
}

unsigned long mm_lazyfree_pages(const struct mm_struct *mm)
{
	return mm->nr_lazyfree;
}

unsigned long mm_thp_mappings(const struct mm_struct *mm, enum thp_size size)
{
	return size == THP_PUD ? mm->nr_thp_pud : mm->nr_thp_pmd;
}

unsigned mm_map_count(const struct mm_struct *mm)
{
	return mm->map_count;
}

bool mm_find_vma(const struct mm_struct *mm, uint64_t addr, uint64_t *start, uint64_t *end,
		 int *prot)
{
	unsigned i = next_live(mm, addr);

	if (i == mm->vmas->len)
		return false;
	*start = vma_at(mm, i)->vm_start;
	*end = vma_at(mm, i)->vm_end;
	*prot = vma_at(mm, i)->prot;
	return true;
}

unsigned mm_cpumask_weight(const struct mm_struct *mm)
{
	unsigned n = 0;

	for (unsigned w = 0; w < (mm->m->nr_cpus + CPUMASK_WORD_BITS - 1) / CPUMASK_WORD_BITS; w++)
		n += (unsigned)__builtin_popcountl(mm->cpumask[w]);
	return n;
}
