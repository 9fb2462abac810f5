/* mprotect(2) (mm/mprotect.c). */
#include "mm_space_internal.h"

/* do_mprotect_pkey: present entries are rewritten and the TLB flushed;
 * nothing is freed. */
int do_mprotect(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t len, int prot)
{
	struct vma_change c = { .prot = prot };
	unsigned long ptes = 0;
	uint64_t end;
	int err;

	if ((start & (PAGE_SIZE - 1)) || !prot_valid(prot))
		return -MM_EINVAL;
	if (!len)
		return 0;
	if (len > UINT64_MAX - PAGE_SIZE)
		return -MM_ENOMEM;
	end = start + page_align(len);
	if (end <= start)
		return -MM_ENOMEM;
	err = vma_modify_range(ctx, mm, start, end, &c, &ptes);
	if (ptes) {
		mm_charge(ctx, COST_PTE, ptes);
		mm_charge(ctx, COST_TLB_FLUSH, 1);
	}
	return err;
}

