/* Running a scenario script: a Lua state with the mmsim module, a
 * sandboxed standard library, and errors reported as file:line. */
#ifndef MMSIM_SCENARIO_H
#define MMSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

struct scenario_opts {
	const char *path;
	uint64_t seed;
	bool check_invariants; /* check every machine when the script ends */
	char **defines;        /* -D KEY=VALUE overrides of mmsim.params, or NULL */
	const char *out;       /* results folder, or NULL for the default */
	bool list_params;      /* print the resolved parameters and stop at mmsim.params */
	const char *command;   /* the command line, for the summary (NULL: none) */
	bool keep_output;      /* copy stdout and stderr into the results folder */
	int argc;            /* arguments after the script, as the global `arg` */
	char **argv;
};

/* 0 on success; on error prints the message and traceback to stderr and
 * returns 1, removing the results folder if the run created it and failed
 * before writing its results.  SIGINT or SIGTERM stops the run at the threads' next
 * safepoints; the results folder is written, its summary marked
 * interrupted, and the return is 128 + the signal (130, 143). */
int scenario_run(const struct scenario_opts *o);

#endif
