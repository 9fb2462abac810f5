/* Machine construction: presets, zone layout, and refusal of impossible
 * machines before anything is allocated. */
#include "helpers.h"
#include "models/memblock.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/procfs.h"

#include <stdio.h>
#include <string.h>

static void test_presets(void)
{
	struct topology t;

	g_assert_cmpint(topology_preset(&t, "2s-1t"), ==, 0);
	g_assert_cmpuint(t.nr_nodes, ==, 2);
	g_assert_cmpuint(topology_total_mem(&t), ==, 1024 * GiB);
	g_assert_cmpint(topology_preset(&t, "4s-4t"), ==, 0);
	g_assert_cmpuint(t.nr_nodes, ==, 4);
	g_assert_cmpuint(topology_total_mem(&t), ==, 4096 * GiB);
	g_assert_cmpuint(topology_nr_cpus(&t), ==, 384);
	g_assert_cmpuint(topology_cpu_to_node(&t, 95), ==, 0);
	g_assert_cmpuint(topology_cpu_to_node(&t, 96), ==, 1);
	/* Two nodes per socket (SNC): each takes half of its socket's CPUs. */
	topology_uniform(&t, 2, 2, 8, 1 * GiB);
	g_assert_cmpuint(topology_cpu_to_node(&t, 3), ==, 0);
	g_assert_cmpuint(topology_cpu_to_node(&t, 4), ==, 1);
	g_assert_cmpuint(topology_cpu_to_node(&t, 8), ==, 2);
	g_assert_cmpuint(topology_cpu_to_node(&t, 15), ==, 3);
	g_assert_cmpint(topology_preset(&t, "nope"), ==, -1);
}

static void test_refuses_unaligned_memory(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, 1 * GiB + 64 * MiB);
	machine_params_default(&p);
	g_assert_null(machine_create(&t, &p, &err));
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "1088 MiB"));
	g_assert_nonnull(strstr(err, "128 MiB"));
	g_free(err);
}

static void test_refuses_too_large(void)
{
	struct topology t;
	char *err;

	/* 16 TiB is 2^32 frames: beyond 32-bit frame numbers. */
	topology_uniform(&t, 4, 1, 4, 4096 * GiB);
	err = topology_validate(&t, UINT64_MAX, NULL);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "4294967296 frames"));
	g_free(err);
	/* 4 TiB needs 1073741824 frames * 12 bytes = 12288 MiB: refused on an
	 * 8 GiB host, with the numbers. */
	topology_uniform(&t, 4, 1, 4, 1024 * GiB);
	err = topology_validate(&t, 8 * GiB, NULL);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err, "12288 MiB"));
	g_assert_nonnull(strstr(err, "8192 MiB"));
	g_free(err);
	g_assert_null(topology_validate(&t, 16 * GiB, NULL));
}

/* Node 0 holds DMA and DMA32; node 1 starts at 5 GiB and holds only
 * Normal, and a Movable zone takes the top 1 GiB of each node. */
/* The defaults set every field: page_owner was once left as the stack
 * had it (UBSan: "load of value 107 ... _Bool"), so a machine could get
 * its records, or not, by chance; iw_table too (weights of 107). */
static void test_params_default_page_owner(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	memset(&p, 0x6b, sizeof(p));
	machine_params_default(&p);
	g_assert_false(p.page_owner);
	for (unsigned n = 0; n < MAX_NUMNODES; n++)
		g_assert_cmpuint(p.iw_table[n], ==, 0);
	topology_uniform(&t, 1, 1, 1, 256 * MiB);
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	g_assert_null(m->page_owner_ts);
	machine_destroy(m);
	p.page_owner = true;
	m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	g_assert_nonnull(m->page_owner_ts);
	machine_destroy(m);
}

