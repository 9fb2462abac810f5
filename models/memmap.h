/* Frame and pageblock metadata in structure-of-arrays form.
 *
 * The kernel's struct page is 64 bytes; here a frame costs 10 bytes in two
 * arrays: a state byte and a page-flags byte in one, two 32-bit words
 * whose meaning depends on the state in the other.
 *   free (buddy or per-CPU list head): next / prev list links
 *   allocated head:                   owner id / owner offset (reverse map)
 *   anything else (tail of a block):  unused
 * A block of pageblock order or more keeps its two words in its first
 * pageblock's words instead, so that booting or filling a terabyte machine
 * with large blocks touches megabytes of metadata, not gigabytes.
 * Only the first frame of a block carries state; the others read
 * PG_KIND_NONE, which is what makes buddy lookups exact. */
#ifndef MMSIM_MEMMAP_H
#define MMSIM_MEMMAP_H

#include "mm_env.h"
#include "mmtypes.h"

#include <stddef.h>

enum page_kind {
	PG_KIND_NONE = 0,   /* tail of a block, or not a block head */
	PG_KIND_BUDDY = 1,  /* PageBuddy: head of a free block on a buddy list */
	PG_KIND_ALLOC = 2,  /* head of an allocated block */
	PG_KIND_PCP = 3,    /* head of a free block on a per-CPU list */
};

#define PG_ORDER_MASK 0x0f
#define PG_KIND_SHIFT 4
#define PG_KIND_MASK (0x3 << PG_KIND_SHIFT)
#define PG_EXTRA_SHIFT 6   /* ALLOC: migratetype it was allocated as;
			    * PCP: the migratetype of the list it is on */

/* Per-frame page flags (the aux byte). */
#define PG_pcp_buddy 0x01  /* PagePCPBuddy: mergeable buddy on its owner's PCP */
#define PG_pinned 0x02     /* allocated head with a long-term pin (FOLL_LONGTERM): cannot migrate */

/* Per-pageblock flag word: migratetype in the low bits, then the
 * standalone bits of pageblock-flags.h. */
#define PB_MIGRATETYPE_MASK 0x7
#define PB_migrate_isolate (1u << 3)
#define PB_compact_skip (1u << 4)
#define PB_on_cpu_list (1u << 5)   /* pageblock_data.cpu_node is on an owned_blocks list */
/* Superpageblock bits (policy spb): what has been handed out of the block
 * since it was last wholly free, and whether it is wholly free now. */
#define PB_has_unmovable (1u << 6)
#define PB_has_reclaimable (1u << 7)
#define PB_has_movable (1u << 8)
#define PB_all_free (1u << 9)
/* No memory behind it (a hole, or never initialised): a captured machine's
 * pageblocks that pagetypeinfo does not count. */
#define PB_hole (1u << 10)

struct memmap {
	pfn_t nr_frames;
	/* A frame's state byte and its PG_* flags side by side: one miss. */
	struct frame_flags {
		uint8_t state;
		uint8_t aux;        /* PG_* page flags */
	} *flags;
	/* A frame's two words side by side: a list deletion or an owner's
	 * update reads both, one cache miss instead of two on an aged
	 * machine's scattered frames. */
	struct frame_words {
		pfn_t a;    /* next link, or owner id */
		pfn_t b;    /* prev link, or owner offset */
	} *words;
	uint32_t nr_pageblocks;
	uint16_t *pb_flags;
	pfn_t *pb_word_a;   /* the two words of blocks of order >= 9 */
	pfn_t *pb_word_b;
	uint16_t *pb_zone;  /* node * MAX_NR_ZONES + zone index: 64 nodes need more than 8 bits */
	uint16_t *pb_cpu;   /* pageblock_data.cpu: owning CPU + 1, 0 = the zone */
	uint32_t *pb_cpu_next;  /* pageblock_data.cpu_node links (pageblock numbers) */
	uint32_t *pb_cpu_prev;
	struct cacheline *pb_cl;    /* the pageblock_data cache line */
};

/* Frame arrays of this size or more are advised to use huge pages. */
#define MEMMAP_HUGE_BYTES (2UL << 20)

int memmap_init(struct memmap *mm, pfn_t nr_frames);
void memmap_destroy(struct memmap *mm);
/* Bytes the arrays take for nr_frames frames (for budgets and reports). */
size_t memmap_bytes(pfn_t nr_frames);

static inline enum page_kind page_kind(const struct memmap *mm, pfn_t pfn)
{
	return (enum page_kind)((mm->flags[pfn].state & PG_KIND_MASK) >> PG_KIND_SHIFT);
}

static inline unsigned page_order(const struct memmap *mm, pfn_t pfn)
{
	return mm->flags[pfn].state & PG_ORDER_MASK;
}

static inline unsigned page_extra(const struct memmap *mm, pfn_t pfn)
{
	return mm->flags[pfn].state >> PG_EXTRA_SHIFT;
}

static inline void page_set(struct memmap *mm, pfn_t pfn, enum page_kind kind,
			    unsigned order, unsigned extra)
{
	mm->flags[pfn].state = (uint8_t)(order | (kind << PG_KIND_SHIFT) | (extra << PG_EXTRA_SHIFT));
}

static inline void page_clear(struct memmap *mm, pfn_t pfn)
{
	mm->flags[pfn].state = 0;
}

static inline bool PageBuddy(const struct memmap *mm, pfn_t pfn)
{
	return page_kind(mm, pfn) == PG_KIND_BUDDY;
}

/* The words of the block of this order starting at pfn. */
static inline pfn_t *block_word_a(struct memmap *mm, pfn_t pfn, unsigned order)
{
	return order >= pageblock_order ? &mm->pb_word_a[pfn >> pageblock_order] : &mm->words[pfn].a;
}

static inline pfn_t *block_word_b(struct memmap *mm, pfn_t pfn, unsigned order)
{
	return order >= pageblock_order ? &mm->pb_word_b[pfn >> pageblock_order] : &mm->words[pfn].b;
}

static inline uint32_t pfn_to_pb(pfn_t pfn)
{
	return pfn >> pageblock_order;
}

/* get_pfnblock_migratetype(): the migratetype bits, ISOLATE if isolated. */
static inline int get_pfnblock_migratetype(const struct memmap *mm, pfn_t pfn)
{
	uint16_t f = mm->pb_flags[pfn_to_pb(pfn)];

	if (f & PB_migrate_isolate)
		return MIGRATE_ISOLATE;
	return f & PB_MIGRATETYPE_MASK;
}

static inline void set_pageblock_migratetype(struct memmap *mm, pfn_t pfn, int mt)
{
	uint16_t *f = &mm->pb_flags[pfn_to_pb(pfn)];

	*f = (uint16_t)((*f & ~PB_MIGRATETYPE_MASK) | (unsigned)mt);
}

/* change_pageblock_range(): relabel every pageblock of a 2^order block. */
static inline void change_pageblock_range(struct memmap *mm, pfn_t pfn, unsigned order, int mt)
{
	unsigned n = order > pageblock_order ? 1u << (order - pageblock_order) : 1;

	for (unsigned i = 0; i < n; i++)
		set_pageblock_migratetype(mm, pfn + i * pageblock_nr_pages, mt);
}

#endif
