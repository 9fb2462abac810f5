/* The invariant checkers' shared report: see check_report.h. */
#include "check_report.h"
#include "superpageblock.h"

#include <stdarg.h>

void check_fail(struct check_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	g_string_append_vprintf(r->s, fmt, ap);
	va_end(ap);
	g_string_append_c(r->s, '\n');
}

char *check_report_finish(struct check_report *r)
{
	if (r->n == 0) {
		g_string_free(r->s, TRUE);
		return NULL;
	}
	if (r->n > MAX_REPORTS)
		g_string_append_printf(r->s, "... and %u more violations\n", r->n - MAX_REPORTS);
	return g_string_free(r->s, FALSE);
}

/* A pageblock's type as the report prints it: a corrupted one may be out
 * of the names' range. */
static const char *check_migratetype_name(int mt)
{
	return mt >= 0 && mt < MIGRATE_TYPES ? migratetype_names[mt] : "(out of range)";
}

uint32_t check_one_list(struct zone *z, struct check_report *r, struct pfn_list *l, unsigned o,
			int mt, const struct superpageblock *sb)
{
	struct memmap *mm = &z->machine->mm;
	pfn_t prev = PFN_NONE;
	uint32_t seen = 0;

	for (pfn_t p = l->head; p != PFN_NONE; p = pfn_list_next(mm, l, p)) {
		if (++seen > l->nr) {
			check_fail(r, "node %u %s: order-%u %s list has more than its count %u",
				   z->node, z->name, o, migratetype_names[mt], l->nr);
			break;
		}
		if (pfn_list_prev(mm, l, p) != prev)
			check_fail(r, "node %u %s: pfn %#x on order-%u %s list: broken prev link",
				   z->node, z->name, p, o, migratetype_names[mt]);
		if (!PageBuddy(mm, p) || page_order(mm, p) != o)
			check_fail(r, "node %u %s: pfn %#x on order-%u %s list is not a free "
				   "order-%u block (kind %d order %u)", z->node, z->name, p, o,
				   migratetype_names[mt], o, page_kind(mm, p), page_order(mm, p));
		if (p & ((1u << o) - 1))
			check_fail(r, "node %u %s: order-%u block at pfn %#x is misaligned",
				   z->node, z->name, o, p);
		if (!zone_spans_pfn(z, p) || !zone_spans_pfn(z, p + (1u << o) - 1))
			check_fail(r, "node %u %s: order-%u block at pfn %#x is outside the zone",
				   z->node, z->name, o, p);
		else if (get_pfnblock_migratetype(mm, p) != mt)
			check_fail(r, "node %u %s: pfn %#x on the %s list but its pageblock is %s",
				   z->node, z->name, p, migratetype_names[mt],
				   check_migratetype_name(get_pfnblock_migratetype(mm, p)));
		if (sb && pfn_to_superpageblock(z, p) != sb)
			check_fail(r, "node %u %s: pfn %#x is on the lists of superpageblock at %#x",
				   z->node, z->name, p, sb->start_pfn);
		prev = p;
	}
	if (l->tail != prev)
		check_fail(r, "node %u %s: order-%u %s list tail %#x, last entry %#x",
			   z->node, z->name, o, migratetype_names[mt], l->tail, prev);
	if (seen != l->nr)
		check_fail(r, "node %u %s: order-%u %s list holds %u blocks, count says %u",
			   z->node, z->name, o, migratetype_names[mt], seen, l->nr);
	return seen;
}

uint32_t check_zone_free_list(struct zone *z, struct check_report *r, unsigned o, int mt)
{
	return check_one_list(z, r, &z->free_area[o].free_list[mt], o, mt, NULL);
}
