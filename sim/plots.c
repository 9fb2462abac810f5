/* The plots a scenario declares: see plots.h. */
#include "sim/plots.h"

#include <glib.h>
#include <string.h>

static const char *const names[NR_RUN_PLOTS] = {
	[PLOT_LOCK_TIMESERIES] = "lock_timeseries",
	[PLOT_CPU_WAIT] = "cpu_wait",
	[PLOT_GB_YIELD] = "gb_yield",
	[PLOT_MEMORY_MAP] = "memory_map",
	[PLOT_MEMORY_MAP_GIB] = "memory_map_gib",
	[PLOT_SPB_MAP] = "spb_map",
	[PLOT_NUMA_MIGRATION] = "numa_migration",
};

static int parse(const char *list, unsigned *plots, char **err)
{
	char **words = g_strsplit_set(list, ", \t", -1);
	int ret = 0;

	*plots = 0;
	for (char **w = words; *w && !ret; w++) {
		unsigned i = 0;

		if (!**w)
			continue;
		while (i < NR_RUN_PLOTS && strcmp(*w, names[i]))
			i++;
		if (i < NR_RUN_PLOTS) {
			*plots |= 1u << i;
			continue;
		}
		GString *known = g_string_new(NULL);

		for (unsigned k = 0; k < NR_RUN_PLOTS; k++)
			g_string_append_printf(known, "%s%s", k ? ", " : "", names[k]);
		*err = g_strdup_printf("'-- plots:' names an unknown plot '%s' (known: %s)", *w,
				       known->str);
		g_string_free(known, TRUE);
		ret = -1;
	}
	g_strfreev(words);
	return ret;
}

int run_plots_declared(const char *path, unsigned *plots, bool *declared, char **err)
{
	char *text = NULL;
	int ret = 0;

	*plots = (1u << NR_RUN_PLOTS) - 1;
	*declared = false;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	for (char *line = text; line && *line; ) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		if (g_str_has_prefix(line, "-- plots:")) {
			ret = parse(line + strlen("-- plots:"), plots, err);
			*declared = true;
			break;
		}
		line = end ? end + 1 : NULL;
	}
	g_free(text);
	if (ret) {
		char *msg = g_strdup_printf("%s: %s", path, *err);

		g_free(*err);
		*err = msg;
	}
	return ret;
}
