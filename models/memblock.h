/* Boot-time reservations (mm/memblock.c, mm/sparse.c, mm/percpu.c,
 * arch/x86/kernel/setup.c): memory the kernel takes from memblock before
 * the buddy allocator exists and never frees.  Those pages are present in
 * their zone but not managed (managed = present - reserved), so they are
 * in no free list and the watermarks, computed from managed pages, leave
 * them out.  They sit in the memmap as allocated unmovable blocks owned by
 * OWNER_KIND_RESERVED (the kernel's PageReserved): never migrated, never
 * freed, and counted as unmovable in the pageblock accounting.
 *
 * What is reserved (x86-64; sizes and their sources in memblock.c and
 * docs/MODEL.md):
 *   - the first 1 MiB of RAM, on node 0;
 *   - the kernel image at its default load address, 16 MiB, on node 0;
 *   - each node's memmap, 64 bytes of struct page per 4 KiB page present
 *     (2 MiB per 128 MiB section), at the top of the node below any
 *     ZONE_MOVABLE, as memblock allocates top-down;
 *   - each CPU's per-CPU area, on its node, just below that node's memmap
 *     (allocated after it, top-down). */
#ifndef MMSIM_MEMBLOCK_H
#define MMSIM_MEMBLOCK_H

#include "mmzone.h"

/* The id of an OWNER_KIND_RESERVED owner word: what the memory is for. */
enum memblock_use {
	MEMBLOCK_LOW_1M,        /* the BIOS area and real-mode trampoline */
	MEMBLOCK_KERNEL_IMAGE,  /* text, rodata, data and bss (init is freed) */
	MEMBLOCK_MEMMAP,        /* struct pages */
	MEMBLOCK_PERCPU,        /* per-CPU areas */
	MEMBLOCK_CAPTURED,      /* PageReserved in a captured machine (models/snapshot.c) */
	MEMBLOCK_HOLE,          /* no memory there in a captured machine */
	NR_MEMBLOCK_USES
};

extern const char *const memblock_use_names[NR_MEMBLOCK_USES];

/* Place the reservations of every node, once the nodes and zones are laid
 * out (before any page is freed).  NULL, or a g_malloc'ed message if a
 * node is too small to hold them. */
char *memblock_reserve_boot(struct machine *m);
/* memblock_free_all() for [start, end) of zone z: pages inside a
 * reservation become reserved blocks (reserve_bootmem_region()), the rest
 * goes to the buddy in MAX_PAGE_ORDER chunks, to the tail; z's managed
 * pages count only the freed ones.  The pageblocks must be initialised. */
void memblock_free_range(struct zone *z, pfn_t start, pfn_t end);
/* Reserve [start, end) of a machine built without boot reservations:
 * a region after the last one (the caller goes up the pfns). */
void memblock_reserve_range(struct machine *m, pfn_t start, pfn_t end, enum memblock_use use);
/* Pages of the machine reserved at boot. */
unsigned long memblock_reserved_pages(const struct machine *m);

#endif
