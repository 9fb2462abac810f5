#include "memblock.h"
#include "buddy.h"
#include "mm_space.h"
#include "pbstat.h"

#include <glib.h>

const char *const memblock_use_names[NR_MEMBLOCK_USES] = {
	"low 1M", "kernel image", "memmap", "per-CPU areas", "captured reserved", "hole",
};

/* x86 reserves all of the first MiB (commit f1d4d47c5851, "x86/setup:
 * Always reserve the first 1M of RAM", v5.13): ZONE_DMA keeps 3840 of its
 * 4096 pages, the managed figure zoneinfo shows on real machines. */
#define LOW_1M_PAGES ((pfn_t)((1u << 20) >> PAGE_SHIFT))
/* CONFIG_PHYSICAL_START's default, 0x1000000 (arch/x86/Kconfig), without
 * KASLR moving it: the start of ZONE_DMA32. */
#define KERNEL_LOAD_PFN ((pfn_t)((16u << 20) >> PAGE_SHIFT))
/* Ubuntu's 5.8.0-18-generic boot log ("Memory: ... 14339K kernel code,
 * 2556K rwdata, 8764K rodata, 2636K init, 4900K bss", quoted in
 * github.com/morrownr/88x2bu issue 1): what stays reserved once init
 * memory is freed, 30559 KiB. */
#define KERNEL_IMAGE_KIB (14339u + 2556u + 8764u + 4900u)
/* sizeof(struct page) is 64 bytes on x86-64: 2 MiB of memmap per 128 MiB
 * section, one PMD-mapped vmemmap block each. */
#define STRUCT_PAGE_BYTES 64
#define MEMMAP_PAGES_PER_SECTION (PAGES_PER_SECTION * STRUCT_PAGE_BYTES / PAGE_SIZE)
/* The same boot log: "percpu: Embedded 56 pages/cpu s192512 r8192
 * d28672" (static, module-reserved and dynamic parts); the rest of each
 * CPU's unit goes back to memblock. */
#define PERCPU_PAGES_PER_CPU 56

static char *memblock_add_region(GArray *regions, pfn_t base, pfn_t size, enum memblock_use use)
{
	struct memblock_region r = { base, size, use };

	for (unsigned i = 0; i < regions->len; i++) {
		const struct memblock_region *o = &g_array_index(regions, struct memblock_region, i);

		if (base < o->base + o->size && o->base < base + size)
			return g_strdup_printf("boot reservations do not fit: the %s at %u MiB "
					       "overlaps the %s at %u MiB (a node of this machine is "
					       "too small; boot_reserve = false leaves them out)",
					       memblock_use_names[use], base >> (20 - PAGE_SHIFT),
					       memblock_use_names[o->what],
					       o->base >> (20 - PAGE_SHIFT));
	}
	g_array_append_val(regions, r);
	return NULL;
}

static gint region_cmp(gconstpointer a, gconstpointer b)
{
	pfn_t x = ((const struct memblock_region *)a)->base;
	pfn_t y = ((const struct memblock_region *)b)->base;

	return x < y ? -1 : x > y;
}

/* The node's memmap (sparse_init: one buffer for all its sections) at
 * the top of its kernel memory, then its CPUs' per-CPU areas
 * (setup_per_cpu_areas, later in boot) right below. */
static char *reserve_node(struct machine *m, GArray *regions, unsigned nid)
{
	const struct pglist_data *pgdat = &m->node_data[nid];
	pfn_t top = pgdat->node_start_pfn +
		    (pfn_t)((m->topo.node_mem[nid] - m->topo.movable_mem[nid]) >> PAGE_SHIFT);
	pfn_t memmap = (pfn_t)(pgdat->node_spanned_pages / PAGES_PER_SECTION) *
		       MEMMAP_PAGES_PER_SECTION;
	pfn_t percpu = 0;
	char *err;

	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		if (topology_cpu_to_node(&m->topo, cpu) == nid)
			percpu += PERCPU_PAGES_PER_CPU;
	if (memmap + percpu > top - pgdat->node_start_pfn)
		return g_strdup_printf("boot reservations do not fit: node %u's memmap and per-CPU "
				       "areas take %u MiB, more than its %u MiB outside ZONE_MOVABLE "
				       "(boot_reserve = false leaves them out)", nid,
				       (memmap + percpu) >> (20 - PAGE_SHIFT),
				       (top - pgdat->node_start_pfn) >> (20 - PAGE_SHIFT));
	err = memblock_add_region(regions, top - memmap, memmap, MEMBLOCK_MEMMAP);
	if (!err && percpu)
		err = memblock_add_region(regions, top - memmap - percpu, percpu, MEMBLOCK_PERCPU);
	return err;
}

