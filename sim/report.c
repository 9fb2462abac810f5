/* The report of a run: see report.h. */
#include "sim/report.h"

#include "models/gbyield.h"
#include "models/machine.h"
#include "models/procfs.h"
#include "models/superpageblock.h"
#include "sim/lockstat.h"

#include <glib.h>
#include <string.h>

/* One lock class at a sample. */
struct lock_sample {
	struct lock_stats st;
	double wait_share;          /* of the threads' time, over the whole run */
};

/* What the figures read, gathered once per sample. */
struct run_sample {
	uint64_t now;               /* simulated ns; 0 without an engine */
	double wall_s;
	double thread_time;         /* engine_thread_time_ns */
	double interval_share;      /* zone->lock wait share since the last row */
	struct lock_sample lock[NR_LOCK_CLASSES];
	unsigned long managed_pages, free_pages, pcp_pages;
	struct gb_yield y;
	struct spb_counts spb;
};

/* What a figure needs to exist: a summary without a machine or without
 * an engine leaves out the figures they would give. */
enum figure_needs { NEEDS_RUN, NEEDS_MACHINE, NEEDS_ENGINE };

/* One figure of a run: its timeseries.csv column and its summary key
 * (NULL where it is not in that file), read by get from the sample, or
 * for a lock figure by lock from the sample of class cls. */
struct figure {
	const char *column;
	const char *key;
	enum figure_needs needs;
	bool count;                 /* an integer in the summary */
	double (*get)(const struct run_sample *s);
	double (*lock)(const struct lock_sample *l);
	enum lock_class_id cls;
};

static double time_ms(const struct run_sample *s) { return (double)s->now / 1e6; }
static double sim_time_s(const struct run_sample *s) { return (double)s->now / 1e9; }
static double wall_time_s(const struct run_sample *s) { return s->wall_s; }
static double interval_share(const struct run_sample *s) { return s->interval_share; }
static double managed_pages(const struct run_sample *s) { return (double)s->managed_pages; }
static double free_pages(const struct run_sample *s) { return (double)s->free_pages; }
static double pcp_pages(const struct run_sample *s) { return (double)s->pcp_pages; }
static double gb_free_now(const struct run_sample *s) { return (double)s->y.free_now; }
static double gb_movable_only(const struct run_sample *s) { return (double)s->y.movable_only; }
static double gb_obtainable(const struct run_sample *s) { return (double)s->y.movable_obtainable; }
static double gb_total_regions(const struct run_sample *s) { return (double)s->y.total_regions; }
static double spb_empty(const struct run_sample *s) { return (double)s->spb.empty; }
static double spb_clean(const struct run_sample *s) { return (double)s->spb.clean; }
static double spb_tainted(const struct run_sample *s) { return (double)s->spb.tainted; }
static double acquisitions(const struct lock_sample *l) { return (double)l->st.hold.nr; }
static double contentions(const struct lock_sample *l) { return (double)l->st.wait.nr; }
static double con_bounces(const struct lock_sample *l) { return (double)l->st.con_bounces; }
static double acq_bounces(const struct lock_sample *l) { return (double)l->st.acq_bounces; }
static double wait_total(const struct lock_sample *l) { return (double)l->st.wait.total; }
static double wait_max(const struct lock_sample *l) { return (double)l->st.wait.max; }
static double hold_total(const struct lock_sample *l) { return (double)l->st.hold.total; }
static double hold_max(const struct lock_sample *l) { return (double)l->st.hold.max; }
static double wait_share(const struct lock_sample *l) { return l->wait_share; }

#define RUN(column, key, fn) { column, key, NEEDS_RUN, false, .get = fn }
#define MACHINE(column, key, fn) { column, key, NEEDS_MACHINE, true, .get = fn }
#define LOCK(cls_, column, key, count_, fn) \
	{ column, key, NEEDS_ENGINE, count_, .lock = fn, .cls = cls_ }
#define ZONE(column, key, fn) LOCK(LOCK_CLASS_ZONE, column, "zone_lock." key, true, fn)
#define PCP(column, key, fn) LOCK(LOCK_CLASS_PCP, column, "pcp_lock." key, true, fn)

/* In the order of both files: timeseries.csv's columns, and the summary's
 * keys after machine.* (README: "What a run produces"). */
