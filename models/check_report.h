/* What the invariant checkers share: one report per check_invariants(),
 * holding the first violations in full and counting the rest. */
#ifndef MMSIM_CHECK_REPORT_H
#define MMSIM_CHECK_REPORT_H

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

#endif
