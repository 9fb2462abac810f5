/* Per-pageblock page accounting for the 1GB yield figures (gbyield.c) and
 * the memory map: for every pageblock, how many of its pages are allocated
 * as each of the three mergeable migratetypes and how many sit on per-CPU
 * lists; and the same sums per 1 GiB region.  Kept up to date by one call
 * at each allocation, free, pcp enqueue and pcp dequeue, so reading the
 * figures never scans frames.  8 bytes per pageblock, 16 per GiB. */
#ifndef MMSIM_PBSTAT_H
#define MMSIM_PBSTAT_H

#include "mmtypes.h"

#include <stdint.h>

/* The first three are indexed by migratetype. */
enum pbstat_item {
	PBSTAT_UNMOVABLE = MIGRATE_UNMOVABLE,
	PBSTAT_MOVABLE = MIGRATE_MOVABLE,
	PBSTAT_RECLAIMABLE = MIGRATE_RECLAIMABLE,
	PBSTAT_PCP = MIGRATE_PCPTYPES,
	NR_PBSTAT_ITEMS
};

/* 1 GiB regions: 2^18 pages, 512 pageblocks. */
#define GB_REGION_ORDER 18
#define GB_REGION_PAGES (1UL << GB_REGION_ORDER)
#define PAGEBLOCKS_PER_GB_REGION (1U << (GB_REGION_ORDER - pageblock_order))

struct pbstat {
	uint32_t nr_pageblocks;
	uint32_t nr_regions;                      /* 1 GiB regions, the last maybe partial */
	uint16_t (*pb)[NR_PBSTAT_ITEMS];          /* at most 512 pages each */
	uint32_t (*region)[NR_PBSTAT_ITEMS];
};

struct pbstat *pbstat_create(pfn_t nr_frames);
void pbstat_destroy(struct pbstat *ps);

/* Add (sign +1) or take away (sign -1) the 2^order pages of the block at
 * pfn under item; a block of pageblock order or more spreads over its
 * pageblocks, 512 pages each. */
static inline void pbstat_account(struct pbstat *ps, pfn_t pfn, unsigned order,
				  unsigned item, int sign)
{
	unsigned nr_pb = order > pageblock_order ? 1U << (order - pageblock_order) : 1;
	unsigned per_pb = order < pageblock_order ? 1U << order : pageblock_nr_pages;
	uint32_t pb = pfn >> pageblock_order;

	if (!order) {       /* most calls: one page */
		ps->region[pfn >> GB_REGION_ORDER][item] += (uint32_t)sign;
		ps->pb[pb][item] += (uint16_t)sign;
		return;
	}
	/* A block never crosses a 1 GiB boundary (MAX_PAGE_ORDER < 18). */
	ps->region[pfn >> GB_REGION_ORDER][item] += (uint32_t)(sign * (int)(per_pb * nr_pb));
	for (unsigned i = 0; i < nr_pb; i++)
		ps->pb[pb + i][item] += (uint16_t)(sign * (int)per_pb);
}

/* The hooks: prep_new_page(), free_pages_prepare(), pcp list add/del.
 * Only the mergeable types are accounted; the model allocates no other. */
static inline void pbstat_alloc(struct pbstat *ps, pfn_t pfn, unsigned order, unsigned mt)
{
	pbstat_account(ps, pfn, order, mt, +1);
}

static inline void pbstat_free(struct pbstat *ps, pfn_t pfn, unsigned order, unsigned mt)
{
	pbstat_account(ps, pfn, order, mt, -1);
}

static inline void pbstat_pcp(struct pbstat *ps, pfn_t pfn, unsigned order, int sign)
{
	pbstat_account(ps, pfn, order, PBSTAT_PCP, sign);
}

#endif
