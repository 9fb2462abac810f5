/* What the invariant checkers share: one report per check_invariants(),
 * holding the first violations in full and counting the rest. */
#ifndef MMSIM_CHECK_REPORT_H
#define MMSIM_CHECK_REPORT_H

#include "mmzone.h"

#include <glib.h>

/* Violations reported in full; the rest are only counted. */
#define MAX_REPORTS 20

struct check_report {
	GString *s;
	unsigned n;         /* violations found, reported or not */
};

/* Record one violation, a line of the report. */
G_GNUC_PRINTF(2, 3)
void check_fail(struct check_report *r, const char *fmt, ...);
/* The report (its violations beyond MAX_REPORTS counted on a last line),
 * or NULL, freed, if there were none. */
char *check_report_finish(struct check_report *r);
/* One free list: links consistent both ways, entries are buddy heads of
 * the list's order, aligned, inside the zone (and inside sb if given), on
 * the list of their pageblock's type.  Returns the entries seen. */
uint32_t check_one_list(struct zone *z, struct check_report *r, struct pfn_list *l, unsigned o,
			int mt, const struct superpageblock *sb);
/* The plain buddy's check_free_list (zone_ops): the zone's own list. */
uint32_t check_zone_free_list(struct zone *z, struct check_report *r, unsigned o, int mt);

#endif
