/* The invariant checkers' shared report: see check_report.h. */
#include "check_report.h"

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
