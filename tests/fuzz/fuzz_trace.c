/* libFuzzer target: the trace readers of mmsim.replay (lua/trace.c).  The
 * input is written to a file and read as an strace capture and as a kmem
 * CSV, with skip_bad and without: each must return events or an error
 * naming a line, never crash or overflow (run under AddressSanitizer and
 * UndefinedBehaviorSanitizer). */
#include "sim/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char path[] = "/tmp/mmsim-fuzz-trace-XXXXXX";

static void read_both(bool skip_bad)
{
	struct trace_counts counts;
	char *err = NULL;
	GArray *ev = strace_read(path, skip_bad, &counts, &err);

	if (ev) {
		g_array_free(ev, TRUE);
		trace_counts_clear(&counts);
	}
	g_free(err);
	err = NULL;
	ev = kmem_read(path, skip_bad, &counts, &err);
	if (ev) {
		g_array_free(ev, TRUE);
		trace_counts_clear(&counts);
	}
	g_free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0) {
		fd = mkstemp(path);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	read_both(false);
	read_both(true);
	return 0;
}
