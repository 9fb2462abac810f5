/* GLib tests whose body runs in a child process: g_test_trap_subprocess
 * runs the test function again in a child, where g_test_subprocess() is
 * true.  For SimGrid's one engine per process, and for what a test must
 * see on stderr or survive. */
#ifndef MMSIM_TESTS_SUBPROCESS_H
#define MMSIM_TESTS_SUBPROCESS_H

#include <glib.h>
#include <stdbool.h>

/* In the child, true: run the body.  In the parent, false, after the
 * child has run and passed, its stderr passed through. */
static inline bool in_subprocess(void)
{
	if (g_test_subprocess())
		return true;
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
	g_test_trap_assert_passed();
	return false;
}

/* In the parent: run the child, which must pass (passes) or fail, with
 * stderr matching the glob pattern. */
static inline void expect_subprocess(bool passes, const char *stderr_pattern)
{
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	if (passes)
		g_test_trap_assert_passed();
	else
		g_test_trap_assert_failed();
	g_test_trap_assert_stderr(stderr_pattern);
}

#endif
