/* mmsim: run a scenario script. */
#include "lua/lmmsimlib.h"
#include "lua/scenario.h"
#include "mmsim-version.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Host figures for benchmarks: wall time, CPU time (user and system; on
 * a shared machine the steadier of the two) and peak resident memory. */
static void print_host_stats(double wall_s)
{
	char *status = NULL, *hwm;
	long kib = -1;
	struct rusage ru;
	double cpu_s = -1;

	if (!getrusage(RUSAGE_SELF, &ru))
		cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;

	if (g_file_get_contents("/proc/self/status", &status, NULL, NULL) &&
	    (hwm = strstr(status, "VmHWM:")))
		kib = strtol(hwm + 6, NULL, 10);
	g_free(status);
	fprintf(stderr, "mmsim: wall %.2f s, cpu %.2f s, peak RSS %.1f MiB\n", wall_s, cpu_s,
		(double)kib / 1024);
}

/* argv as a shell command line, quoted where a word needs it, without
 * --out and its folder (the summary is in it; two runs of the same
 * command into two folders have the same summary) and with argv[0] as
 * "mmsim". */
static char *command_line(char **argv)
{
	GString *s = g_string_new("mmsim");
	bool options = true;

	for (char **a = argv + 1; *a; a++) {
		if (options && !strcmp(*a, "--")) {
			options = false;
		} else if (options && (!strcmp(*a, "--out") || !strcmp(*a, "-o"))) {
			a += !!a[1];
			continue;
		} else if (options && (g_str_has_prefix(*a, "--out=") ||
				       (g_str_has_prefix(*a, "-o") && (*a)[2]))) {
			continue;
		}
		g_string_append_c(s, ' ');
		if (**a && strspn(*a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789_-+=.,/:@%") == strlen(*a)) {
			g_string_append(s, *a);
		} else {
			char *q = g_shell_quote(*a);

			g_string_append(s, q);
			g_free(q);
		}
	}
	return g_string_free(s, FALSE);
}

int main(int argc, char **argv)
{
	gint64 seed = 1;
	gboolean version = FALSE, check = FALSE, host_stats = FALSE, params = FALSE, help = FALSE;
	gboolean machine_opts = FALSE;
	gchar **rest = NULL, **defines = NULL, *out = NULL;
	GError *error = NULL;
	GOptionEntry entries[] = {
		{ "seed", 's', 0, G_OPTION_ARG_INT64, &seed,
		  "Seed of every random generator of the run (default 1)", "N" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &defines,
		  "Set the scenario parameter KEY (see the scenario's mmsim.params)", "KEY=VALUE" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Write the results folder here (default results/SCENARIO-TIMESTAMP)", "DIR" },
		{ "check-invariants", 0, 0, G_OPTION_ARG_NONE, &check,
		  "Run the invariant checker on every machine when the scenario ends", NULL },
		{ "host-stats", 0, 0, G_OPTION_ARG_NONE, &host_stats,
		  "At the end, print the wall-clock time and peak memory of the run on stderr", NULL },
		{ "params", 0, 0, G_OPTION_ARG_NONE, &params,
		  "Print the scenario's parameters as resolved (KEY=VALUE) and stop there", NULL },
		{ "machine-options", 0, 0, G_OPTION_ARG_NONE, &machine_opts,
		  "Print the table of mmsim.machine{}'s options (docs/API.md's) and exit", NULL },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help, "Print this help and exit", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
		  "SCENARIO.lua [ARGS...]" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	/* The remaining entry's description is the usage line's tail. */
	GOptionContext *ctx = g_option_context_new(NULL);
	char *command = command_line(argv);
	int rc;

	g_option_context_set_summary(ctx, "Simulate the Linux page allocator on the machine a "
				     "scenario script builds.\nARGS go to the script (its "
				     "global `arg`).");
	g_option_context_set_description(ctx, "Every scenario takes -D plot_format=png|pdf|svg, "
					 "the plots' format.\nThe results folder holds "
					 "summary.json, the plots, a copy of the scenario, the "
					 "run's stdout and\nstderr: docs/GUIDE.md, \"What a run "
					 "produces\".\n");
	g_option_context_add_main_entries(ctx, entries, NULL);
	/* GLib's own --help converts its UTF-8 to the locale's charset, which
	 * mmsim leaves at C ("[OPTION?]"): printed here as it is. */
	g_option_context_set_help_enabled(ctx, FALSE);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "mmsim: %s\n", error->message);
		g_free(command);
		return 2;
	}
	if (help) {
		char *text = g_option_context_get_help(ctx, TRUE, NULL);

		fputs(text, stdout);
		g_free(text);
	}
	g_option_context_free(ctx);
	if (help) {
		g_free(command);
		return 0;
	}
	if (machine_opts) {
		GString *table = g_string_new(NULL);

		machine_options_doc(table);
		fputs(table->str, stdout);
		g_string_free(table, TRUE);
		g_free(command);
		return 0;
	}
	if (version) {
		printf("mmsim %s\n", MMSIM_VERSION);
		g_free(command);
		return 0;
	}
	/* The summary records the seed as given, and --seed must read it back. */
	if (seed < 0)
		fprintf(stderr, "mmsim: --seed %" G_GINT64_FORMAT ": expected 0 to %" G_GINT64_FORMAT
			"\n", seed, G_MAXINT64);
	else if (!rest || !rest[0])
		fprintf(stderr, "mmsim: no scenario given (usage: mmsim [OPTION...] SCENARIO.lua [ARGS...]; mmsim --help)\n");
	if (seed < 0 || !rest || !rest[0]) {
		g_strfreev(rest);
		g_strfreev(defines);
		g_free(out);
		g_free(command);
		return 2;
	}
	struct scenario_opts o = {
		.path = rest[0],
		.seed = (uint64_t)seed,
		.check_invariants = check,
		.defines = defines,
		.out = out,
		.list_params = params,
		.command = command,
		.keep_output = true,
		.argc = (int)g_strv_length(rest) - 1,
		.argv = rest + 1,
	};
	gint64 t0 = g_get_monotonic_time();
	rc = scenario_run(&o);
	if (host_stats)
		print_host_stats((double)(g_get_monotonic_time() - t0) / 1e6);
	g_strfreev(rest);
	g_strfreev(defines);
	g_free(out);
	g_free(command);
	return rc;
}