char *memblock_reserve_boot(struct machine *m)
{
	GArray *regions = g_array_new(FALSE, FALSE, sizeof(struct memblock_region));
	pfn_t kernel = (pfn_t)((KERNEL_IMAGE_KIB + (PAGE_SIZE >> 10) - 1) / (PAGE_SIZE >> 10));
	char *err;

	err = memblock_add_region(regions, 0, LOW_1M_PAGES, MEMBLOCK_LOW_1M);
	if (!err)
		err = memblock_add_region(regions, KERNEL_LOAD_PFN, kernel, MEMBLOCK_KERNEL_IMAGE);
	for (unsigned n = 0; !err && n < m->nr_nodes; n++)
		err = reserve_node(m, regions, n);
	if (err) {
		g_array_free(regions, TRUE);
		return err;
	}
	g_array_sort(regions, region_cmp);
	m->nr_memblock_reserved = regions->len;
	m->memblock_reserved = (struct memblock_region *)(void *)g_array_free(regions, FALSE);
	return NULL;
}

/* The largest naturally aligned block at pfn that ends by end. */
static unsigned boot_block_order(pfn_t pfn, pfn_t end)
{
	unsigned order = MAX_PAGE_ORDER;

	while ((pfn & ((1u << order) - 1)) || pfn + (1u << order) > end)
		order--;
	return order;
}

static void free_boot_range(struct zone *z, pfn_t start, pfn_t end)
{
	for (pfn_t pfn = start; pfn < end;) {
		unsigned order = boot_block_order(pfn, end);

		__free_one_page(z, pfn, order, MIGRATE_MOVABLE, FPI_TO_TAIL);
		pfn += 1u << order;
	}
	z->managed_pages += end - start;
}

/* reserve_bootmem_region(): the pages stay allocated, unmovable, owned by
 * what they are for. */
static void reserve_bootmem_region(struct machine *m, pfn_t start, pfn_t end,
				   enum memblock_use use)
{
	for (pfn_t pfn = start; pfn < end;) {
		unsigned order = boot_block_order(pfn, end);

		page_set(&m->mm, pfn, PG_KIND_ALLOC, order, MIGRATE_UNMOVABLE);
		*block_word_a(&m->mm, pfn, order) = make_owner(OWNER_KIND_RESERVED, use);
		*block_word_b(&m->mm, pfn, order) = 0;
		pbstat_alloc(m->pbstat, pfn, order, MIGRATE_UNMOVABLE);  /* pbstat */
		pfn += 1u << order;
	}
}

void memblock_free_range(struct zone *z, pfn_t start, pfn_t end)
{
	struct machine *m = z->machine;
	pfn_t pfn = start;

	for (unsigned i = 0; i < m->nr_memblock_reserved && pfn < end; i++) {
		const struct memblock_region *r = &m->memblock_reserved[i];
		pfn_t lo = MAX(r->base, pfn), hi = MIN(r->base + r->size, end);

		if (lo >= hi)
			continue;
		free_boot_range(z, pfn, lo);
		reserve_bootmem_region(m, lo, hi, (enum memblock_use)r->what);
		pfn = hi;
	}
	free_boot_range(z, pfn, end);
}

void memblock_reserve_range(struct machine *m, pfn_t start, pfn_t end, enum memblock_use use)
{
	m->memblock_reserved = g_renew(struct memblock_region, m->memblock_reserved,
				       m->nr_memblock_reserved + 1);
	m->memblock_reserved[m->nr_memblock_reserved++] =
		(struct memblock_region){ .base = start, .size = end - start, .what = use };
	reserve_bootmem_region(m, start, end, use);
}

unsigned long memblock_reserved_pages(const struct machine *m)
{
	unsigned long sum = 0;

	for (unsigned i = 0; i < m->nr_memblock_reserved; i++)
		sum += m->memblock_reserved[i].size;
	return sum;
}
