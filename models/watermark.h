/* Watermarks and lowmem reserves (mm/page_alloc.c: calculate_min_free_kbytes,
 * __setup_per_zone_wmarks, setup_per_zone_lowmem_reserve, zone_watermark_ok). */
#ifndef MMSIM_WATERMARK_H
#define MMSIM_WATERMARK_H

#include "mmzone.h"

/* nr_free_buffer_pages(): managed pages above the high watermark in zones
 * up to ZONE_NORMAL, over every node. */
unsigned long nr_free_buffer_pages(struct machine *m);
void calculate_min_free_kbytes(struct machine *m);
/* khugepaged's set_recommended_min_free_kbytes(): raise min_free_kbytes so
 * each zone keeps pageblocks free for fragmentation avoidance. */
void set_recommended_min_free_kbytes(struct machine *m);
void setup_per_zone_wmarks(struct machine *m);
void setup_per_zone_lowmem_reserve(struct machine *m);
/* Writes of vm.min_free_kbytes (which the kernel then keeps, whatever
 * later memory hotplug computes) and vm.watermark_scale_factor: the
 * watermarks, and the pageset highs that follow them, again. */
void min_free_kbytes_sysctl_handler(struct machine *m, int kbytes);
void watermark_scale_factor_sysctl_handler(struct machine *m, int factor);
/* init_per_zone_wmark_min() at boot; thp adds khugepaged's raise. */
void init_per_zone_wmark_min(struct machine *m, bool thp);

bool __zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
			 int highest_zoneidx, unsigned alloc_flags, long free_pages);
bool zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
		       int highest_zoneidx, unsigned alloc_flags);
bool zone_watermark_fast(struct zone *z, unsigned order, unsigned long mark,
			 int highest_zoneidx, unsigned alloc_flags);

#endif