/* The VmFlags line of the mapping holding addr in /proc/self/smaps, or NULL. */
static char *vma_flags(const void *addr)
{
	char *text = NULL, *flags = NULL, **lines;
	bool inside = false;

	g_assert_true(g_file_get_contents("/proc/self/smaps", &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **s = lines; *s && !flags; s++) {
		unsigned long lo, hi;
		char perm;

		if (sscanf(*s, "%lx-%lx %c", &lo, &hi, &perm) == 3)
			inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (inside && g_str_has_prefix(*s, "VmFlags:"))
			flags = g_strdup(*s);
	}
	g_strfreev(lines);
	g_free(text);
	return flags;
}

/* The state-and-flags array of a large machine's frames is advised to use
 * huge pages (MADV_HUGEPAGE shows as "hg" in smaps); the words array is not. */
static void test_memmap_hugepage_advice(void)
{
	struct memmap mm;
	char *flags;

	if (!g_file_test("/sys/kernel/mm/transparent_hugepage", G_FILE_TEST_IS_DIR)) {
		g_test_skip("the host kernel has no transparent huge pages");
		return;
	}
	g_assert_cmpint(memmap_init(&mm, 4UL << 20), ==, 0);       /* 16 GiB: 8 MiB of flags */
	flags = vma_flags((char *)mm.flags + (2UL << 20));
	g_assert_nonnull(flags);
	g_assert_nonnull(strstr(flags, " hg"));
	g_free(flags);
	flags = vma_flags(mm.words + (1UL << 20));
	g_assert_nonnull(flags);
	g_assert_null(strstr(flags, " hg"));
	g_free(flags);
	memmap_destroy(&mm);
}

static void test_zone_layout(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 5 * GiB);
	t.movable_mem[0] = t.movable_mem[1] = 1 * GiB;
	machine_params_default(&p);
	p.boot_reserve = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	struct pglist_data *n0 = &m->node_data[0], *n1 = &m->node_data[1];
	g_assert_cmpuint(n0->node_zones[ZONE_DMA].spanned_pages, ==, 4096);
	g_assert_cmpuint(n0->node_zones[ZONE_DMA32].zone_start_pfn, ==, 4096);
	g_assert_cmpuint(n0->node_zones[ZONE_DMA32].spanned_pages, ==, 1044480);
	g_assert_cmpuint(n0->node_zones[ZONE_NORMAL].spanned_pages, ==, 0);
	g_assert_cmpuint(n0->node_zones[ZONE_MOVABLE].zone_start_pfn, ==, 1048576);
	g_assert_cmpuint(n1->node_zones[ZONE_DMA32].spanned_pages, ==, 0);
	g_assert_cmpuint(n1->node_zones[ZONE_NORMAL].zone_start_pfn, ==, 1310720);
	g_assert_cmpuint(n1->node_zones[ZONE_NORMAL].spanned_pages, ==, 1048576);
	g_assert_cmpuint(n1->node_zones[ZONE_MOVABLE].spanned_pages, ==, 262144);
	/* Node 0's zonelist: its own zones highest first, then node 1's. */
	g_assert_true(n0->zonelist[0] == &n0->node_zones[ZONE_MOVABLE]);
	g_assert_true(n0->zonelist[1] == &n0->node_zones[ZONE_DMA32]);
	g_assert_true(n0->zonelist[2] == &n0->node_zones[ZONE_DMA]);
	g_assert_true(n0->zonelist[3] == &n1->node_zones[ZONE_MOVABLE]);
	g_assert_true(n1->zonelist[0] == &n1->node_zones[ZONE_MOVABLE]);
	g_assert_true(n1->zonelist[1] == &n1->node_zones[ZONE_NORMAL]);
	assert_invariants(m);

	GString *s = g_string_new(NULL);
	proc_buddyinfo(m, s);
	g_assert_cmpstr(s->str, ==,
		"Node 0, zone      DMA      0      0      0      0      0      0      0      0      0      0      4 \n"
		"Node 0, zone    DMA32      0      0      0      0      0      0      0      0      0      0   1020 \n"
		"Node 0, zone  Movable      0      0      0      0      0      0      0      0      0      0    256 \n"
		"Node 1, zone   Normal      0      0      0      0      0      0      0      0      0      0   1024 \n"
		"Node 1, zone  Movable      0      0      0      0      0      0      0      0      0      0    256 \n");
	g_string_free(s, TRUE);
	machine_destroy(m);
}