static const struct figure figures[] = {
	RUN("time_ms", NULL, time_ms),
	RUN(NULL, "sim_time_s", sim_time_s),
	RUN(NULL, "wall_time_s", wall_time_s),
	ZONE("zone_lock_acquisitions", "acquisitions", acquisitions),
	ZONE("zone_lock_contentions", "contentions", contentions),
	ZONE(NULL, "con_bounces", con_bounces),
	ZONE(NULL, "acq_bounces", acq_bounces),
	ZONE("zone_lock_wait_ns", "wait_ns_total", wait_total),
	ZONE(NULL, "wait_ns_max", wait_max),
	ZONE("zone_lock_hold_ns", "hold_ns_total", hold_total),
	ZONE(NULL, "hold_ns_max", hold_max),
	LOCK(LOCK_CLASS_ZONE, NULL, "zone_lock.wait_share", false, wait_share),
	{ "zone_lock_wait_share", NULL, NEEDS_ENGINE, false, .get = interval_share },
	PCP("pcp_lock_acquisitions", "acquisitions", acquisitions),
	PCP("pcp_lock_contentions", "contentions", contentions),
	PCP(NULL, "con_bounces", con_bounces),
	PCP(NULL, "acq_bounces", acq_bounces),
	PCP(NULL, "wait_ns_total", wait_total),
	PCP(NULL, "wait_ns_max", wait_max),
	PCP(NULL, "hold_ns_total", hold_total),
	PCP(NULL, "hold_ns_max", hold_max),
	LOCK(LOCK_CLASS_PCP, NULL, "pcp_lock.wait_share", false, wait_share),
	MACHINE(NULL, "memory.managed_pages", managed_pages),
	MACHINE("free_pages", "memory.free_pages", free_pages),
	MACHINE("pcp_pages", "memory.pcp_pages", pcp_pages),
	MACHINE("gb_free_now", "gb_yield.free_now", gb_free_now),
	MACHINE("gb_movable_only", "gb_yield.movable_only", gb_movable_only),
	MACHINE("gb_movable_obtainable", "gb_yield.movable_obtainable", gb_obtainable),
	MACHINE(NULL, "gb_yield.total_regions", gb_total_regions),
	MACHINE("spb_empty", "gb_yield.spb_empty", spb_empty),
	MACHINE("spb_clean", "gb_yield.spb_clean", spb_clean),
	MACHINE("spb_tainted", "gb_yield.spb_tainted", spb_tainted),
};

static double figure_value(const struct figure *f, const struct run_sample *s)
{
	return f->lock ? f->lock(&s->lock[f->cls]) : f->get(s);
}

/* A named span of simulated time (report_phase). */
struct phase {
	char *name;
	uint64_t start, end;
	bool open;
};

/* One run per process: SimGrid runs one simulation per process. */
struct report {
	struct results *r;
	struct results_ts *ts;
	char *scenario;
	uint64_t seed;
	char *plot_format;
	gint64 wall_start;
	struct progress progress;
	uint64_t target_ns;          /* end of the current run, 0 if open-ended */
	/* The sampled machine, and its zone->lock wait and threads' time at
	 * the last row. */
	struct machine *m;
	struct engine *e;
	uint64_t interval_ns;
	uint64_t last_row_ns;
	double last_wait, last_time;
	GArray *phases;              /* struct phase, in the order they began */
};

static double wall_seconds(const struct report *rep)
{
	return (double)(g_get_monotonic_time() - rep->wall_start) / 1e6;
}

/* Files of the run's folder that could not be written (one run per
 * process): any makes the run fail at its end. */
static unsigned write_failures;

static void write_failed(char *err)
{
	g_printerr("mmsim: error: %s\n", err);
	g_free(err);
	write_failures++;
}

/* A plot results_plot could not make (it said why). */
static void plot_done(bool ok)
{
	write_failures += !ok;
}

/* The figures of machine m and engine e (either may be NULL) now. */
static void sample(const struct report *rep, struct machine *m, struct engine *e,
		   struct run_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->wall_s = wall_seconds(rep);
	if (e) {
		s->now = engine_clock(e);
		s->thread_time = engine_thread_time_ns(e);
		for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
			engine_class_stats(e, c, &s->lock[c].st);
			s->lock[c].wait_share = engine_wait_share(e, c);
		}
		/* The share of thread time spent waiting during this interval. */
		if (s->thread_time > rep->last_time)
			s->interval_share =
				((double)s->lock[LOCK_CLASS_ZONE].st.wait.total - rep->last_wait) /
				(s->thread_time - rep->last_time);
	}
	if (m) {
		s->managed_pages = machine_managed_pages(m);
		s->free_pages = machine_free_pages(m);
		s->pcp_pages = machine_pcp_pages(m);
		gb_yield(m, &s->y);
		spb_count_states(m, &s->spb);
	}
}

