/* Memory policies, hand-worked on small multi-node machines: which node
 * every anonymous fault takes its page from under interleave, weighted
 * interleave, bind and preferred, and how mbind splits and merges VMAs.
 * The invariant checker and the address-space checker run after each. */
#include "helpers.h"
#include "models/mempolicy.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"

#define PG 4096ULL

/* sockets x nodes_per_socket nodes of mem bytes, 4 CPUs per socket. */
static struct machine *numa_machine(unsigned sockets, unsigned nps, uint64_t mem,
				    const uint8_t *weights)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;
	struct machine *m;

	topology_uniform(&t, sockets, nps, 4, mem);
	machine_params_default(&p);
	p.thp = false;
	for (unsigned n = 0; weights && n < t.nr_nodes; n++)
		p.iw_table[n] = weights[n];
	m = machine_create(&t, &p, &err);
	g_assert_null(err);
	return m;
}

static unsigned node_at(struct machine *m, struct mm_struct *mm, uint64_t addr)
{
	pfn_t pfn = follow_page(mm, addr);

	g_assert_cmpuint(pfn, !=, PFN_NONE);
	return pfn_zone(m, pfn)->node;
}

static struct mempolicy policy(struct machine *m, int mode, nodemask_t nodes)
{
	struct mempolicy pol;

	g_assert_cmpint(mpol_new(m, mode, nodes, &pol), ==, 0);
	return pol;
}

/* Interleave over nodes {0, 2} of three: page v (virtual page number) on
 * node 0 when v is even, node 2 when odd, whatever CPU faults it. */
static void test_interleave(void)
{
	struct machine *m = numa_machine(3, 1, 256 * MiB, NULL);
	struct mm_ctx ctx = mm_ctx_null(4);     /* a CPU of node 1 */
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy pol = policy(m, MPOL_INTERLEAVE, nodemask_of_node(0) | nodemask_of_node(2));
	int err;
	uint64_t addr = mmap_anon(mm, 16 * PG, PROT_READ | PROT_WRITE, &err);

	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&ctx, mm, addr, 16 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 16; i++)
		g_assert_cmpuint(node_at(m, mm, addr + i * PG), ==,
				 ((addr / PG + i) % 2) ? 2 : 0);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* Weights 3 and 1: of every four consecutive virtual pages (v mod 4 =
 * 0, 1, 2) go to node 0 and the fourth to node 1. */
static void test_weighted_interleave(void)
{
	static const uint8_t weights[] = { 3, 1 };
	struct machine *m = numa_machine(2, 1, 256 * MiB, weights);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy pol = policy(m, MPOL_WEIGHTED_INTERLEAVE, 3);
	unsigned on1 = 0;
	int err;
	uint64_t addr = mmap_anon(mm, 16 * PG, PROT_READ | PROT_WRITE, &err);

	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&ctx, mm, addr, 16 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 16; i++) {
		unsigned nid = node_at(m, mm, addr + i * PG);

		g_assert_cmpuint(nid, ==, (addr / PG + i) % 4 < 3 ? 0 : 1);
		on1 += nid;
	}
	g_assert_cmpuint(on1, ==, 4);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* Bind to node 1 from a CPU of node 0, touching twice node 1's memory:
 * every page comes from node 1 until it reaches its min watermark, then
 * the fault fails with ENOMEM (the model has no OOM killer) although node
 * 0 is nearly all free: nothing falls back to it. */
static void test_bind(void)
{
	struct machine *m = numa_machine(2, 1, 256 * MiB, NULL);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy pol = policy(m, MPOL_BIND, nodemask_of_node(1));
	struct zone *n0 = &m->node_data[0].node_zones[ZONE_NORMAL];
	struct zone *n1 = &m->node_data[1].node_zones[ZONE_NORMAL];
	unsigned long free0 = zone_page_state(n0, NR_FREE_PAGES);
	uint64_t faulted = 0;
	int err;
	uint64_t addr = mmap_anon(mm, 512 * MiB, PROT_READ | PROT_WRITE, &err);

	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&ctx, mm, addr, 512 * MiB, &faulted), ==, -MM_ENOMEM);
	g_assert_cmpuint(faulted, >, (200 * MiB) / PG);
	for (uint64_t i = 0; i < faulted; i++)
		g_assert_cmpuint(node_at(m, mm, addr + i * PG), ==, 1);
	g_assert_cmpuint(follow_page(mm, addr + faulted * PG), ==, PFN_NONE);
	g_assert_cmpuint(zone_page_state(n1, NR_FREE_PAGES), <=, wmark_pages(n1, WMARK_MIN));
	/* Node 0 gave only page tables: 512 MiB needs one PMD and 256 PTE
	 * tables at most, plus the pageset refills they came through. */
	g_assert_cmpuint(free0 - zone_page_state(n0, NR_FREE_PAGES), <, 2048);
	g_assert_cmpuint(m->vm_events[ALLOC_FAIL], ==, 1);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* Preferred node 2 of four (two sockets of two nodes), from a CPU of node
 * 0: node 2's zonelist is 2, 3 (same socket), 0, 1.  Touching more than
 * node 2 holds fills node 2 first, then node 3, never 0 or 1. */
