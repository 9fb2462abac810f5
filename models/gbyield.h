/* 1GB yield (README, "What a run produces") and the pageblock classes of the memory
 * map, read from the per-pageblock accounting of pbstat.h: O(1 GiB
 * regions) for the yield, O(pageblocks) for the map, never O(frames).
 *
 * Regions are the 1 GiB-aligned ranges of physical memory lying wholly
 * inside one zone's span; a range a zone boundary crosses (on x86-64 the
 * first GiB, which holds ZONE_DMA and the start of ZONE_DMA32; a node
 * boundary that is not GiB-aligned) or holding pfns no zone spans is no
 * region: no 1 GiB allocation can use it.
 *   free_now:           regions every page of which is free in the buddy:
 *                       no allocated page and no page on a per-CPU list.
 *   movable_only:       regions with no unmovable or reclaimable allocated
 *                       page (the free_now ones included); pcp pages do
 *                       not count against a region, a drain frees them.
 *                       An upper bound of what migration can empty: the
 *                       measure is gb_yield_attempt.  (An estimate between
 *                       the two, from the free memory left to migrate into,
 *                       matched the attempt in 34 of 44 aged machines, and
 *                       none of spb's aging and server-day ones: it is gone.)
 *   total_regions:      the regions, as defined above.
 *   possible:           the regions no policy is kept from: those holding
 *                       no boot reservation (memblock: the low 1M, the
 *                       kernel image, the memmap, per-CPU areas), which
 *                       stay allocated for the machine's life.  Holes and
 *                       offline sections are in no zone's span, so in no
 *                       region.  The yield figures are "N of possible". */
#ifndef MMSIM_GBYIELD_H
#define MMSIM_GBYIELD_H

#include "mmzone.h"

#include <glib.h>

struct gb_yield {
	unsigned long total_regions;
	unsigned long possible;
	unsigned long free_now;
	unsigned long movable_only;
};

void gb_yield(struct machine *m, struct gb_yield *y);
/* The same for the regions of node nid (-1: every node); the nodes'
 * counts add up to the machine's. */
void gb_yield_node(struct machine *m, int nid, struct gb_yield *y);

/* The 1GB yield measured: as many 1 GiB pages as alloc_gigantic_folio
 * gets, node by node (only node's if it is not -1), each call scanning
 * the node's ranges from the lowest up as the kernel's does (echo N >
 * nr_hugepages), then all given back.  The end state differs from the
 * start only by the pages migrated. */
struct gb_attempt {
	unsigned long obtained;
	unsigned long pages_migrated;   /* for every range tried, taken or not */
	uint64_t time_ns;               /* the calling CPU's time for it all */
};
struct mm_ctx;
void gb_yield_attempt(struct mm_ctx *ctx, struct machine *m, int node, struct gb_attempt *a);

/* A pageblock by what is allocated in it.  Pages on per-CPU lists count as
 * free: they are free memory a drain gives back.  Mixed: allocated pages of
 * more than one of the three types. */
enum pb_class {
	PB_CLASS_FREE,
	PB_CLASS_MOVABLE,
	PB_CLASS_RECLAIMABLE,
	PB_CLASS_UNMOVABLE,
	PB_CLASS_MIXED,
	PB_CLASS_NONE,          /* no memory: past the end, or in no zone's span */
	NR_PB_CLASSES
};

/* One character per class, ".MRUX ", for m:memory_map(). */
extern const char pb_class_chars[NR_PB_CLASSES];

enum pb_class pageblock_class(struct machine *m, uint32_t pb);

/* The memory map as a gnuplot matrix: '#' comment lines saying what it is,
 * then one row per GiB of physical memory (lowest address first) of 512
 * class codes (enum pb_class), one per pageblock.  counts (may be NULL)
 * gets the number of pageblocks of each class. */
void gb_memory_map_matrix(struct machine *m, GString *out,
			  unsigned long counts[NR_PB_CLASSES]);
/* The memory map by GiB, for machines too big to see pageblocks: a '#'
 * comment line, then one line per GiB, "GIB WORST N0 .. N5": the worst
 * class of its pageblocks (unmovable, then mixed, reclaimable, movable,
 * free; no memory only if none has any) and the count of each class. */
void gb_memory_map_gib(struct machine *m, GString *out);
/* The map's y tics as a gnuplot tic list, '"node 0\nDMA+DMA32" 0, ...':
 * each zone's name at the row it starts in; zones starting within 1/10 of
 * the map of the previous label share it. */
void gb_memory_map_tics(struct machine *m, GString *out);

/* Where unmovable pages are (m:pageblock_spread): allocated unmovable and
 * reclaimable pages, the pageblocks holding one (an unmovable page; an
 * unmovable or reclaimable one), the 1 GiB regions holding an unmovable
 * page; and the same without the boot reservations (memblock.h), which
 * never move: what the kernel allocated at run time. */
struct pageblock_spread {
	unsigned long unmovable_pages, reclaimable_pages;
	unsigned long unmovable_pageblocks, nonmovable_pageblocks, unmovable_regions;
	unsigned long pageblocks, regions, reserved_pages;
	unsigned long runtime_unmovable_pages, runtime_unmovable_pageblocks;
	unsigned long runtime_nonmovable_pageblocks;
};
void pageblock_spread(struct machine *m, struct pageblock_spread *out);

#endif
