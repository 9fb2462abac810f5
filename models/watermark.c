#include "watermark.h"
#include "buddy.h"
#include "pcp.h"

/* mult_frac(x, n, d) without overflowing the intermediate product. */
static unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

/* int_sqrt(): floor of the square root. */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1UL << (sizeof(long) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

unsigned long nr_free_buffer_pages(struct machine *m)
{
	unsigned long sum = 0;

	for_each_zone(m, z) {
		if (z->idx > ZONE_NORMAL)
			continue;
		unsigned long size = z->managed_pages, high = wmark_pages(z, WMARK_HIGH);
		if (size > high)
			sum += size - high;
	}
	return sum;
}

void calculate_min_free_kbytes(struct machine *m)
{
	unsigned long lowmem_kbytes = nr_free_buffer_pages(m) * (PAGE_SIZE >> 10);
	long new_min = (long)int_sqrt(lowmem_kbytes * 16);

	if (new_min > m->user_min_free_kbytes) {
		if (new_min < 128)
			new_min = 128;
		if (new_min > 262144)
			new_min = 262144;
		m->min_free_kbytes = (int)new_min;
	}
}

void set_recommended_min_free_kbytes(struct machine *m)
{
	unsigned long nr_zones = 0, recommended;

	for_each_populated_zone(m, z)
		if (z->idx <= gfp_zone(GFP_USER))
			nr_zones++;
	/* Two free pageblocks per zone, plus one per pair of the three
	 * mobility types to fall back to without further fallbacks. */
	recommended = pageblock_nr_pages * nr_zones * 2;
	recommended += pageblock_nr_pages * nr_zones * MIGRATE_PCPTYPES * MIGRATE_PCPTYPES;
	if (recommended > nr_free_buffer_pages(m) / 20)
		recommended = nr_free_buffer_pages(m) / 20;
	recommended <<= PAGE_SHIFT - 10;
	if (recommended > (unsigned long)m->min_free_kbytes)
		m->min_free_kbytes = (int)recommended;
}

void setup_per_zone_wmarks(struct machine *m)
{
	unsigned long pages_min = (unsigned long)m->min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;

	for_each_zone(m, z)
		if (z->idx != ZONE_MOVABLE)
			lowmem_pages += z->managed_pages;

	for_each_zone(m, z) {
		unsigned long tmp = lowmem_pages ? pages_min * z->managed_pages / lowmem_pages : 0;

		if (z->idx == ZONE_MOVABLE) {
			unsigned long min_pages = z->managed_pages / 1024;

			if (min_pages < 32)       /* SWAP_CLUSTER_MAX */
				min_pages = 32;
			if (min_pages > 128)
				min_pages = 128;
			z->_watermark[WMARK_MIN] = min_pages;
		} else {
			z->_watermark[WMARK_MIN] = tmp;
		}
		unsigned long scaled = mult_frac(z->managed_pages,
						 (unsigned long)m->watermark_scale_factor, 10000);
		if (tmp >> 2 > scaled)
			scaled = tmp >> 2;
		z->watermark_boost = 0;
		z->_watermark[WMARK_LOW] = z->_watermark[WMARK_MIN] + scaled;
		z->_watermark[WMARK_HIGH] = z->_watermark[WMARK_LOW] + scaled;
		z->_watermark[WMARK_PROMO] = z->_watermark[WMARK_HIGH] + scaled;
	}
	/* Pageset high limits follow the low watermark. */
	for_each_zone(m, z)
		zone_pcp_update(z, 0);
}

void min_free_kbytes_sysctl_handler(struct machine *m, int kbytes)
{
	m->min_free_kbytes = m->user_min_free_kbytes = kbytes;
	setup_per_zone_wmarks(m);
}

void watermark_scale_factor_sysctl_handler(struct machine *m, int factor)
{
	m->watermark_scale_factor = factor;
	setup_per_zone_wmarks(m);
}

void setup_per_zone_lowmem_reserve(struct machine *m)
{
	for (unsigned n = 0; n < m->nr_nodes; n++) {
		struct pglist_data *pgdat = &m->node_data[n];

		for (int i = 0; i < MAX_NR_ZONES - 1; i++) {
			struct zone *z = &pgdat->node_zones[i];
			int ratio = m->lowmem_reserve_ratio[i];
			bool clear = !ratio || !z->managed_pages;
			unsigned long managed = 0;

			for (int j = i + 1; j < MAX_NR_ZONES; j++) {
				managed += pgdat->node_zones[j].managed_pages;
				z->lowmem_reserve[j] = clear ? 0 : (long)(managed / (unsigned long)ratio);
			}
		}
	}
}

void init_per_zone_wmark_min(struct machine *m, bool thp)
{
	calculate_min_free_kbytes(m);
	setup_per_zone_wmarks(m);
	setup_per_zone_lowmem_reserve(m);
	if (thp) {
		set_recommended_min_free_kbytes(m);
		setup_per_zone_wmarks(m);
	}
}

/* __zone_watermark_unusable_free() */
static long zone_watermark_unusable_free(struct zone *z, unsigned order, unsigned alloc_flags)
{
	long unusable = (1L << order) - 1;

	if (!(alloc_flags & ALLOC_RESERVES))
		unusable += (long)z->nr_free_highatomic;
	if (!(alloc_flags & ALLOC_CMA))
		unusable += (long)zone_page_state(z, NR_FREE_CMA_PAGES);
	return unusable;
}

bool __zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
			 int highest_zoneidx, unsigned alloc_flags, long free_pages)
{
	long min = (long)mark;

	free_pages -= zone_watermark_unusable_free(z, order, alloc_flags);
	if (alloc_flags & ALLOC_RESERVES) {
		if (alloc_flags & ALLOC_MIN_RESERVE) {
			min -= min / 2;
			if (alloc_flags & ALLOC_NON_BLOCK)
				min -= min / 4;
		}
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
	}
	if (free_pages <= min + z->lowmem_reserve[highest_zoneidx])
		return false;
	if (!order)
		return true;
	/* A high-order request also needs a free block of that order. */
	for (unsigned o = order; o < NR_PAGE_ORDERS; o++) {
		const struct free_area *area = &z->free_area[o];

		if (!area->nr_free)
			continue;
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (!free_area_empty(area, mt))
				return true;
		if ((alloc_flags & ALLOC_CMA) && !free_area_empty(area, MIGRATE_CMA))
			return true;
		if ((alloc_flags & (ALLOC_HIGHATOMIC | ALLOC_OOM)) &&
		    !free_area_empty(area, MIGRATE_HIGHATOMIC))
			return true;
	}
	return false;
}

bool zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
		       int highest_zoneidx, unsigned alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
				   (long)zone_page_state(z, NR_FREE_PAGES));
}

bool zone_watermark_fast(struct zone *z, unsigned order, unsigned long mark,
			 int highest_zoneidx, unsigned alloc_flags)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);

	if (!order) {
		long reserved = zone_watermark_unusable_free(z, 0, alloc_flags);
		long usable = free_pages - (reserved < free_pages ? reserved : free_pages);

		if (usable > (long)mark + z->lowmem_reserve[highest_zoneidx])
			return true;
	}
	if (__zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages))
		return true;
	/* __GFP_HIGH order-0 requests ignore the boost at the min watermark. */
	if (!order && (alloc_flags & ALLOC_MIN_RESERVE) && z->watermark_boost &&
	    (alloc_flags & ALLOC_WMARK_MASK) == WMARK_MIN)
		return __zone_watermark_ok(z, order, z->_watermark[WMARK_MIN], highest_zoneidx,
					   alloc_flags, free_pages);
	return false;
}