static void test_preferred(void)
{
	struct machine *m = numa_machine(2, 2, 256 * MiB, NULL);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy pol = policy(m, MPOL_PREFERRED, nodemask_of_node(2));
	uint64_t n = (384 * MiB) / PG, on[4] = { 0 };
	unsigned last = 2;
	int err;
	uint64_t addr = mmap_anon(mm, n * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpuint(m->node_data[2].zonelist[1]->node, ==, 3);
	do_set_mempolicy(mm, &pol);
	g_assert_cmpint(touch_range(&ctx, mm, addr, n * PG, NULL), ==, 0);
	for (uint64_t i = 0; i < n; i++) {
		unsigned nid = node_at(m, mm, addr + i * PG);

		/* Once on node 3, the pages stay there. */
		g_assert_cmpuint(nid, >=, last);
		last = nid;
		on[nid]++;
	}
	g_assert_cmpuint(on[0] + on[1], ==, 0);
	g_assert_cmpuint(on[2], >, (200 * MiB) / PG);
	g_assert_cmpuint(on[3], >, (100 * MiB) / PG);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

/* mbind on the middle of a mapping splits it into three VMAs; faults
 * there follow the VMA's policy, faults elsewhere the address space's
 * (local); mbind back to default merges the VMAs again.  A range with an
 * unmapped part is refused with EFAULT and changes nothing. */
static void test_mbind(void)
{
	struct machine *m = numa_machine(2, 1, 256 * MiB, NULL);
	struct mm_ctx ctx = mm_ctx_null(0);
	struct mm_struct *mm = mm_alloc(&ctx, m);
	struct mempolicy bind1 = policy(m, MPOL_BIND, nodemask_of_node(1));
	struct mempolicy def = policy(m, MPOL_DEFAULT, NODE_MASK_NONE);
	int err;
	uint64_t addr = mmap_anon(mm, 6 * PG, PROT_READ | PROT_WRITE, &err);

	g_assert_cmpint(do_mbind(&ctx, mm, addr + 2 * PG, 2 * PG, &bind1), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	g_assert_cmpint(touch_range(&ctx, mm, addr, 6 * PG, NULL), ==, 0);
	for (unsigned i = 0; i < 6; i++)
		g_assert_cmpuint(node_at(m, mm, addr + i * PG), ==, i == 2 || i == 3);
	assert_all_ok(m);
	g_assert_cmpint(do_mbind(&ctx, mm, addr + 4 * PG, 4 * PG, &bind1), ==, -MM_EFAULT);
	g_assert_cmpuint(mm_map_count(mm), ==, 3);
	g_assert_cmpint(do_mbind(&ctx, mm, addr + 1, PG, &bind1), ==, -MM_EINVAL);
	g_assert_cmpint(do_mbind(&ctx, mm, addr, 6 * PG, &def), ==, 0);
	g_assert_cmpuint(mm_map_count(mm), ==, 1);
	g_assert_cmpint(mpol_new(m, MPOL_BIND, nodemask_of_node(2), &def), ==, -MM_EINVAL);
	g_assert_cmpint(mpol_new(m, MPOL_INTERLEAVE, NODE_MASK_NONE, &def), ==, -MM_EINVAL);
	g_assert_cmpint(mpol_new(m, MPOL_LOCAL, nodemask_of_node(0), &def), ==, -MM_EINVAL);
	assert_all_ok(m);
	exit_mmap(&ctx, mm);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mempolicy/interleave", test_interleave);
	g_test_add_func("/mempolicy/weighted-interleave", test_weighted_interleave);
	g_test_add_func("/mempolicy/bind", test_bind);
	g_test_add_func("/mempolicy/preferred", test_preferred);
	g_test_add_func("/mempolicy/mbind", test_mbind);
	return g_test_run();
}
