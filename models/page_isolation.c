#include "page_isolation.h"
#include "buddy.h"
#include "huge_memory.h"
#include "migrate.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "pcp.h"

pfn_t has_unmovable_pages(struct machine *m, pfn_t start, pfn_t end)
{
	struct memmap *mm = &m->mm;
	bool movable_zone = pfn_zone(m, start)->idx == ZONE_MOVABLE;

	for (pfn_t pfn = start; pfn < end; pfn++) {
		switch (page_kind(mm, pfn)) {
		case PG_KIND_BUDDY:
		case PG_KIND_PCP:
			/* Free (no reference): skip the block. */
			pfn += (1u << page_order(mm, pfn)) - 1;
			break;
		case PG_KIND_ALLOC:
			/* A THP counts as movable (the kernel's compound-page
			 * test) if the migration may split it. */
			if (thp_migratable(m, pfn)) {
				pfn += (1u << page_order(mm, pfn)) - 1;
				break;
			}
			/* In ZONE_MOVABLE only a reserved page counts: the rest
			 * is taken as movable (a page in a per-CPU folio batch,
			 * not yet on its LRU, included).  Elsewhere a THP the
			 * migration may not move counts too. */
			if (movable_zone ? owner_kind(page_owner(m, pfn)) == OWNER_KIND_RESERVED
					 : thp_head(m, pfn) != PFN_NONE || !folio_test_lru(m, pfn))
				return pfn;
			break;
		default:
			break;
		}
	}
	return PFN_NONE;
}

/* set_migratetype_isolate(): one pageblock, under zone->lock. */
static int set_migratetype_isolate(struct mm_ctx *ctx, struct machine *m, pfn_t pfn,
				   pfn_t *fail_pfn)
{
	struct zone *zone = pfn_zone(m, pfn);
	pfn_t unmovable;

	zone_lock(ctx, zone, SITE_SET_MIGRATETYPE_ISOLATE);
	zone->work.pb_scan += pageblock_nr_pages;
	if (get_pfnblock_migratetype(&m->mm, pfn) == MIGRATE_ISOLATE) {
		zone_unlock(ctx, zone);
		*fail_pfn = pfn;
		return -MM_EBUSY;
	}
	unmovable = has_unmovable_pages(m, pfn, pfn + pageblock_nr_pages);
	if (unmovable != PFN_NONE || !pageblock_isolate_and_move_free_pages(zone, pfn)) {
		zone_unlock(ctx, zone);
		*fail_pfn = unmovable != PFN_NONE ? unmovable : pfn;
		return -MM_EBUSY;
	}
	zone_unlock(ctx, zone);
	return 0;
}

static void unset_migratetype_isolate(struct mm_ctx *ctx, struct machine *m, pfn_t pfn)
{
	struct zone *zone = pfn_zone(m, pfn);

	zone_lock(ctx, zone, SITE_SET_MIGRATETYPE_ISOLATE);
	if (get_pfnblock_migratetype(&m->mm, pfn) == MIGRATE_ISOLATE)
		pageblock_unisolate_and_move_free_pages(zone, pfn);
	zone_unlock(ctx, zone);
}

int start_isolate_page_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
			     pfn_t *fail_pfn)
{
	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages) {
		if (set_migratetype_isolate(ctx, m, pfn, fail_pfn)) {
			undo_isolate_page_range(ctx, m, start, pfn);
			return -MM_EBUSY;
		}
	}
	return 0;
}

void undo_isolate_page_range(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end)
{
	for (pfn_t pfn = start; pfn < end; pfn += pageblock_nr_pages)
		unset_migratetype_isolate(ctx, m, pfn);
}

int test_pages_isolated(struct mm_ctx *ctx, struct machine *m, pfn_t start, pfn_t end,
			pfn_t *fail_pfn)
{
	struct memmap *mm = &m->mm;
	struct zone *zone = pfn_zone(m, start);
	pfn_t pfn;

	for (pfn = start; pfn < end; pfn += pageblock_nr_pages)
		if (get_pfnblock_migratetype(mm, pfn) != MIGRATE_ISOLATE) {
			*fail_pfn = pfn;
			return -MM_EBUSY;
		}
	zone_lock(ctx, zone, SITE_SET_MIGRATETYPE_ISOLATE);
	for (pfn = start; pfn < end && PageBuddy(mm, pfn); pfn += 1u << page_order(mm, pfn))
		zone->work.pb_scan++;
	zone_unlock(ctx, zone);
	if (pfn < end) {
		*fail_pfn = pfn;
		return -MM_EBUSY;
	}
	return 0;
}
