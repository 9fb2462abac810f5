/* Which plots a run draws.  A scenario names them on a line of its own,
 *   -- plots: lock_timeseries, gb_yield
 * (the names are the plots' file names; README, "What a run produces");
 * without that line a run draws all of them, memory_map_gib only for a
 * machine of more than 64 GiB.  spb_map is of policy spb only.  Either way a plot with
 * nothing to show (no lock contention, no sample) is left out. */
#ifndef MMSIM_PLOTS_H
#define MMSIM_PLOTS_H

#include <stdbool.h>

enum run_plot {
	PLOT_LOCK_TIMESERIES,
	PLOT_CPU_WAIT,
	PLOT_GB_YIELD,
	PLOT_MEMORY_MAP,
	PLOT_MEMORY_MAP_GIB,
	PLOT_SPB_MAP,
	PLOT_NUMA_MIGRATION,
	NR_RUN_PLOTS
};

/* The plots the scenario at path declares (a set of 1 << enum run_plot),
 * all of them if it has no "-- plots:" line or cannot be read (*declared
 * says which).  -1 and a
 * g_malloc'ed *err naming the plot and the known ones for an unknown name. */
int run_plots_declared(const char *path, unsigned *plots, bool *declared, char **err);

#endif
