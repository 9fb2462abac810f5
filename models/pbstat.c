#include "pbstat.h"

#include <glib.h>

struct pbstat *pbstat_create(pfn_t nr_frames)
{
	struct pbstat *ps = g_new0(struct pbstat, 1);

	ps->nr_pageblocks = (uint32_t)(((uint64_t)nr_frames + pageblock_nr_pages - 1) >> pageblock_order);
	ps->nr_regions = (uint32_t)(((uint64_t)nr_frames + GB_REGION_PAGES - 1) >> GB_REGION_ORDER);
	/* Zeroed: a new machine has every page free in the buddy. */
	ps->pb = g_malloc0_n(ps->nr_pageblocks, sizeof(*ps->pb));
	ps->region = g_malloc0_n(ps->nr_regions, sizeof(*ps->region));
	return ps;
}

void pbstat_destroy(struct pbstat *ps)
{
	if (!ps)
		return;
	g_free(ps->pb);
	g_free(ps->region);
	g_free(ps);
}
