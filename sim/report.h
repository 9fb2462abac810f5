/* The report of a run: its figures, read from the machine and the engine
 * through one table (report.c) that gives both timeseries.csv's columns
 * and summary.json's figures, and the rest of its results folder: the
 * kernel-format files, cpu_wait.csv, memory maps and plots. */
#ifndef MMSIM_REPORT_H
#define MMSIM_REPORT_H

#include "models/mmzone.h"
#include "sim/engine.h"
#include "sim/results.h"

#include <stdint.h>

struct report;

/* Open the results folder dir (NULL: a new results/SCENARIO-TIMESTAMP,
 * with a -N suffix if that exists) of the run of scenario with seed, whose
 * command line (summary.json's "command") was command; plot_format is png,
 * pdf or svg (NULL: png); keep_output: the process's stdout and stderr are
 * copied into the folder from now on (tee.h).  NULL and a g_malloc'ed *err
 * if the folder cannot be made. */
struct report *report_open(const char *scenario, uint64_t seed, const char *command,
			   const char *dir, const char *plot_format, bool keep_output, char **err);
/* Free rep after a run that failed before report_close, and remove its
 * folder if the run created it (results_discard). */
void report_discard(struct report *rep);
/* A copy of the file at path (a Lua source the run loaded) as
 * scenario/name in the folder; a failure fails the run at its end. */
void report_keep_source(struct report *rep, const char *name, const char *path);
/* The scenario's rates are compressed in time (far above a real
 * machine's): the machine's title (summary.json's machine.title, the
 * plots') says so. */
void report_set_time_compressed(struct report *rep, bool on);
/* The phase whose window gives the summary's headline figures (default
 * MEASURE_PHASE): a scenario whose steady state is not after a warm-up
 * (mass exit's exit) names its own. */
void report_set_window(struct report *rep, const char *phase);
/* The workload did n more of its objects (allocations of its own
 * allocator, requests...): throughput.objects in the summary. */
void report_count_objects(struct report *rep, uint64_t n);
/* The simulated time the current run stops at (0: open-ended), for the
 * progress line. */
void report_set_target(struct report *rep, uint64_t until_ns);
/* Start timeseries.csv: a row now and one every interval_ns of simulated
 * time, from a sampler thread of e, whose machine is m.  Only the first
 * call counts; interval_ns 0 samples nothing. */
void report_start_sampling(struct report *rep, struct machine *m, struct engine *e,
			   uint64_t interval_ns);
/* A file of the scenario's own in the folder, written atomically: 0, or
 * -1 and a g_malloc'ed *err naming the path and the error. */
int report_write_file(struct report *rep, const char *name, const char *data, size_t len,
		      char **err);
/* memmap-LABEL.dat and memory_map-LABEL.<format> now. */
void report_memory_map(struct report *rep, struct machine *m, struct engine *e,
		       const char *label);
/* Phases: from at_ns of simulated time, the run is in phase name until
 * the next call (name NULL: in no phase) or its end; the figures of
 * machine m and engine e (either may be NULL) are taken at each boundary.
 * They go to phases.csv (phase,start_ms,end_ms), are shaded on the lock
 * plot, and each name's spans together are a measurement window of the
 * summary (phases.NAME.*); the window of MEASURE_PHASE gives its headline
 * figures, the whole run's going under whole_run.*.  A name holds no '.'. */
#define MEASURE_PHASE "measure"
void report_phase(struct report *rep, struct machine *m, struct engine *e, const char *name,
		  uint64_t at_ns);
/* The class figures of the engine, its threads' waits and time for
 * shares (engine_thread_time) at the start of the last span of phase
 * name; false if there was none. */
bool report_since_phase(const struct report *rep, const char *name, enum lock_class_id cls,
			struct lock_stats *st, double *waited, double *thread_time);
/* End the run and free rep: the last row, summary.json/csv (with the
 * scenario's params.* and results.*, each a tree of its own), the
 * kernel-format files, phases.csv and the plots of machine m (NULL if the
 * script built none) and its engine e (NULL if it never ran); interrupted
 * adds "interrupted": true to the summary (a signal stopped the run).
 * gb_attempt (with an engine, not interrupted): after all that, take as
 * many 1 GiB pages as gb_yield_attempt gets on a thread of e and give them
 * back, adding gb_yield.obtained, .obtain_migrated and .obtain_time_s to
 * the summary (whose other figures and vmstat.* are from before).  0, or
 * -1 if a file could not be written (each was reported on stderr with its
 * path and the error). */
int report_close(struct report *rep, struct machine *m, struct engine *e,
		 const struct results_json *params, const struct results_json *results,
		 bool interrupted, bool gb_attempt);

#endif