static void assert_reserved(struct machine *m, pfn_t pfn, enum memblock_use use)
{
	g_assert_cmpint(page_kind(&m->mm, pfn), ==, PG_KIND_ALLOC);
	g_assert_cmpuint(page_owner(m, pfn), ==, make_owner(OWNER_KIND_RESERVED, use));
}

static void assert_present_managed(struct zone *z, unsigned long present, unsigned long managed)
{
	g_assert_cmpuint(z->present_pages, ==, present);
	g_assert_cmpuint(z->managed_pages, ==, managed);
}

/* Two nodes of 8 GiB, two CPUs each.  Node 0: the first MiB (256 pages)
 * out of ZONE_DMA, the kernel image (30559 KiB: 7640 pages) from 16 MiB,
 * the start of ZONE_DMA32; each node: 64 sections of memmap, 512 pages
 * each (32768), at its top, and 2 x 56 pages of per-CPU areas below. */
static void boot_reservations(enum mm_policy policy)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 1, 2, 8 * GiB);
	machine_params_default(&p);
	p.thp = false;
	p.policy = policy;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	struct pglist_data *n0 = &m->node_data[0], *n1 = &m->node_data[1];
	struct zone *normal0 = &n0->node_zones[ZONE_NORMAL];

	assert_present_managed(&n0->node_zones[ZONE_DMA], 4096, 4096 - 256);
	assert_present_managed(&n0->node_zones[ZONE_DMA32], 1044480, 1044480 - 7640);
	assert_present_managed(normal0, 1048576, 1048576 - 32768 - 112);
	assert_present_managed(&n1->node_zones[ZONE_NORMAL], 2097152, 2097152 - 32768 - 112);
	g_assert_cmpuint(memblock_reserved_pages(m), ==, 256 + 7640 + 2 * (32768 + 112));
	g_assert_cmpuint(machine_free_pages(m), ==, machine_managed_pages(m));
	assert_reserved(m, 0, MEMBLOCK_LOW_1M);
	assert_reserved(m, 4096, MEMBLOCK_KERNEL_IMAGE);
	assert_reserved(m, 2097152 - 32768, MEMBLOCK_MEMMAP);
	assert_reserved(m, 2097152 - 32768 - 112, MEMBLOCK_PERCPU);
	assert_reserved(m, 4194304 - 32768, MEMBLOCK_MEMMAP);
	g_assert_cmpint(page_kind(&m->mm, 2097152 - 32768 - 113), !=, PG_KIND_ALLOC);
	/* The watermarks' spread is 10/10000 of managed, not of present. */
	g_assert_cmpuint(normal0->_watermark[WMARK_LOW] - normal0->_watermark[WMARK_MIN], ==,
			 (1048576 - 32768 - 112) / 1000);
	/* Reserved pages are never freed. */
	struct mm_ctx ctx = mm_ctx_null(0);
	g_assert_cmpint(__free_pages(&ctx, m, 4096), ==, -1);
	assert_invariants(m);

	GString *s = g_string_new(NULL);
	proc_zoneinfo(m, s);
	g_assert_nonnull(strstr(s->str, "        present  4096\n        managed  3840\n"));
	g_assert_nonnull(strstr(s->str, "        present  1048576\n        managed  1015696\n"));
	g_string_truncate(s, 0);
	/* DMA's free 3840 pages: 256-511, 512-1023 and three 1024-page blocks. */
	proc_buddyinfo(m, s);
	g_assert_true(g_str_has_prefix(s->str,
		"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"));
	g_string_free(s, TRUE);
	machine_destroy(m);
}

static void test_boot_reservations(void)
{
	for (int policy = 0; policy < NR_MM_POLICIES; policy++)
		boot_reservations((enum mm_policy)policy);
}

/* A node whose memmap does not fit below its ZONE_MOVABLE is refused. */
static void test_boot_reservations_refused(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 1, 1, 4, 8 * GiB + 128 * MiB);
	t.movable_mem[0] = 8 * GiB;
	machine_params_default(&p);
	g_assert_null(machine_create(&t, &p, &err));
	g_assert_nonnull(strstr(err, "boot_reserve = false"));
	g_free(err);
	p.boot_reserve = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_nonnull(m);
	machine_destroy(m);
}

