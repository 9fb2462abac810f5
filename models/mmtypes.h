/* Constants and small types shared by the whole model, with the kernel's
 * names and x86-64 values (include/linux/mmzone.h, pageblock-flags.h,
 * mm/internal.h, gfp_types.h). */
#ifndef MMSIM_MMTYPES_H
#define MMSIM_MMTYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t pfn_t;          /* frame index; 4 TiB is 2^30 frames */
#define PFN_NONE UINT32_MAX

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define MAX_PAGE_ORDER 10
#define NR_PAGE_ORDERS (MAX_PAGE_ORDER + 1)
#define PAGE_ALLOC_COSTLY_ORDER 3
#define pageblock_order 9
#define pageblock_nr_pages (1U << pageblock_order)
#define SUPERPAGEBLOCK_ORDER 18
#define SUPERPAGEBLOCK_NR_PAGES (1U << SUPERPAGEBLOCK_ORDER)
/* Memory is onlined and sized in sections (x86-64 SECTION_SIZE_BITS 27). */
#define SECTION_SIZE_BYTES (128ULL << 20)
#define PAGES_PER_SECTION ((pfn_t)(SECTION_SIZE_BYTES >> PAGE_SHIFT))

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_CMA,
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

static inline bool migratetype_is_mergeable(int mt)
{
	return mt < MIGRATE_PCPTYPES;
}

extern const char *const migratetype_names[MIGRATE_TYPES];

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	ZONE_MOVABLE,
	ZONE_DEVICE,       /* never populated; kept so zone-indexed output matches the kernel */
	MAX_NR_ZONES
};

extern const char *const zone_names[MAX_NR_ZONES];

/* 16 MiB of ZONE_DMA and the 4 GiB ZONE_DMA32 limit on x86-64. */
#define DMA_LIMIT_PFN ((pfn_t)((16ULL << 20) >> PAGE_SHIFT))
#define DMA32_LIMIT_PFN ((pfn_t)((4ULL << 30) >> PAGE_SHIFT))

enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, WMARK_PROMO, NR_WMARK };

/* mm/internal.h ALLOC_* flags. */
#define ALLOC_WMARK_MIN WMARK_MIN
#define ALLOC_WMARK_LOW WMARK_LOW
#define ALLOC_WMARK_HIGH WMARK_HIGH
#define ALLOC_NO_WATERMARKS 0x04
#define ALLOC_WMARK_MASK (ALLOC_NO_WATERMARKS - 1)
#define ALLOC_OOM 0x08
#define ALLOC_NON_BLOCK 0x10
#define ALLOC_MIN_RESERVE 0x20
#define ALLOC_CPUSET 0x40
#define ALLOC_CMA 0x80
#define ALLOC_NOFRAGMENT 0x100
#define ALLOC_HIGHATOMIC 0x200
#define ALLOC_TRYLOCK 0x400
#define ALLOC_KSWAPD 0x800
/* Model-only, from the later superpageblock series (docs/MODEL.md, "The later series' rule"):
 * the caller has a fallback (__GFP_NORETRY without direct reclaim), so the
 * request may fall back only inside tainted superpageblocks and
 * get_page_from_freelist does not relax ALLOC_NOFRAGMENT for it. */
#define ALLOC_HAS_FALLBACK 0x1000
#define ALLOC_RESERVES (ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_HIGHATOMIC | ALLOC_OOM)

/* The gfp bits the model reads; values are the model's own. */
typedef uint32_t gfp_t;
#define __GFP_DMA 0x01u
#define __GFP_DMA32 0x02u
#define __GFP_HIGHMEM 0x04u
#define __GFP_MOVABLE 0x08u
#define __GFP_RECLAIMABLE 0x10u
#define __GFP_HIGH 0x20u
#define __GFP_KSWAPD_RECLAIM 0x40u
#define __GFP_DIRECT_RECLAIM 0x80u
#define __GFP_NORETRY 0x100u
#define __GFP_NOWARN 0x200u
#define __GFP_NOMEMALLOC 0x800u
#define __GFP_ZERO 0x1000u
#define __GFP_RETRY_MAYFAIL 0x2000u
#define __GFP_RECLAIM (__GFP_KSWAPD_RECLAIM | __GFP_DIRECT_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL __GFP_RECLAIM
#define GFP_NOWAIT __GFP_KSWAPD_RECLAIM
#define GFP_USER __GFP_RECLAIM
#define GFP_HIGHUSER (GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE (GFP_HIGHUSER | __GFP_MOVABLE)
/* A THP's: no reclaim, no reserves, no warning; GFP_TRANSHUGE may also
 * reclaim and compact directly. */
#define GFP_TRANSHUGE_LIGHT ((GFP_HIGHUSER_MOVABLE | __GFP_NOMEMALLOC | __GFP_NOWARN) & \
			     ~__GFP_RECLAIM)
#define GFP_TRANSHUGE (GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

/* FPI_* flags of the free path. */
#define FPI_NONE 0x0
#define FPI_TO_TAIL 0x2
#define FPI_TRYLOCK 0x4

static inline int gfp_migratetype(gfp_t gfp)
{
	if (gfp & __GFP_MOVABLE)
		return MIGRATE_MOVABLE;
	if (gfp & __GFP_RECLAIMABLE)
		return MIGRATE_RECLAIMABLE;
	return MIGRATE_UNMOVABLE;
}

/* gfp_zone(): the highest zone a request may use. */
static inline enum zone_type gfp_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	if ((gfp & (__GFP_MOVABLE | __GFP_HIGHMEM)) == (__GFP_MOVABLE | __GFP_HIGHMEM))
		return ZONE_MOVABLE;
	return ZONE_NORMAL;
}

#endif