static void write_row(struct report *rep, const struct run_sample *s)
{
	double values[G_N_ELEMENTS(figures)];
	unsigned n = 0;
	char *err = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++)
		if (figures[i].column)
			values[n++] = figure_value(&figures[i], s);
	rep->last_wait = (double)s->lock[LOCK_CLASS_ZONE].st.wait.total;
	rep->last_time = s->thread_time;
	rep->last_row_ns = s->now;
	if (results_ts_row(rep->ts, values, &err))
		write_failed(err);
}

static void sampler(struct mm_ctx *ctx, void *arg)
{
	struct report *rep = arg;
	struct run_sample s;

	for (;;) {
		engine_sleep(ctx, rep->interval_ns);
		engine_settle(ctx);
		sample(rep, rep->m, rep->e, &s);
		write_row(rep, &s);
		progress_update(&rep->progress, s.now, rep->target_ns, s.wall_s);
	}
}

struct report *report_open(const char *scenario, uint64_t seed, const char *dir,
			   const char *plot_format, char **err)
{
	char *path = dir ? g_strdup(dir) : results_default_dir(scenario, NULL);
	struct results *r = dir ? results_open(path, err) : results_open_new(path, err);
	struct report *rep;

	g_free(path);
	if (!r)
		return NULL;
	rep = g_new0(struct report, 1);
	rep->r = r;
	rep->scenario = g_strdup(scenario);
	rep->seed = seed;
	rep->plot_format = g_strdup(plot_format ? plot_format : "png");
	rep->wall_start = g_get_monotonic_time();
	rep->phases = g_array_new(FALSE, FALSE, sizeof(struct phase));
	progress_init(&rep->progress);
	return rep;
}

static void end_phase(struct report *rep, uint64_t at_ns)
{
	struct phase *last;

	if (!rep->phases->len)
		return;
	last = &g_array_index(rep->phases, struct phase, rep->phases->len - 1);
	if (last->open) {
		last->end = at_ns;
		last->open = false;
	}
}

void report_phase(struct report *rep, const char *name, uint64_t at_ns)
{
	end_phase(rep, at_ns);
	if (name) {
		struct phase p = { g_strdup(name), at_ns, at_ns, true };

		g_array_append_val(rep->phases, p);
	}
}

void report_set_target(struct report *rep, uint64_t until_ns)
{
	rep->target_ns = until_ns;
}

void report_start_sampling(struct report *rep, struct machine *m, struct engine *e,
			   uint64_t interval_ns)
{
	const char *columns[G_N_ELEMENTS(figures) + 1];
	unsigned n = 0;
	char *err = NULL;
	struct run_sample s;

	if (rep->ts || !interval_ns)
		return;
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++)
		if (figures[i].column)
			columns[n++] = figures[i].column;
	columns[n] = NULL;
	rep->ts = results_ts_open(rep->r, "timeseries.csv", columns, &err);
	if (!rep->ts) {
		write_failed(err);
		return;
	}
	rep->m = m;
	rep->e = e;
	rep->interval_ns = interval_ns;
	sample(rep, m, e, &s);
	write_row(rep, &s);
	engine_spawn_observer(e, "sampler", sampler, rep);
}

static void write_file(const struct report *rep, const char *name, GString *s)
{
	char *err = NULL;

	if (results_write(rep->r, name, s->str, s->len, &err))
		write_failed(err);
	g_string_truncate(s, 0);
}

int report_write_file(struct report *rep, const char *name, const char *data, size_t len,
		      char **err)
{
	return results_write(rep->r, name, data, len, err);
}

/* phases.csv, the phases' times in ms to the ns; false if there is none. */
static bool write_phases(const struct report *rep)
{
	GString *s;

	if (!rep->phases->len)
		return false;
	s = g_string_new("phase,start_ms,end_ms\n");
	for (guint i = 0; i < rep->phases->len; i++) {
		const struct phase *p = &g_array_index(rep->phases, struct phase, i);

		g_string_append_printf(s, "%s,%.6f,%.6f\n", p->name, (double)p->start / 1e6,
				       (double)p->end / 1e6);
	}
	write_file(rep, "phases.csv", s);
	g_string_free(s, TRUE);
	return true;
}

