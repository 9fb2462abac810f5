/* madvise(2) (mm/madvise.c): MADV_DONTNEED and MADV_FREE over the live
 * VMAs of a range, MADV_HUGEPAGE and MADV_NOHUGEPAGE as VMA flag changes,
 * MADV_COLLAPSE (khugepaged.c's madvise_collapse). */
#include "mm_space_internal.h"

/* hugepage_madvise(): MADV_HUGEPAGE sets VM_HUGEPAGE and clears
 * VM_NOHUGEPAGE, MADV_NOHUGEPAGE the reverse; mapped THPs stay. */
static int hugepage_madvise(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start,
			    uint64_t end, int advice)
{
	struct vma_change c = { .prot = -1 };
	unsigned long ptes = 0;

	c.set = advice == MADV_HUGEPAGE ? VM_HUGEPAGE : VM_NOHUGEPAGE;
	c.clear = advice == MADV_HUGEPAGE ? VM_NOHUGEPAGE : VM_HUGEPAGE;
	if (start == end)
		return 0;
	return vma_modify_range(ctx, mm, start, end, &c, &ptes);
}

/* madvise_walk_vmas: the advice on every live VMA in the range, -ENOMEM
 * at the end if part of it was not mapped.  Each step looks the VMA up
 * again, since zapping frees pages between steps. */
static int __do_madvise(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t len,
			int advice)
{
	struct mmu_gather tlb;
	uint64_t end;
	bool unmapped = false;

	if (advice != MADV_DONTNEED && advice != MADV_FREE && advice != MADV_HUGEPAGE &&
	    advice != MADV_NOHUGEPAGE && advice != MADV_COLLAPSE)
		return -MM_EINVAL;
	if ((start & (PAGE_SIZE - 1)) || len > UINT64_MAX - PAGE_SIZE)
		return -MM_EINVAL;
	end = start + page_align(len);
	if (end < start)
		return -MM_EINVAL;
	if (advice == MADV_HUGEPAGE || advice == MADV_NOHUGEPAGE)
		return hugepage_madvise(ctx, mm, start, end, advice);
	if (advice == MADV_COLLAPSE)
		return madvise_collapse(ctx, mm, start, end);
	mm_cpumask_set(mm, ctx->cpu);
	/* A zap that cuts a THP mapping splits it first (the folio waits on
	 * the deferred split queue); MADV_FREE on part of a THP splits the
	 * folio now, and marks a whole one's pages where they are. */
	if (advice == MADV_DONTNEED &&
	    (split_huge_at(ctx, mm, start) || split_huge_at(ctx, mm, end)))
		return -MM_ENOMEM;
	if (advice == MADV_FREE)
		madvise_free_split(ctx, mm, start, end);
	tlb_gather_init(&tlb, ctx, mm);
	while (start < end) {
		unsigned i = next_live(mm, start);
		struct vm_area_struct *vma = i < mm->vmas->len ? vma_at(mm, i) : NULL;
		uint64_t seg_end;

		if (!vma || vma->vm_start >= end) {
			unmapped = true;
			break;
		}
		if (vma->vm_start > start) {
			unmapped = true;
			start = vma->vm_start;
		}
		seg_end = MIN(end, vma->vm_end);
		if (advice == MADV_DONTNEED) {
			start = zap_some(&tlb, start, seg_end);
			if (tlb_full(&tlb))
				tlb_flush_batch(&tlb);
		} else {
			unsigned long n = madvise_free_range(mm, start, seg_end);

			if (n && !tlb.ptes)
				tlb.ptl_addr = start;
			tlb.ptes += n;
			tlb.need_flush |= n != 0;
			start = seg_end;
		}
	}
	tlb_finish_mmu(&tlb);
	return unmapped ? -MM_ENOMEM : 0;
}

int do_madvise(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t len,
	       int advice)
{
	int ret;

	mm_bulk_begin(ctx);
	ret = __do_madvise(ctx, mm, start, len, advice);
	mm_bulk_end(ctx);
	return ret;
}

