/* The results folder of a scenario run (see lresults.c). */
#ifndef MMSIM_LRESULTS_H
#define MMSIM_LRESULTS_H

#include "lua/scenario.h"
#include "sim/engine.h"

#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

struct lmachine;

/* Open the results folder (o->out, or results/SCENARIO-TIMESTAMP) before
 * the script runs, with a copy of the script in scenario/ (none with
 * o->list_params, which writes nothing).  LUA_OK, or an error message on
 * the stack. */
int lresults_begin(lua_State *L, const struct scenario_opts *o, const char *plot_format);
/* The module name (require's) the script loaded from path: a copy as
 * scenario/NAME.lua, the dots of NAME as folders. */
void lresults_keep_module(const char *name, const char *path);
/* After a run that failed before lresults_end: remove the folder if the
 * run created it (report_discard). */
void lresults_discard(void);
/* mmsim.time_compressed(on) */
int lresults_time_compressed(lua_State *L);
/* mmsim.headline_phase(name) */
int lresults_headline_phase(lua_State *L);
/* Start timeseries.csv and its sampler thread for the machine whose
 * engine just started. */
void lresults_start_sampling(struct lmachine *lm);
/* The simulated time the current m:run stops at (0: open-ended), for the
 * progress line. */
void lresults_set_target(uint64_t until_ns);
/* Start phase name (NULL: no phase) at at_ns (report_phase). */
void lresults_phase(struct lmachine *lm, const char *name, uint64_t at_ns);
/* The class figures at the start of the last span of phase name
 * (report_since_phase); false if there was none. */
bool lresults_since_phase(const char *name, enum lock_class_id cls, struct lock_stats *st,
			  double *waited, double *thread_time);
/* Register m:gb_yield(), m:memory_map(), m:snapshot_memory_map() and m:phase() in the
 * machine method table at stack index methods. */
void lresults_open(lua_State *L, int methods);
/* After the script: summary.json/csv, the kernel-format files, cpu_wait.csv
 * and the plots for machine lm (NULL if the script built none);
 * interrupted marks the summary of a run a signal stopped. */
int lresults_end(lua_State *L, struct lmachine *lm, bool interrupted);
/* mmsim.count_objects(n) */
int lresults_count_objects(lua_State *L);
/* The run's report, for the workload engines in C to count their objects
 * in (NULL outside a run). */
struct report *lresults_report(void);
/* mmsim.result(name, value) */
int lresults_record(lua_State *L);
/* mmsim.write_result_file(name, text) */
int lresults_write_file(lua_State *L);

#endif