static void test_dump_formats(void)
{
	struct machine *m = test_machine(128 * MiB, false);
	GString *s = g_string_new(NULL);

	proc_pagetypeinfo(m, s);
	g_assert_true(g_str_has_prefix(s->str,
		"Page block order: 9\n"
		"Pages per block:  512\n"
		"\n"
		"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n"
		"Node    0, zone      DMA, type    Unmovable      0      0      0      0      0      0      0      0      0      0      0 \n"
		"Node    0, zone      DMA, type      Movable      0      0      0      0      0      0      0      0      0      0      4 \n"));
	g_assert_nonnull(strstr(s->str,
		"\nNumber of blocks type     Unmovable      Movable  Reclaimable   HighAtomic          CMA      Isolate \n"
		"Node 0, zone      DMA            0            8            0            0            0            0 \n"
		"Node 0, zone    DMA32            0           56            0            0            0            0 \n"));
	g_string_truncate(s, 0);
	proc_zoneinfo(m, s);
	g_assert_true(g_str_has_prefix(s->str,
		"Node 0, zone      DMA\n"
		"  pages free     4096\n"
		"        boost    0\n"));
	g_assert_nonnull(strstr(s->str, "        managed  28672\n"
				"        cma      0\n"
				"        protection: (0, 0, 0, 0, 0)\n"
				"  start_pfn:           4096\n"
				"Node 0, zone   Normal\n"));
	g_string_free(s, TRUE);
	machine_destroy(m);
}

/* Regression: pageblock zone ids were 8-bit, and node 63's zones (ids
 * from 315 up) wrapped to node 12's empty DMA32, whose missing pagesets
 * crashed the first free there.  Every pageblock of a 64-node machine
 * maps back to its own node's zone. */
static void test_64_nodes(void)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	topology_uniform(&t, 2, 32, 32, 256 * MiB);
	machine_params_default(&p);
	p.thp = false;
	struct machine *m = machine_create(&t, &p, &err);
	g_assert_null(err);
	g_assert_nonnull(m);
	g_assert_cmpuint(m->nr_nodes, ==, 64);
	for_each_populated_zone(m, z)
		for (pfn_t pfn = z->zone_start_pfn; pfn < z->zone_start_pfn + z->spanned_pages;
		     pfn += pageblock_nr_pages)
			g_assert_true(pfn_zone(m, pfn) == z);
	machine_destroy(m);
}

/* The null environment (unit tests, C drivers without an engine) has no
 * other CPU to release a lock: taking a held one is a model bug and must
 * stop the program rather than pass unseen. */
static void test_null_env_double_lock(void)
{
	if (g_test_subprocess()) {
		struct mm_ctx ctx = mm_ctx_null(0);
		struct spinlock l;

		spin_lock_init(&l, LOCK_CLASS_ZONE);
		spin_lock(&ctx, &l, SITE_RMQUEUE_BULK);
		spin_lock(&ctx, &l, SITE_RMQUEUE_BULK);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*spinlock taken twice (held by CPU 0, wanted by CPU 0)*");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/machine/presets", test_presets);
	g_test_add_func("/machine/params_default_page_owner", test_params_default_page_owner);
	g_test_add_func("/machine/64-nodes", test_64_nodes);
	g_test_add_func("/machine/refuses-unaligned-memory", test_refuses_unaligned_memory);
	g_test_add_func("/machine/refuses-too-large", test_refuses_too_large);
	g_test_add_func("/machine/zone-layout", test_zone_layout);
	g_test_add_func("/machine/memmap-hugepage-advice", test_memmap_hugepage_advice);
	g_test_add_func("/machine/dump-formats", test_dump_formats);
	g_test_add_func("/machine/boot-reservations", test_boot_reservations);
	g_test_add_func("/machine/boot-reservations-refused", test_boot_reservations_refused);
	g_test_add_func("/machine/null-env-double-lock", test_null_env_double_lock);
	return g_test_run();
}
