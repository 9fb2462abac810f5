/* The SLUB model, hand-worked: the slab orders calculate_order gives for
 * known object sizes (checked against a real /proc/slabinfo, see
 * docs/slabinfo-reference.txt), a slab page that goes back only with its
 * last object, empty slabs kept while the node has fewer than min_partial,
 * and a CPU's partial list taking back the slab of an object it freed. */
#include "helpers.h"
#include "models/page_alloc.h"
#include "models/page_cache.h"
#include "models/dcache.h"
#include "models/fork.h"
#include "models/page_frag.h"
#include "models/slub.h"

#include <string.h>

/* Sizes and orders of docs/slabinfo-reference.txt (2 CPUs): kmalloc-8 ..
 * kmalloc-8k, dentry, ext4_inode_cache, radix_tree_node, mm_struct,
 * task_struct. */
static void test_calculate_order_2cpus(void)
{
	static const struct { unsigned size, order, objects; } want[] = {
		{ 8, 0, 512 }, { 256, 0, 16 }, { 512, 1, 16 }, { 1024, 2, 16 },
		{ 2048, 3, 16 }, { 4096, 3, 8 }, { 8192, 3, 4 }, { 192, 0, 21 },
		{ 1128, 2, 14 }, { 584, 1, 14 }, { 1600, 3, 20 }, { 5824, 3, 5 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		unsigned order = calculate_order(want[i].size, 2);

		g_assert_cmpuint(order, ==, want[i].order);
		g_assert_cmpuint(order_objects(order, want[i].size), ==, want[i].objects);
	}
}

/* 64 CPUs: min_objects = 4 * (fls(64) + 1) = 32.  kmalloc-256 needs 8 KiB
 * (order 1, 32 objects); dentry 192 B: 32 * 192 = 6 KiB -> order 1, 42
 * objects, 128 B left (under 1/16 of 8 KiB); kmalloc-4k is capped by
 * slub_max_order: 8 objects of order 3; kmalloc-8 stays order 0. */
static void test_calculate_order_64cpus(void)
{
	g_assert_cmpuint(calculate_order(256, 64), ==, 1);
	g_assert_cmpuint(calculate_order(192, 64), ==, 1);
	g_assert_cmpuint(order_objects(1, 192), ==, 42);
	g_assert_cmpuint(calculate_order(4096, 64), ==, 3);
	g_assert_cmpuint(calculate_order(8, 64), ==, 0);
	/* 1 KiB: 32 KiB wanted, exactly order 3. */
	g_assert_cmpuint(calculate_order(1024, 64), ==, 3);
}

static void assert_slub_ok(struct machine *m)
{
	char *err = slub_check(m);

	if (err)
		g_error("%s", err);
	assert_invariants(m);
}

static unsigned long nr_slabs(struct kmem_cache *s)
{
	struct slabinfo si;

	kmem_cache_info(s, &si);
	return si.num_slabs;
}

/* A 1 KiB cache on the test machine's 4 CPUs: min_objects 16 -> order 2,
 * 16 objects; min_partial 5; cpu_partial_slabs = (24 * 2) / 16 = 3. */
static struct kmem_cache *cache_1k(struct machine *m)
{
	struct kmem_cache *s = kmem_cache_create(m, "test-1k", 1024, 8, 0);
	struct slabinfo si;

	kmem_cache_info(s, &si);
	g_assert_cmpuint(si.pagesperslab, ==, 4);
	g_assert_cmpuint(si.objperslab, ==, 16);
	g_assert_cmpuint(si.min_partial, ==, 5);
	g_assert_cmpuint(si.cpu_partial_slabs, ==, 3);
	return s;
}

/* n full slabs from CPU 0: objs[slab * 16 + i]. */
static void fill_slabs(struct machine *m, struct kmem_cache *s, unsigned n, slab_obj_t *objs)
{
	struct mm_ctx c0 = mm_ctx_null(0);

	for (unsigned i = 0; i < n * 16; i++) {
		objs[i] = kmem_cache_alloc(&c0, m, s, GFP_KERNEL);
		g_assert_cmpuint(objs[i], !=, SLAB_OBJ_NONE);
		/* Objects fill one slab after the other. */
		g_assert_cmpuint(obj_slab_pfn(m, objs[i]), ==, obj_slab_pfn(m, objs[i / 16 * 16]));
	}
	g_assert_cmpuint(nr_slabs(s), ==, n);
}

/* One object freed from each of 7 full slabs on CPU 1: the 4th and 7th
 * frees find CPU 1's partial list at cpu_partial_slabs (3) and move it to
 * the node, so 6 slabs end on the node list, the 7th on CPU 1's.  Slab 0
 * then loses its other objects: its pages stay allocated until the last
 * one goes, and then (node list at 6 >= min_partial) return. */
static void test_slab_returns_with_last_object(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct kmem_cache *s = cache_1k(m);
	struct mm_ctx c1 = mm_ctx_null(1);
	slab_obj_t objs[8 * 16];

	fill_slabs(m, s, 8, objs);
	pfn_t pfn = obj_slab_pfn(m, objs[0]);

	for (unsigned k = 0; k < 7; k++)
		g_assert_cmpint(kmem_cache_free(&c1, m, objs[k * 16]), ==, 0);
	for (unsigned i = 1; i < 15; i++) {
		g_assert_cmpint(kmem_cache_free(&c1, m, objs[i]), ==, 0);
		g_assert_true(pfn_is_slab(m, pfn));
		g_assert_cmpuint(nr_slabs(s), ==, 8);
	}
	assert_slub_ok(m);
	g_assert_cmpint(kmem_cache_free(&c1, m, objs[15]), ==, 0);
	g_assert_false(pfn_is_slab(m, pfn));
	g_assert_cmpuint(page_kind(&m->mm, pfn), !=, PG_KIND_ALLOC);
	g_assert_cmpuint(nr_slabs(s), ==, 7);
	/* A freed object cannot be freed again. */
	g_assert_cmpint(kmem_cache_free(&c1, m, objs[15]), ==, -1);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* With 3 slabs on the node list (fewer than min_partial), emptying one
 * keeps it: SLUB holds empty slabs for the next allocations. */
static void test_min_partial_keeps_empty_slabs(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct kmem_cache *s = cache_1k(m);
	struct mm_ctx c1 = mm_ctx_null(1);
	slab_obj_t objs[5 * 16];

	fill_slabs(m, s, 5, objs);
	pfn_t pfn = obj_slab_pfn(m, objs[0]);

	/* Frees 1-3 fill CPU 1's partial list, the 4th moves it to the node. */
	for (unsigned k = 0; k < 4; k++)
		kmem_cache_free(&c1, m, objs[k * 16]);
	for (unsigned i = 1; i < 16; i++)
		kmem_cache_free(&c1, m, objs[i]);
	g_assert_true(pfn_is_slab(m, pfn));
	g_assert_cmpuint(nr_slabs(s), ==, 5);
	/* Emptied on CPU 1's partial list too, it stays. */
	pfn_t frozen = obj_slab_pfn(m, objs[3 * 16 + 1]);
	for (unsigned i = 1; i < 16; i++)
		kmem_cache_free(&c1, m, objs[3 * 16 + i]);
	g_assert_true(pfn_is_slab(m, frozen));
	g_assert_cmpuint(nr_slabs(s), ==, 5);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* CPU 1 frees an object of a full slab: the slab joins CPU 1's partial
 * list, and CPU 1's next allocation (it has no slab yet) comes from it. */
static void test_cpu_partial_takes_slab_back(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct kmem_cache *s = cache_1k(m);
	struct mm_ctx c1 = mm_ctx_null(1);
	slab_obj_t objs[2 * 16];

	fill_slabs(m, s, 2, objs);
	pfn_t pfn = obj_slab_pfn(m, objs[5]);

	kmem_cache_free(&c1, m, objs[5]);
	slab_obj_t again = kmem_cache_alloc(&c1, m, s, GFP_KERNEL);
	g_assert_cmpuint(obj_slab_pfn(m, again), ==, pfn);
	g_assert_cmpuint(again, ==, objs[5]);
	g_assert_cmpuint(nr_slabs(s), ==, 2);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* Slab pages are unmovable, or reclaimable for SLAB_RECLAIM_ACCOUNT, and
 * /proc/slabinfo counts the objects. */
static void test_migratetype_and_slabinfo(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct kmem_cache *d = kmem_cache_create(m, "dentry", 192, 8, SLAB_RECLAIM_ACCOUNT);
	struct kmem_cache *k = kmem_cache_create(m, "kmalloc-64", 64, 8, 0);
	struct mm_ctx c0 = mm_ctx_null(0);
	slab_obj_t od = SLAB_OBJ_NONE, ok = SLAB_OBJ_NONE;

	g_assert_true(kmem_cache_create(m, "dentry", 100, 8, 0) == d);
	for (int i = 0; i < 30; i++)
		od = kmem_cache_alloc(&c0, m, d, GFP_KERNEL);
	ok = kmem_cache_alloc(&c0, m, k, GFP_KERNEL);
	g_assert_cmpuint(get_pfnblock_migratetype(&m->mm, obj_slab_pfn(m, od)), ==, MIGRATE_RECLAIMABLE);
	g_assert_cmpuint(get_pfnblock_migratetype(&m->mm, obj_slab_pfn(m, ok)), ==, MIGRATE_UNMOVABLE);
	GString *out = g_string_new(NULL);
	proc_slabinfo(m, out);
	g_assert_true(g_str_has_prefix(out->str, "slabinfo - version: 2.1\n# name"));
	/* 30 dentries on 4 CPUs: 16 * 192 = 3 KiB, order 0, 21 per slab, 2 slabs. */
	g_assert_nonnull(strstr(out->str, "\ndentry                30     42    192   21    1 : "
				"tunables    0    0    0 : slabdata      2      2      0\n"));
	g_string_free(out, TRUE);
	assert_slub_ok(m);
	machine_destroy(m);
}

static unsigned long active(struct machine *m, const char *cache)
{
	struct slabinfo si;

	kmem_cache_info(kmem_cache_find(m, cache), &si);
	return si.active_objs;
}

/* 1000 files opened on CPU 0: 48 dentry slabs (21 per order-0 slab on 4
 * CPUs); file 7 is looked up again (referenced).  The shrinker walks the
 * 500 oldest dentries: file 7's goes to the tail, the 499 others die.
 * Slabs 1-22 (files 21-482) empty out on CPU 0's partial list (12 slabs
 * at most, cpu_partial_slabs): the first free in the 13th slab finds the
 * list full and moves it to the node, which keeps 5 empty ones
 * (min_partial) and returns 6; slab 0, pinned by file 7, joins the node's
 * list too, and slab 23 (files 483-503) keeps its survivors.  The inodes
 * wait on the inode LRU until the next scan. */
static void test_shrinker_frees_in_lru_order(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct mm_ctx c0 = mm_ctx_null(0);
	struct kmem_cache *dc;

	kmem_cache_init(m);
	dc = kmem_cache_find(m, "dentry");
	for (uint32_t f = 0; f < 1000; f++)
		g_assert_cmpint(d_alloc_file(&c0, m, f), ==, 1);
	g_assert_cmpint(d_alloc_file(&c0, m, 7), ==, 0);
	g_assert_cmpuint(nr_slabs(dc), ==, 48);
	g_assert_cmpuint(super_cache_scan(&c0, m, 0, 500), ==, 499);
	g_assert_cmpuint(active(m, "dentry"), ==, 501);
	g_assert_cmpuint(active(m, "ext4_inode_cache"), ==, 1000);
	g_assert_cmpuint(dcache_dentries(m, 0), ==, 501);
	g_assert_cmpuint(dcache_inodes(m, 0), ==, 1000);
	g_assert_cmpuint(nr_slabs(dc), ==, 48 - 6);
	/* File 0 is looked up again: a new dentry, the cached inode. */
	g_assert_cmpint(d_alloc_file(&c0, m, 0), ==, 1);
	g_assert_cmpuint(active(m, "dentry"), ==, 502);
	g_assert_cmpuint(active(m, "ext4_inode_cache"), ==, 1000);
	/* Next scan: 502 dentries, 498 unused inodes: 200 * 502 / 1000 = 100
	 * dentries (files 500-599) and 200 * 498 / 1000 = 99 inodes, the
	 * oldest (files 1-100 but 7). */
	g_assert_cmpuint(super_cache_scan(&c0, m, 0, 200), ==, 199);
	g_assert_cmpuint(active(m, "dentry"), ==, 402);
	g_assert_cmpuint(active(m, "ext4_inode_cache"), ==, 901);
	/* File 7's dentry lives; file 1's inode went. */
	g_assert_cmpint(d_alloc_file(&c0, m, 7), ==, 0);
	g_assert_cmpint(d_alloc_file(&c0, m, 1), ==, 1);
	g_assert_cmpuint(active(m, "ext4_inode_cache"), ==, 902);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* shrink_slab() at a reclaim priority, 1000 dentries (no inodes yet
 * freeable: each lives while its dentry does):
 * - priority 12 (DEF_PRIORITY): (1000 >> 12) * 4 / 2 = 0 objects, nothing
 *   scanned;
 * - priority 3: (1000 >> 3) * 4 / 2 = 125 * 2 = 250 objects: one batch of
 *   128 dentries; the 122 left are under a batch and under the 1000
 *   freeable, so they are deferred (0 + 250 - 128);
 * - priority 3 again, 872 dentries and the 128 pruned ones' inodes:
 *   (1000 >> 3) * 4 / 2 + (122 >> 3) = 250 + 15 = 265: two batches, 256
 *   objects, 9 deferred;
 * - priority 0 on 100 other dentries: 100 * 4 / 2 = 200, capped at twice
 *   the freeable (200): all 100 dentries go in one batch, and the 72 left
 *   are fewer than the 100 inodes now freeable, so those stay.
 * The pre-4.16 rule (4 * scanned * freeable / 2 / eligible) knows no
 * priority and would give the same figure to all of these. */
static void test_shrink_slab_priority(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct mm_ctx c0 = mm_ctx_null(0);

	kmem_cache_init(m);
	for (uint32_t f = 0; f < 1000; f++)
		d_alloc_file(&c0, m, f);
	g_assert_cmpuint(shrink_slab(&c0, m, 0, DEF_PRIORITY), ==, 0);
	g_assert_cmpuint(active(m, "dentry"), ==, 1000);
	g_assert_cmpuint(shrink_slab(&c0, m, 0, 3), ==, 128);
	g_assert_cmpuint(active(m, "dentry"), ==, 1000 - 128);
	g_assert_cmpuint(dcache_inodes(m, 0), ==, 1000);
	/* super_cache_scan splits each batch by the LRUs' lengths, rounding
	 * down: 111 dentries + 16 inodes of 872 + 128, then 98 + 29 of
	 * 761 + 223; 254 objects freed. */
	g_assert_cmpuint(shrink_slab(&c0, m, 0, 3), ==, 254);
	g_assert_cmpuint(active(m, "dentry"), ==, 1000 - 128 - 111 - 98);
	machine_destroy(m);

	m = test_machine(256 * MiB, false);
	kmem_cache_init(m);
	for (uint32_t f = 0; f < 100; f++)
		d_alloc_file(&c0, m, f);
	g_assert_cmpuint(shrink_slab(&c0, m, 0, 0), ==, 100);
	g_assert_cmpuint(active(m, "dentry"), ==, 0);
	g_assert_cmpuint(dcache_inodes(m, 0), ==, 100);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* 130 pages of file 1 in the page cache: chunks 0-63, 64-127 and 128-129
 * have a leaf node each, and the file's first page made its dentry and
 * inode.  Reclaim takes the 64 oldest pages (chunk 0): its node goes;
 * one more page (index 64) leaves chunk 1's node to its 63 others. */
static void test_xa_nodes_follow_the_page_cache(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct mm_ctx c0 = mm_ctx_null(0);

	kmem_cache_init(m);
	for (uint32_t i = 0; i < 130; i++)
		g_assert_cmpuint(page_cache_add(&c0, m, 0, 1, i), !=, PFN_NONE);
	g_assert_cmpuint(xa_nodes(m), ==, 3);
	g_assert_cmpuint(active(m, "radix_tree_node"), ==, 3);
	g_assert_cmpuint(active(m, "dentry"), ==, 1);
	g_assert_cmpuint(shrink_page_cache(&c0, m, 0, 64, false, DEF_PRIORITY), ==, 64);
	g_assert_cmpuint(active(m, "radix_tree_node"), ==, 2);
	g_assert_cmpuint(shrink_page_cache(&c0, m, 0, 1, false, DEF_PRIORITY), ==, 1);
	g_assert_cmpuint(active(m, "radix_tree_node"), ==, 2);
	assert_slub_ok(m);
	machine_destroy(m);
}

/* Allocated blocks owned as kernel stacks, by order. */
static void count_stacks(struct machine *m, unsigned long by_order[THREAD_SIZE_ORDER + 1])
{
	for (unsigned o = 0; o <= THREAD_SIZE_ORDER; o++)
		by_order[o] = 0;
	for (pfn_t pfn = 0; pfn < m->mm.nr_frames; pfn++)
		if (page_kind(&m->mm, pfn) == PG_KIND_ALLOC && page_owner(m, pfn) == task_stack_owner())
			by_order[page_order(&m->mm, pfn)]++;
}

/* Every thread has a 16 KiB stack: four order-0 pages and a vmap_area with
 * VMAP_STACK, one order-2 block without; clone adds a task_struct, a pid
 * and a stack, the thread's exit and the process's give them back. */
static void test_kernel_stacks(void)
{
	for (int vmap = 1; vmap >= 0; vmap--) {
		struct machine *m = test_machine(256 * MiB, false);
		struct mm_ctx c0 = mm_ctx_null(0);
		unsigned long stacks[THREAD_SIZE_ORDER + 1];

		m->vmap_stack = vmap;
		kmem_cache_init(m);
		struct mm_struct *mm = mm_alloc(&c0, m);

		g_assert_nonnull(mm);
		unsigned t1, t2;

		g_assert_cmpint(mm_clone_thread(&c0, mm, &t1), ==, 0);
		g_assert_cmpint(mm_clone_thread(&c0, mm, &t2), ==, 0);
		g_assert_cmpuint(t1, ==, 1);
		g_assert_cmpuint(t2, ==, 2);
		g_assert_cmpuint(mm_threads(mm), ==, 3);
		count_stacks(m, stacks);
		g_assert_cmpuint(stacks[0], ==, vmap ? 3 * THREAD_SIZE_PAGES : 0);
		g_assert_cmpuint(stacks[THREAD_SIZE_ORDER], ==, vmap ? 0 : 3);
		g_assert_cmpuint(active(m, "task_struct"), ==, 3);
		g_assert_cmpuint(active(m, "pid"), ==, 3);
		g_assert_cmpuint(active(m, "vmap_area"), ==, vmap ? 3 : 0);
		g_assert_cmpuint(active(m, "mm_struct"), ==, 1);
		g_assert_cmpuint(m->kstacks.allocated, ==, 3);
		assert_slub_ok(m);
		/* The first thread exits only with the process. */
		g_assert_cmpint(mm_exit_thread(&c0, mm, 0), ==, -MM_EINVAL);
		g_assert_cmpint(mm_exit_thread(&c0, mm, t1), ==, 0);
		g_assert_cmpint(mm_exit_thread(&c0, mm, t1), ==, -MM_EINVAL);
		g_assert_cmpuint(mm_threads(mm), ==, 2);
		g_assert_cmpuint(active(m, "task_struct"), ==, 2);
		g_assert_cmpuint(m->kstacks.freed, ==, 1);
		assert_slub_ok(m);
		exit_mmap(&c0, mm);
		count_stacks(m, stacks);
		g_assert_cmpuint(stacks[0] + stacks[THREAD_SIZE_ORDER], ==, 0);
		g_assert_cmpuint(active(m, "task_struct"), ==, 0);
		g_assert_cmpuint(m->kstacks.freed, ==, 3);
		assert_slub_ok(m);
		machine_destroy(m);
	}
}

/* 1500-byte fragments: 21 fit an order-3 block; the 22nd moves the cache
 * to a new block, and the first goes back with its last fragment.  With
 * no free order-3 block left, the refill falls back to an order-0 page. */
static void test_page_frag(void)
{
	struct machine *m = test_machine(256 * MiB, false);
	struct mm_ctx c0 = mm_ctx_null(0);
	struct page_frag_stats st;
	frag_addr_t frags[22];
	pfn_t block0;

	for (unsigned i = 0; i < 22; i++)
		frags[i] = page_frag_alloc(&c0, m, 1500, GFP_ATOMIC);
	block0 = page_frag_block(m, frags[0]);
	/* Fragment i of a block is 1500 * i bytes into it. */
	g_assert_cmpuint(frags[0], ==, (frag_addr_t)block0 << PAGE_SHIFT);
	g_assert_cmpuint(frags[20], ==, frags[0] + 20 * 1500);
	g_assert_cmpuint(page_frag_block(m, frags[20]), ==, block0);
	g_assert_cmpuint(page_frag_block(m, frags[21]), !=, block0);
	g_assert_cmpuint(page_order(&m->mm, block0), ==, PAGE_FRAG_CACHE_MAX_ORDER);
	g_assert_cmpuint(page_frag_blocks(m), ==, 2);
	/* A fragment freed twice, or an address inside one, is refused and
	 * leaves the others' references alone. */
	g_assert_cmpint(page_frag_free(&c0, m, frags[0]), ==, 0);
	g_assert_cmpint(page_frag_free(&c0, m, frags[0]), ==, -1);
	g_assert_cmpint(page_frag_free(&c0, m, frags[1] + 1), ==, -1);
	page_frag_stats(m, &st);
	g_assert_cmpuint(st.alive, ==, 21);
	g_assert_null(page_frag_check(m));
	for (unsigned i = 1; i < 21; i++) {
		g_assert_cmpuint(page_kind(&m->mm, block0), ==, PG_KIND_ALLOC);
		g_assert_cmpint(page_frag_free(&c0, m, frags[i]), ==, 0);
	}
	g_assert_cmpuint(page_kind(&m->mm, block0), !=, PG_KIND_ALLOC);
	g_assert_cmpint(page_frag_free(&c0, m, frags[0]), ==, -1);
	page_frag_stats(m, &st);
	g_assert_cmpuint(st.allocated, ==, 22);
	g_assert_cmpuint(st.freed, ==, 21);
	g_assert_cmpuint(st.alive, ==, 1);
	g_assert_cmpuint(st.order0_refills, ==, 0);
	/* Take every page, then give back every other one, and take what is
	 * left of order 3 and up: free memory, but in order-0 blocks only. */
	GArray *pages = g_array_new(FALSE, FALSE, sizeof(pfn_t));
	frag_addr_t frag;
	pfn_t pfn;

	while ((pfn = __alloc_pages(&c0, m, GFP_ATOMIC, 0, 0, 0, 0)) != PFN_NONE)
		g_array_append_val(pages, pfn);
	for (unsigned i = 0; i < pages->len; i += 2)
		__free_pages(&c0, m, g_array_index(pages, pfn_t, i));
	/* The blocks of order 3 and up the atomic reserve kept. */
	while ((pfn = __alloc_pages(&c0, m, GFP_ATOMIC, PAGE_FRAG_CACHE_MAX_ORDER, 0, 0, 0)) !=
	       PFN_NONE)
		g_array_append_val(pages, pfn);
	/* The 22nd block has room for 20 more. */
	for (unsigned i = 0; i < 21; i++)
		frag = page_frag_alloc(&c0, m, 1500, GFP_ATOMIC);
	g_assert_cmpuint(frag, !=, FRAG_NONE);
	g_assert_cmpuint(page_order(&m->mm, page_frag_block(m, frag)), ==, 0);
	page_frag_stats(m, &st);
	g_assert_cmpuint(st.order0_refills, ==, 1);
	g_assert_cmpuint(st.alive, ==, 22);
	assert_slub_ok(m);
	g_array_free(pages, TRUE);
	machine_destroy(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/slub/calculate_order_2cpus", test_calculate_order_2cpus);
	g_test_add_func("/slub/calculate_order_64cpus", test_calculate_order_64cpus);
	g_test_add_func("/slub/slab_returns_with_last_object", test_slab_returns_with_last_object);
	g_test_add_func("/slub/min_partial_keeps_empty_slabs", test_min_partial_keeps_empty_slabs);
	g_test_add_func("/slub/cpu_partial_takes_slab_back", test_cpu_partial_takes_slab_back);
	g_test_add_func("/slub/migratetype_and_slabinfo", test_migratetype_and_slabinfo);
	g_test_add_func("/slub/shrinker_frees_in_lru_order", test_shrinker_frees_in_lru_order);
	g_test_add_func("/slub/shrink_slab_priority", test_shrink_slab_priority);
	g_test_add_func("/slub/xa_nodes_follow_the_page_cache", test_xa_nodes_follow_the_page_cache);
	g_test_add_func("/slub/kernel_stacks", test_kernel_stacks);
	g_test_add_func("/slub/page_frag", test_page_frag);
	return g_test_run();
}
