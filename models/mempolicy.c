/* NUMA memory policies (mm/mempolicy.c): set_mempolicy, mbind, and the
 * node choice of every anonymous fault (get_vma_policy, policy_nodemask,
 * interleave_nid, weighted_interleave_nid, alloc_pages_mpol, and its
 * contiguous twin for 1 GiB THPs). */
#include "mempolicy.h"
#include "huge_memory.h"
#include "migrate.h"
#include "mm_space_internal.h"
#include "page_alloc.h"

#include <string.h>

static const char *const mode_names[MPOL_MAX] = {
	[MPOL_DEFAULT] = "default",
	[MPOL_PREFERRED] = "preferred",
	[MPOL_BIND] = "bind",
	[MPOL_INTERLEAVE] = "interleave",
	[MPOL_LOCAL] = "local",
	[MPOL_WEIGHTED_INTERLEAVE] = "weighted_interleave",
};

const char *mpol_mode_name(int mode)
{
	return mode >= 0 && mode < MPOL_MAX ? mode_names[mode] : NULL;
}

int mpol_parse_mode(const char *name)
{
	for (int i = 0; i < MPOL_MAX; i++)
		if (mode_names[i] && !strcmp(mode_names[i], name))
			return i;
	return -1;
}

int mpol_new(const struct machine *m, int mode, nodemask_t nodes, struct mempolicy *pol)
{
	bool wants_nodes = mode != MPOL_DEFAULT && mode != MPOL_LOCAL;

	if (!mpol_mode_name(mode) || (nodes >> (m->nr_nodes - 1)) > 1 ||
	    wants_nodes != (nodes != NODE_MASK_NONE))
		return -MM_EINVAL;
	pol->mode = (uint8_t)mode;
	pol->nodes = nodes;
	return 0;
}

bool mpol_equal(const struct mempolicy *a, const struct mempolicy *b)
{
	return a->mode == b->mode && a->nodes == b->nodes;
}

void do_set_mempolicy(struct mm_struct *mm, const struct mempolicy *pol)
{
	mm->policy = *pol;
}

/* Whether the VMA around addr (one starting before it) takes another
 * policy, so that a new edge at addr splits it. */
static bool mbind_edge_splits(const struct mm_struct *mm, uint64_t addr,
			      const struct mempolicy *pol)
{
	struct vm_area_struct *vma = find_live_vma(mm, addr);

	return vma && vma->vm_start < addr && !mpol_equal(&vma->policy, pol);
}

