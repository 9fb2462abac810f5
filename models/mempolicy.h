/* NUMA memory policies (mm/mempolicy.c): which node an anonymous fault
 * takes its page from.  A policy belongs to an address space (the task
 * policy of set_mempolicy(2): the model's processes are single address
 * spaces, so it is kept per mm) or to a VMA (mbind(2)); a VMA's policy wins.
 *
 *   default, local   the faulting CPU's node, falling back in its zonelist order
 *   preferred        the first node of the set, falling back in its zonelist order
 *   bind             only the nodes of the set: the allocation fails rather
 *                    than fall back elsewhere
 *   interleave       page i of the mapping (its virtual page number, as
 *                    get_vma_policy's interleave index is for anonymous
 *                    VMAs) on the (i mod n)-th node of the set
 *   weighted_interleave  the same with node n taking iw_table[n] consecutive
 *                    slots (/sys/kernel/mm/mempolicy/weighted_interleave/nodeN,
 *                    default 1 each) */
#ifndef MMSIM_MEMPOLICY_H
#define MMSIM_MEMPOLICY_H

#include "mm_env.h"
#include "mmzone.h"

/* The kernel's uapi numbering (MPOL_PREFERRED_MANY is not modelled). */
enum mempolicy_mode {
	MPOL_DEFAULT,
	MPOL_PREFERRED,
	MPOL_BIND,
	MPOL_INTERLEAVE,
	MPOL_LOCAL,
	MPOL_WEIGHTED_INTERLEAVE = 6,
	MPOL_MAX,
};

struct mempolicy {
	uint8_t mode;           /* enum mempolicy_mode */
	nodemask_t nodes;       /* empty for default and local */
};

struct mm_struct;

/* The mode's name, or NULL if mode is not one the model has. */
const char *mpol_mode_name(int mode);
/* The mode named, or -1. */
int mpol_parse_mode(const char *name);
/* mpol_new(): a policy of mode over nodes, checked against m.  0, or
 * -MM_EINVAL: a node beyond the machine's, an empty set for a mode that
 * needs nodes, or nodes given to default or local. */
int mpol_new(const struct machine *m, int mode, nodemask_t nodes, struct mempolicy *pol);
bool mpol_equal(const struct mempolicy *a, const struct mempolicy *b);

/* set_mempolicy(2) for the address space; pol from mpol_new. */
void do_set_mempolicy(struct mm_struct *mm, const struct mempolicy *pol);
/* mbind(2) without MPOL_MF_MOVE: the VMAs of [start, start + len) get pol
 * (default: the address space's policy applies again), split at the edges
 * and merged with neighbours of the same protection and policy.  Pages
 * already faulted stay where they are.  0, -MM_EINVAL for an unaligned
 * start, -MM_EFAULT if part of the range is not mapped, -MM_ENOMEM if a THP
 * mapping an edge cuts could not be split (nothing changed in either case). */
int do_mbind(struct mm_ctx *ctx, struct mm_struct *mm, uint64_t start, uint64_t len,
	     const struct mempolicy *pol);
/* get_vma_policy(): the policy a fault at addr follows. */
const struct mempolicy *get_vma_policy(const struct mm_struct *mm, uint64_t addr);

/* interleave_nid() and weighted_interleave_nid(): the node of interleave
 * index ilx under pol. */
unsigned interleave_nid(const struct machine *m, const struct mempolicy *pol, uint64_t ilx);
/* policy_nodemask(): the nodes pol allows (NODE_MASK_NONE: any) and, in
 * *nid, the node to start from for interleave index ilx when the
 * allocating CPU is on node local. */
nodemask_t policy_nodemask(const struct machine *m, const struct mempolicy *pol, uint64_t ilx,
			   unsigned local, unsigned *nid);
/* alloc_pages_mpol(): a page of order for a fault at addr of mm under the
 * policy in force there, or PFN_NONE.  A 2 MiB THP under a policy that is
 * not interleave and allows the starting node (the faulting CPU's, or the
 * preferred one) is tried on that node alone first (__GFP_THISNODE |
 * __GFP_NORETRY); other nodes only if gfp may reclaim directly. */
pfn_t alloc_pages_mpol(struct mm_ctx *ctx, struct mm_struct *mm, gfp_t gfp, unsigned order,
		       uint64_t addr, uint32_t owner, uint32_t offset);
/* The same for a folio of order above MAX_PAGE_ORDER (a 1 GiB THP) through
 * alloc_contig_pages: the policy's nodes, interleave by addr's index in
 * folios of that order, the same node-alone first pass, after which only
 * the other allowed nodes are tried (the first pass already tried every
 * range of its node, migrating if gfp allows).  The first block's pfn, or
 * PFN_NONE. */
pfn_t alloc_contig_mpol(struct mm_ctx *ctx, struct mm_struct *mm, gfp_t gfp, unsigned order,
			uint64_t addr, uint32_t owner);

/* mpol_misplaced() for a hinting fault at addr on node this_nid: the node
 * the page should be on, or -1 to leave it.  Only the default policy
 * moves pages on fault (MPOL_F_MOF, MPOL_F_MORON: to the faulting node);
 * the model has no MPOL_F_NUMA_BALANCING for explicit policies. */
int mpol_misplaced(const struct mm_struct *mm, uint64_t addr, unsigned this_nid);

struct page_move_counts;
/* migrate_pages(2) (do_migrate_pages): the pages of mm on the nodes of
 * from move to the nodes of to, the n-th node of from to the (n mod
 * |to|)-th node of to (node_remap), one source node at a time, a node
 * whose pages are still to leave being filled last.  Counts added to c.
 * 0, or -MM_ENOMEM when a destination ran out (the rest stays). */
int do_migrate_pages(struct mm_ctx *ctx, struct mm_struct *mm, nodemask_t from, nodemask_t to,
		     struct page_move_counts *c);

#endif
