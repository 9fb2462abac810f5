/* The results folder of a run (README, "What a run produces"): whole files written
 * atomically, a time series CSV appended as the run goes, a JSON summary
 * with its one-line CSV twin, gnuplot plots, and a progress line.
 *
 * Numbers in CSV files (timeseries.csv, summary.csv):
 *   - integers (int64, uint64) in decimal;
 *   - doubles as the shortest of %.15g, %.16g, %.17g that reads back as
 *     the same double (C locale: "0.1", "3", "1e+20", "2.5e-07"), so they
 *     are exact and identical from run to run;
 *   - a non-finite double is an empty field.
 * CSV fields holding a comma, a double quote, a line break or a leading
 * or trailing space are double-quoted with "" for a quote (RFC 4180).
 * summary.json is json-glib's: integers in decimal, doubles with 17
 * significant digits (0.1 is 0.10000000000000001: the same double), a
 * non-finite double as null. */
#ifndef MMSIM_RESULTS_H
#define MMSIM_RESULTS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the folder ---- */

struct results;

/* "results/<scenario basename without .lua>-<UTC YYYYmmddTHHMMSSZ>" for
 * the time when (NULL: now).  g_free the result. */
char *results_default_dir(const char *scenario_path, GDateTime *when);

/* Create dir and its parents if needed (an existing folder is reused and
 * its files overwritten).  NULL and a g_malloc'ed *err if it cannot, or
 * if the folder is not writable. */
struct results *results_open(const char *dir, char **err);
/* The same, but a new folder: dir, or if it exists dir-2, dir-3, ... */
struct results *results_open_new(const char *dir, char **err);
const char *results_dir(const struct results *r);
void results_close(struct results *r);
/* Close r after a run that failed: its folder and all in it are removed
 * if results_open or results_open_new created it; a folder that existed
 * (a sweep's run's, holding the run's stderr) is left. */
void results_discard(struct results *r);

/* write(2) all of buf to fd, through partial writes and signals: 0, or -1
 * with errno. */
int results_write_all(int fd, const char *buf, size_t len);

/* Whether name is one of the run's own files (summary, the kernel's files,
 * plots and their data, the scenario's copies): one list for both sides,
 * since the run writes no other name (results_write and the plots abort on
 * one missing from it) and a scenario may write none of them. */
bool results_own_name(const char *name);

/* Write dir/name, one of the run's own files, whole: to name.tmp, then
 * rename, so a reader sees the old file or the new one, never half of one;
 * name may be in a subfolder ("scenario/x.lua"), created if needed.  -1
 * and *err on failure. */
int results_write(const struct results *r, const char *name, const char *data, size_t len,
		  char **err);
/* The same for a file the scenario names: -1 and *err also for a name of
 * the run's own files. */
int results_write_user(const struct results *r, const char *name, const char *data,
		       size_t len, char **err);

/* ---- timeseries.csv: one row per sample, each row on disk when written ---- */

struct results_ts;

/* Create (truncate) dir/name and write the header: the NULL-terminated
 * column names.  NULL and *err on failure. */
struct results_ts *results_ts_open(const struct results *r, const char *name,
				   const char *const *columns, char **err);
/* Append one row of as many values as there are columns, with one
 * write(2), flushed: an interrupted run keeps every complete row.  An
 * integral value prints as an integer (exact below 2^53).  -1 and *err
 * on failure. */
int results_ts_row(struct results_ts *ts, const double *values, char **err);
void results_ts_close(struct results_ts *ts);

/* ---- JSON summary ---- */

struct results_json;

struct results_json *results_json_new(void);
void results_json_free(struct results_json *j);

/* Set a value by dotted key: "zone_lock.acquisitions" creates the object
 * "zone_lock" if needed.  Members keep the order in which they were first
 * set; setting a key again replaces its value in place.  false (and
 * nothing changed) if the key is empty, has an empty component, or goes
 * through a value or ends on an object.  Integers are signed 64-bit (a
 * uint above G_MAXINT64 is kept as the nearest double); strings are
 * UTF-8, invalid sequences replaced by U+FFFD. */
bool results_json_set_int(struct results_json *j, const char *key, int64_t v);
bool results_json_set_uint(struct results_json *j, const char *key, uint64_t v);
bool results_json_set_double(struct results_json *j, const char *key, double v);
bool results_json_set_string(struct results_json *j, const char *key, const char *v);
bool results_json_set_bool(struct results_json *j, const char *key, bool v);
/* Copy every member of from into the object at key, created if needed
 * (nothing if from is empty).  false (and nothing changed) as above, or
 * if key holds a value. */
bool results_json_set_tree(struct results_json *j, const char *key,
			   const struct results_json *from);

/* Append the tree pretty-printed by json-glib (2-space indent, "key" :
 * value, trailing newline).  json-glib 1.6 does not escape U+001F. */
void results_json_print(const struct results_json *j, GString *out);
/* Append the flat CSV form: a header line of the dotted keys of every
 * value in document order, then one line of values (strings unquoted
 * unless CSV needs it; booleans true/false). */
void results_json_print_csv(const struct results_json *j, GString *out);

/* Write summary.json and summary.csv atomically.  -1 and *err on failure. */
int results_write_summary(const struct results *r, const struct results_json *j, char **err);

/* ---- plots ---- */

/* A folder of mmsim's own files: $env if set, else the source tree's
 * (source) while it exists, else the installed copy (installed). */
const char *results_data_dir(const char *env, const char *source, const char *installed);
/* The gnuplot scripts: results_data_dir of $MMSIM_PLOTSDIR and plots/. */
const char *results_plots_dir(void);
/* "png", "pdf" or "svg". */
bool results_plot_format_valid(const char *format);

/* Run gnuplot (found on PATH) on <plots dir>/<script>.gp, reading
 * dir/input and writing dir/<script>.<format>; format NULL means png.
 * The script gets the gnuplot string variables datafile, outfile, term
 * (the format) and plot_title, plus the NULL-terminated name, value pairs
 * of extra (may be NULL).  gnuplot writes a temporary name, renamed once
 * the plot is whole (a PNG's IEND chunk, a PDF's %%EOF, an SVG's </svg>).
 * A failure is a warning on stderr with gnuplot's own messages, and
 * false. */
bool results_plot(const struct results *r, const char *script, const char *input,
		  const char *format, const char *title, const char *const *extra);
/* The same writing dir/<output>.<format>, for several plots of one script
 * (memory_map-<label>.png). */
bool results_plot_as(const struct results *r, const char *script, const char *input,
		     const char *output, const char *format, const char *title,
		     const char *const *extra);

/* ---- progress line on a terminal ---- */

struct progress {
	int fd;                 /* stderr, the terminal's when it is copied (tee.h) */
	bool tty;               /* that is a terminal */
	double last_wall;       /* wall seconds of the last line printed */
	size_t last_len;        /* its length, to blank what a shorter line leaves */
};

void progress_init(struct progress *p);
/* "\r[mmsim] sim 12.5 ms / 20 ms  wall 3.1 s  eta 1.9 s" on stderr, at
 * most 4 times a second, once the run has taken 2 s of wall time, and only
 * if stderr is a terminal.  target_ns 0: unknown (no total, no eta). */
void progress_update(struct progress *p, uint64_t sim_ns, uint64_t target_ns, double wall_s);
/* End the line if one was printed. */
void progress_done(struct progress *p);
/* The text of the line, without "\r" (for tests). */
void progress_format(GString *out, uint64_t sim_ns, uint64_t target_ns, double wall_s);

#endif