int do_mbind(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t len,
	     const struct mempolicy *pol)
{
	uint64_t end, addr;
	unsigned i, first;

	if ((start & (PAGE_SIZE - 1)) || len > TASK_SIZE || start > TASK_SIZE - len)
		return -MM_EINVAL;
	end = start + ((len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
	if (end == start)
		return 0;
	/* The whole range must be mapped before anything changes. */
	addr = start;
	for (i = vma_lower_bound(mm, start); addr < end; i++) {
		if (i == mm->vmas->len || vma_at(mm, i)->dying || vma_at(mm, i)->vm_start > addr)
			return -MM_EFAULT;
		addr = vma_at(mm, i)->vm_end;
	}
	/* __split_vma's vma_adjust_trans_huge: a THP mapping a new VMA edge
	 * cuts is split first (-ENOMEM, nothing changed, if that fails).
	 * From here on no engine call: the VMAs stay as checked. */
	if ((mbind_edge_splits(mm, start, pol) && split_huge_at(ctx, mm, start)) ||
	    (mbind_edge_splits(mm, end, pol) && split_huge_at(ctx, mm, end)))
		return -MM_ENOMEM;
	first = i = vma_lower_bound(mm, start);
	for (; i < mm->vmas->len && vma_at(mm, i)->vm_start < end; i++) {
		if (mpol_equal(&vma_at(mm, i)->policy, pol))
			continue;
		if (vma_at(mm, i)->vm_start < start)
			vma_split(mm, i++, start);
		if (vma_at(mm, i)->vm_end > end)
			vma_split(mm, i, end);
		vma_at(mm, i)->policy = *pol;
	}
	vma_merge_range(mm, first ? first - 1 : 0, i ? i - 1 : 0);
	return 0;
}

const struct mempolicy *get_vma_policy(const struct mm_struct *mm, uint64_t addr)
{
	struct vm_area_struct *vma = find_live_vma(mm, addr);

	return vma && vma->policy.mode != MPOL_DEFAULT ? &vma->policy : &mm->policy;
}

/* The n-th node (from 0) of a mask holding more than n nodes. */
static unsigned nth_node(nodemask_t mask, unsigned n)
{
	while (n--)
		mask &= mask - 1;
	return first_node(mask);
}

unsigned interleave_nid(const struct machine *m, const struct mempolicy *pol, uint64_t ilx)
{
	uint64_t total = 0, target;

	if (pol->mode == MPOL_INTERLEAVE)
		return nth_node(pol->nodes, (unsigned)(ilx % nodes_weight(pol->nodes)));
	for (nodemask_t n = pol->nodes; n; n &= n - 1)
		total += m->iw_table[first_node(n)];
	target = ilx % total;
	for (nodemask_t n = pol->nodes;; n &= n - 1) {
		unsigned nid = first_node(n);

		if (target < m->iw_table[nid])
			return nid;
		target -= m->iw_table[nid];
	}
}

nodemask_t policy_nodemask(const struct machine *m, const struct mempolicy *pol, uint64_t ilx,
			   unsigned local, unsigned *nid)
{
	*nid = local;
	switch (pol->mode) {
	case MPOL_PREFERRED:
		*nid = first_node(pol->nodes);
		return NODE_MASK_NONE;
	case MPOL_BIND:
		return pol->nodes;
	case MPOL_INTERLEAVE:
	case MPOL_WEIGHTED_INTERLEAVE:
		*nid = interleave_nid(m, pol, ilx);
		return NODE_MASK_NONE;
	default:
		return NODE_MASK_NONE;
	}
}

/* get_vma_policy() and policy_nodemask() for a folio of order at addr:
 * the nodes allowed, the node to start from in *nid, and in *local_first
 * whether a huge folio tries that node alone first.  An anonymous VMA's
 * vm_pgoff is its start's page number, so the interleave index is the
 * virtual page number in folios of this order. */
static nodemask_t mpol_folio_nodes(struct mm_ctx *ctx, struct mm_struct *mm, unsigned order,
				   uint64_t addr, unsigned *nid, bool *local_first)
{
	const struct mempolicy *pol = get_vma_policy(mm, addr);
	nodemask_t mask = policy_nodemask(mm->m, pol, addr >> (PAGE_SHIFT + order),
					  topology_cpu_to_node(&mm->m->topo, ctx->cpu), nid);

	/* A THP far from its user costs more in remote accesses than it
	 * saves, so unless the policy spreads pages on purpose or excludes
	 * this node, the node is tried alone first. */
	*local_first = pol->mode != MPOL_INTERLEAVE && pol->mode != MPOL_WEIGHTED_INTERLEAVE &&
		       (!mask || node_isset(*nid, mask));
	return mask;
}

pfn_t alloc_pages_mpol(struct mm_ctx *ctx, struct mm_struct *mm, gfp_t gfp, unsigned order,
		       uint64_t addr, uint32_t owner, uint32_t offset)
{
	struct machine *m = mm->m;
	unsigned nid;
	bool local_first;
	nodemask_t mask = mpol_folio_nodes(ctx, mm, order, addr, &nid, &local_first);

	if (order == HPAGE_PMD_ORDER && local_first) {
		pfn_t pfn = __alloc_pages_nodemask(ctx, m, gfp | __GFP_NORETRY, order, (int)nid,
						   nodemask_of_node(nid), owner, offset);

		/* Remote memory only for a fault that may reclaim and compact. */
		if (pfn != PFN_NONE || !(gfp & __GFP_DIRECT_RECLAIM))
			return pfn;
	}
	return __alloc_pages_nodemask(ctx, m, gfp, order, (int)nid, mask, owner, offset);
}

pfn_t alloc_contig_mpol(struct mm_ctx *ctx, struct mm_struct *mm, gfp_t gfp, unsigned order,
			uint64_t addr, uint32_t owner)
{
	struct machine *m = mm->m;
	unsigned nid;
	bool local_first;
	nodemask_t mask = mpol_folio_nodes(ctx, mm, order, addr, &nid, &local_first);
	pfn_t pfn;

	if (local_first) {
		pfn = alloc_contig_pages(ctx, m, 1UL << order, gfp, (int)nid, nodemask_of_node(nid),
					 owner, NULL);
		if (pfn != PFN_NONE || !(gfp & __GFP_DIRECT_RECLAIM))
			return pfn;
		/* The node's ranges were all tried, migration included. */
		mask = (mask ? mask : ~NODE_MASK_NONE) & ~nodemask_of_node(nid);
		if (!mask)
			return PFN_NONE;
	}
	return alloc_contig_pages(ctx, m, 1UL << order, gfp, (int)nid, mask, owner, NULL);
}

int mpol_misplaced(const struct mm_struct *mm, uint64_t addr, unsigned this_nid)
{
	return get_vma_policy(mm, addr)->mode == MPOL_DEFAULT ? (int)this_nid : -1;
}

/* node_remap(): the node of to at the position s has in from. */
static unsigned node_remap(unsigned s, nodemask_t from, nodemask_t to)
{
	unsigned pos = nodes_weight(from & (nodemask_of_node(s) - 1));

	return nth_node(to, pos % nodes_weight(to));
}

int do_migrate_pages(struct mm_ctx *ctx, struct mm_struct *mm, nodemask_t from, nodemask_t to,
		     struct page_move_counts *c)
{
	nodemask_t tmp = from;

	if (!from || !to || from == to)
		return 0;
	while (tmp) {
		int source = -1;
		unsigned dest = 0;

		/* A source whose destination has no pages left to move out
		 * first, so no page moves twice. */
		for (nodemask_t n = tmp; n; n &= n - 1) {
			unsigned s = first_node(n), d = node_remap(s, from, to);

			if (s == d)
				continue;
			source = (int)s;
			dest = d;
			if (!node_isset(d, tmp))
				break;
		}
		if (source < 0)
			break;
		tmp &= ~nodemask_of_node((unsigned)source);
		if (migrate_to_node(ctx, mm->m, mm, (unsigned)source, dest, c))
			return -MM_ENOMEM;
	}
	return 0;
}