/* The run's plot title: scenario, policy, machine; then more. */
static char *plot_title(const struct report *rep, const struct machine *m, const char *more)
{
	char *base = g_path_get_basename(rep->scenario);
	char *title = g_strdup_printf("%s, %s, %s (%u CPUs)%s", base, mm_policy_names[m->policy],
				      m->topo.name, m->nr_cpus, more ? more : "");

	g_free(base);
	return title;
}

/* memmap[-label].dat and its memory_map[-label] plot (plots/memory_map.gp)
 * at simulated time now, whose 1GB yield is y. */
static void write_memory_map(const struct report *rep, struct machine *m, uint64_t now,
			     const struct gb_yield *y, const char *label)
{
	unsigned long n[NR_PB_CLASSES] = { 0 };
	GString *s = g_string_new(NULL), *tics = g_string_new(NULL);
	char *dat = label ? g_strdup_printf("memmap-%s.dat", label) : g_strdup("memmap.dat");
	char *png = label ? g_strdup_printf("memory_map-%s", label) : g_strdup("memory_map");
	char *when = g_strdup_printf(": %s, t = %g ms", label ? label : "end", (double)now / 1e6);
	char *title = plot_title(rep, m, when);

	gb_memory_map_matrix(m, s, n);
	write_file(rep, dat, s);
	g_string_printf(s, "1 GiB regions: %lu free now, %lu movable-only, %lu obtainable, of %lu",
			y->free_now, y->movable_only, y->movable_obtainable, y->total_regions);
	char *counts = g_strdup_printf("%lu %lu %lu %lu %lu", n[PB_CLASS_FREE], n[PB_CLASS_MOVABLE],
				       n[PB_CLASS_RECLAIMABLE], n[PB_CLASS_UNMOVABLE],
				       n[PB_CLASS_MIXED]);
	gb_memory_map_tics(m, tics);
	plot_done(results_plot_as(rep->r, "memory_map", dat, png, rep->plot_format, title,
				  (const char *const[]){ "ytics_zones", tics->str, "subtitle", s->str,
							 "class_counts", counts, NULL }));
	g_free(counts);
	g_free(title);
	g_free(when);
	g_free(png);
	g_free(dat);
	g_string_free(tics, TRUE);
	g_string_free(s, TRUE);
}

void report_memory_map(struct report *rep, struct machine *m, struct engine *e,
		       const char *label)
{
	struct gb_yield y;

	gb_yield(m, &y);
	write_memory_map(rep, m, e ? engine_clock(e) : 0, &y, label);
}

/* vmstat.* from /proc/vmstat's text. */
static void set_vmstat(struct results_json *j, struct machine *m)
{
	GString *s = g_string_new(NULL);
	char **lines;

	proc_vmstat(m, s);
	lines = g_strsplit(s->str, "\n", -1);
	for (char **l = lines; *l && **l; l++) {
		char *sp = strchr(*l, ' ');
		char *key;

		if (!sp)
			continue;
		*sp = '\0';
		key = g_strdup_printf("vmstat.%s", *l);
		results_json_set_uint(j, key, g_ascii_strtoull(sp + 1, NULL, 10));
		g_free(key);
	}
	g_strfreev(lines);
	g_string_free(s, TRUE);
}

static void write_summary(const struct report *rep, struct machine *m,
			  enum figure_needs have, const struct run_sample *s,
			  const struct results_json *params, const struct results_json *results,
			  bool interrupted)
{
	struct results_json *j = results_json_new();
	char *err = NULL;

	results_json_set_string(j, "version", PACKAGE_VERSION);
	results_json_set_string(j, "scenario", rep->scenario);
	results_json_set_uint(j, "seed", rep->seed);
	/* Only then: sim_time_s says where the run stopped. */
	if (interrupted)
		results_json_set_bool(j, "interrupted", true);
	results_json_set_tree(j, "params", params);
	if (m) {
		results_json_set_string(j, "machine.name", m->topo.name);
		results_json_set_string(j, "machine.policy", mm_policy_names[m->policy]);
		results_json_set_uint(j, "machine.nodes", m->nr_nodes);
		results_json_set_uint(j, "machine.cpus", m->nr_cpus);
		results_json_set_uint(j, "machine.memory_mib", topology_total_mem(&m->topo) >> 20);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++) {
		const struct figure *f = &figures[i];
		double v;

		if (!f->key || f->needs > have)
			continue;
		v = figure_value(f, s);
		if (f->count)
			results_json_set_uint(j, f->key, (uint64_t)v);
		else
			results_json_set_double(j, f->key, v);
	}
	results_json_set_tree(j, "results", results);
	if (m)
		set_vmstat(j, m);
	if (results_write_summary(rep->r, j, &err))
		write_failed(err);
	results_json_free(j);
}

/* The kernel's files and the memory map of machine m at the end. */
static void write_machine_files(const struct report *rep, struct machine *m,
				const struct run_sample *s)
{
	GString *out = g_string_new(NULL);

	proc_vmstat(m, out);
	write_file(rep, "vmstat", out);
	proc_buddyinfo(m, out);
	write_file(rep, "buddyinfo", out);
	proc_pagetypeinfo(m, out);
	write_file(rep, "pagetypeinfo", out);
	proc_zoneinfo(m, out);
	write_file(rep, "zoneinfo", out);
	g_string_free(out, TRUE);
	write_memory_map(rep, m, s->now, &s->y, NULL);
}

/* lock_stat, cpu_wait.csv and the plots of a run that had an engine;
 * the lock plot shades the phases if phases.csv was written. */
static void write_engine_files(const struct report *rep, const struct machine *m,
			       const struct engine *e, const struct run_sample *s, bool phases)
{
	GString *out = g_string_new(NULL);
	char *total = g_strdup_printf("%lu", s->y.total_regions);
	char *title = plot_title(rep, m, NULL);
	char *phasefile = g_build_filename(results_dir(rep->r), "phases.csv", NULL);

	lockstat_print(e, out);
	write_file(rep, "lock_stat", out);
	g_string_append(out, "cpu,zone_wait_ns,pcp_wait_ns\n");
	for (unsigned cpu = 0; cpu < m->nr_cpus; cpu++)
		g_string_append_printf(out, "%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n", cpu,
				       engine_cpu_wait_ns(e, cpu, LOCK_CLASS_ZONE),
				       engine_cpu_wait_ns(e, cpu, LOCK_CLASS_PCP));
	write_file(rep, "cpu_wait.csv", out);
	plot_done(results_plot(rep->r, "lock_timeseries", "timeseries.csv", rep->plot_format,
			       title, phases ? (const char *const[]){ "phasefile", phasefile, NULL } :
			       NULL));
	plot_done(results_plot(rep->r, "cpu_wait", "cpu_wait.csv", rep->plot_format, title,
			       NULL));
	plot_done(results_plot(rep->r, "gb_yield", "timeseries.csv", rep->plot_format, title,
			       (const char *const[]){ "total_regions", total, NULL }));
	g_free(phasefile);
	g_free(title);
	g_free(total);
	g_string_free(out, TRUE);
}

int report_close(struct report *rep, struct machine *m, struct engine *e,
		 const struct results_json *params, const struct results_json *results,
		 bool interrupted)
{
	enum figure_needs have = e ? NEEDS_ENGINE : m ? NEEDS_MACHINE : NEEDS_RUN;
	struct run_sample s;
	bool phases;

	progress_done(&rep->progress);
	sample(rep, m, e, &s);
	end_phase(rep, s.now);
	phases = write_phases(rep);
	if (e && rep->ts && s.now > rep->last_row_ns)
		write_row(rep, &s);
	write_summary(rep, m, have, &s, params, results, interrupted);
	if (m)
		write_machine_files(rep, m, &s);
	results_ts_close(rep->ts);
	if (e)
		write_engine_files(rep, m, e, &s, phases);
	g_printerr("mmsim: results in %s\n", results_dir(rep->r));
	results_close(rep->r);
	for (guint i = 0; i < rep->phases->len; i++)
		g_free(g_array_index(rep->phases, struct phase, i).name);
	g_array_free(rep->phases, TRUE);
	g_free(rep->plot_format);
	g_free(rep->scenario);
	g_free(rep);
	return write_failures ? -1 : 0;
}
