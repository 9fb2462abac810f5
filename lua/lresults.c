/* The results folder of a scenario run: the time series sampled as the run
 * goes, and at the end summary.json, the kernel-format files and the
 * plots (DESIGN.md section 5). */
#include "lresults.h"
#include "lmachine.h"
#include "lparams.h"

#include "models/gbyield.h"
#include "models/machine.h"
#include "models/pbstat.h"
#include "models/procfs.h"
#include "models/superpageblock.h"
#include "sim/lockstat.h"
#include "sim/results.h"

#include <glib.h>
#include <lauxlib.h>
#include <string.h>

static const char *const ts_columns[] = {
	"time_ms", "zone_lock_acquisitions", "zone_lock_contentions", "zone_lock_wait_ns",
	"zone_lock_hold_ns", "zone_lock_wait_share", "pcp_lock_acquisitions",
	"pcp_lock_contentions", "free_pages", "pcp_pages", "gb_free_now", "gb_movable_only",
	"gb_movable_obtainable", "spb_empty", "spb_clean", "spb_tainted", NULL,
};

/* One run per process: SimGrid runs one simulation per process. */
static struct {
	struct results *r;
	struct results_ts *ts;
	const char *scenario;
	uint64_t seed;
	char *plot_format;
	gint64 wall_start;
	struct progress progress;
	uint64_t target_ns;          /* end of the current m:run, 0 if open-ended */
	uint64_t last_row_ns;
	double last_wait, last_time; /* zone->lock wait and thread time at the last row */
} run;

int lresults_begin(lua_State *L, const char *scenario, uint64_t seed, const char *out,
		   const char *plot_format)
{
	char *dir = out ? g_strdup(out) : results_default_dir(scenario, NULL);
	char *err = NULL;

	if (plot_format && !results_plot_format_valid(plot_format)) {
		lua_pushfstring(L, "-D plot_format=%s: expected png, pdf or svg", plot_format);
		g_free(dir);
		return LUA_ERRRUN;
	}
	run.r = results_open(dir, &err);
	g_free(dir);
	if (!run.r) {
		lua_pushstring(L, err);
		g_free(err);
		return LUA_ERRRUN;
	}
	run.scenario = scenario;
	run.seed = seed;
	run.plot_format = g_strdup(plot_format ? plot_format : "png");
	run.wall_start = g_get_monotonic_time();
	progress_init(&run.progress);
	return LUA_OK;
}

void lresults_set_target(uint64_t until_ns)
{
	run.target_ns = until_ns;
}

static void write_row(struct lmachine *lm)
{
	struct lock_stats z, p;
	struct gb_yield y;
	double values[G_N_ELEMENTS(ts_columns) - 1];
	char *err = NULL;
	uint64_t now = engine_clock(lm->e);
	double time = engine_thread_time_ns(lm->e);

	if (!run.ts)
		return;
	engine_class_stats(lm->e, LOCK_CLASS_ZONE, &z);
	engine_class_stats(lm->e, LOCK_CLASS_PCP, &p);
	values[0] = (double)now / 1e6;
	values[1] = (double)z.hold.nr;
	values[2] = (double)z.wait.nr;
	values[3] = (double)z.wait.total;
	values[4] = (double)z.hold.total;
	/* The share of thread time spent waiting during this interval. */
	values[5] = time > run.last_time ? ((double)z.wait.total - run.last_wait) /
					   (time - run.last_time) : 0;
	values[6] = (double)p.hold.nr;
	values[7] = (double)p.wait.nr;
	values[8] = (double)machine_free_pages(lm->m);
	values[9] = (double)machine_pcp_pages(lm->m);
	gb_yield(lm->m, &y);
	values[10] = (double)y.free_now;
	values[11] = (double)y.movable_only;
	values[12] = (double)y.movable_obtainable;
	struct spb_counts sc;
	spb_count_states(lm->m, &sc);
	values[13] = (double)sc.empty;
	values[14] = (double)sc.clean;
	values[15] = (double)sc.tainted;
	run.last_wait = (double)z.wait.total;
	run.last_time = time;
	run.last_row_ns = now;
	if (results_ts_row(run.ts, values, &err)) {
		g_printerr("mmsim: warning: %s\n", err);
		g_free(err);
	}
}

static void sampler(struct mm_ctx *ctx, void *arg)
{
	struct lmachine *lm = arg;

	for (;;) {
		engine_sleep(ctx, lm->sample_interval);
		engine_settle(ctx);
		write_row(lm);
		progress_update(&run.progress, engine_clock(lm->e), run.target_ns,
				(double)(g_get_monotonic_time() - run.wall_start) / 1e6);
	}
}

void lresults_start_sampling(struct lmachine *lm)
{
	char *err = NULL;

	if (!run.r || run.ts || !lm->sample_interval)
		return;
	run.ts = results_ts_open(run.r, "timeseries.csv", ts_columns, &err);
	if (!run.ts) {
		g_printerr("mmsim: warning: %s\n", err);
		g_free(err);
		return;
	}
	write_row(lm);
	engine_spawn_daemon(lm->e, 0, "sampler", sampler, lm);
}

static void write_file(const char *name, GString *s)
{
	char *err = NULL;

	if (results_write(run.r, name, s->str, s->len, &err)) {
		g_printerr("mmsim: warning: %s\n", err);
		g_free(err);
	}
	g_string_truncate(s, 0);
}

static void set_lock_class(struct results_json *j, const struct engine *e, const char *prefix,
			   enum lock_class_id cls)
{
	struct lock_stats st;
	struct { const char *key; uint64_t v; } f[9];
	unsigned n = 0;

	engine_class_stats(e, cls, &st);
	f[n++] = (typeof(f[0])){ "acquisitions", st.hold.nr };
	f[n++] = (typeof(f[0])){ "contentions", st.wait.nr };
	f[n++] = (typeof(f[0])){ "con_bounces", st.con_bounces };
	f[n++] = (typeof(f[0])){ "acq_bounces", st.acq_bounces };
	f[n++] = (typeof(f[0])){ "wait_ns_total", st.wait.total };
	f[n++] = (typeof(f[0])){ "wait_ns_max", st.wait.max };
	f[n++] = (typeof(f[0])){ "hold_ns_total", st.hold.total };
	f[n++] = (typeof(f[0])){ "hold_ns_max", st.hold.max };
	for (unsigned i = 0; i < n; i++) {
		char *key = g_strdup_printf("%s.%s", prefix, f[i].key);

		results_json_set_uint(j, key, f[i].v);
		g_free(key);
	}
	char *key = g_strdup_printf("%s.wait_share", prefix);
	results_json_set_double(j, key, engine_wait_share(e, cls));
	g_free(key);
}

static int cmp_keys(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define RESULTS_KEY "mmsim.results"

/* mmsim.result(name, value): a scenario's own figure, kept in summary.json
 * under results.NAME (a number, string or boolean). */
int lresults_record(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	int t = lua_type(L, 2);

	if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
		return luaL_error(L, "mmsim.result: value of '%s' must be a number, string or "
				  "boolean", name);
	if (lua_getfield(L, LUA_REGISTRYINDEX, RESULTS_KEY) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, RESULTS_KEY);
	}
	lua_pushvalue(L, 2);
	lua_setfield(L, -2, name);
	return 0;
}

/* PREFIX.* from the table on top of the stack (popped; nil is no table),
 * in sorted key order. */
static void set_table(lua_State *L, struct results_json *j, const char *prefix)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);

	if (lua_istable(L, -1)) {
		for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
			g_ptr_array_add(keys, g_strdup(lua_tostring(L, -2)));
		g_ptr_array_sort(keys, cmp_keys);
	}
	for (guint i = 0; i < keys->len; i++) {
		char *key = g_strdup_printf("%s.%s", prefix, (char *)keys->pdata[i]);

		lua_getfield(L, -1, keys->pdata[i]);
		if (lua_isboolean(L, -1))
			results_json_set_bool(j, key, lua_toboolean(L, -1));
		else if (lua_isinteger(L, -1))
			results_json_set_int(j, key, lua_tointeger(L, -1));
		else if (lua_type(L, -1) == LUA_TNUMBER)
			results_json_set_double(j, key, lua_tonumber(L, -1));
		else
			results_json_set_string(j, key, lua_tostring(L, -1));
		lua_pop(L, 1);
		g_free(key);
	}
	lua_pop(L, 1);
	g_ptr_array_free(keys, TRUE);
}

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

/* The run's plot title: scenario, policy, machine; then more. */
static char *plot_title(struct lmachine *lm, const char *more)
{
	char *base = g_path_get_basename(run.scenario);
	char *title = g_strdup_printf("%s, %s, %s (%u CPUs)%s", base, mm_policy_names[lm->m->policy],
				      lm->m->topo.name, lm->m->nr_cpus, more ? more : "");

	g_free(base);
	return title;
}

/* memmap[-label].dat and its memory_map[-label] plot (plots/memory_map.gp). */
static void write_memory_map(struct lmachine *lm, const char *label)
{
	struct gb_yield y;
	unsigned long n[NR_PB_CLASSES] = { 0 };
	GString *s = g_string_new(NULL), *tics = g_string_new(NULL);
	char *dat = label ? g_strdup_printf("memmap-%s.dat", label) : g_strdup("memmap.dat");
	char *png = label ? g_strdup_printf("memory_map-%s", label) : g_strdup("memory_map");
	double ms = lm->e ? (double)engine_clock(lm->e) / 1e6 : 0;
	char *when = g_strdup_printf(": %s, t = %g ms", label ? label : "end", ms);
	char *title = plot_title(lm, when);

	gb_memory_map_matrix(lm->m, s, n);
	write_file(dat, s);
	gb_yield(lm->m, &y);
	g_string_printf(s, "1 GiB regions: %lu free now, %lu movable-only, %lu obtainable, of %lu",
			y.free_now, y.movable_only, y.movable_obtainable, y.total_regions);
	char *counts = g_strdup_printf("%lu %lu %lu %lu %lu", n[PB_CLASS_FREE], n[PB_CLASS_MOVABLE],
				       n[PB_CLASS_RECLAIMABLE], n[PB_CLASS_UNMOVABLE],
				       n[PB_CLASS_MIXED]);
	gb_memory_map_tics(lm->m, tics);
	results_plot_as(run.r, "memory_map", dat, png, run.plot_format, title,
			(const char *const[]){ "ytics_zones", tics->str, "subtitle", s->str,
					       "class_counts", counts, NULL });
	g_free(counts);
	g_free(title);
	g_free(when);
	g_free(png);
	g_free(dat);
	g_string_free(tics, TRUE);
	g_string_free(s, TRUE);
}

int lresults_end(lua_State *L, struct lmachine *lm)
{
	struct results_json *j = results_json_new();
	GString *s = g_string_new(NULL);
	char *err = NULL, *title;
	double wall = (double)(g_get_monotonic_time() - run.wall_start) / 1e6;

	progress_done(&run.progress);
	if (lm && lm->e && run.ts && engine_clock(lm->e) > run.last_row_ns)
		write_row(lm);
	results_json_set_string(j, "version", PACKAGE_VERSION);
	results_json_set_string(j, "scenario", run.scenario);
	results_json_set_uint(j, "seed", run.seed);
	lparams_push_resolved(L);
	set_table(L, j, "params");
	if (lm) {
		struct machine *m = lm->m;

		results_json_set_string(j, "machine.name", m->topo.name);
		results_json_set_string(j, "machine.policy", mm_policy_names[m->policy]);
		results_json_set_uint(j, "machine.nodes", m->nr_nodes);
		results_json_set_uint(j, "machine.cpus", m->nr_cpus);
		results_json_set_uint(j, "machine.memory_mib", topology_total_mem(&m->topo) >> 20);
	}
	results_json_set_double(j, "sim_time_s", lm && lm->e ? engine_clock(lm->e) / 1e9 : 0);
	results_json_set_double(j, "wall_time_s", wall);
	if (lm && lm->e) {
		set_lock_class(j, lm->e, "zone_lock", LOCK_CLASS_ZONE);
		set_lock_class(j, lm->e, "pcp_lock", LOCK_CLASS_PCP);
	}
	if (lm) {
		results_json_set_uint(j, "memory.managed_pages", machine_managed_pages(lm->m));
		results_json_set_uint(j, "memory.free_pages", machine_free_pages(lm->m));
		results_json_set_uint(j, "memory.pcp_pages", machine_pcp_pages(lm->m));
		struct gb_yield y;

		gb_yield(lm->m, &y);
		results_json_set_uint(j, "gb_yield.free_now", y.free_now);
		results_json_set_uint(j, "gb_yield.movable_only", y.movable_only);
		results_json_set_uint(j, "gb_yield.movable_obtainable", y.movable_obtainable);
		results_json_set_uint(j, "gb_yield.total_regions", y.total_regions);
		struct spb_counts sc;
		spb_count_states(lm->m, &sc);
		results_json_set_uint(j, "gb_yield.spb_empty", sc.empty);
		results_json_set_uint(j, "gb_yield.spb_clean", sc.clean);
		results_json_set_uint(j, "gb_yield.spb_tainted", sc.tainted);
		lua_getfield(L, LUA_REGISTRYINDEX, RESULTS_KEY);
		set_table(L, j, "results");
		set_vmstat(j, lm->m);
	}
	if (results_write_summary(run.r, j, &err)) {
		g_printerr("mmsim: warning: %s\n", err);
		g_free(err);
	}
	results_json_free(j);

	if (lm) {
		proc_vmstat(lm->m, s);
		write_file("vmstat", s);
		proc_buddyinfo(lm->m, s);
		write_file("buddyinfo", s);
		proc_pagetypeinfo(lm->m, s);
		write_file("pagetypeinfo", s);
		proc_zoneinfo(lm->m, s);
		write_file("zoneinfo", s);
		write_memory_map(lm, NULL);
	}
	if (lm && lm->e) {
		lockstat_print(lm->e, s);
		write_file("lock_stat", s);
		g_string_append(s, "cpu,zone_wait_ns,pcp_wait_ns\n");
		for (unsigned cpu = 0; cpu < lm->m->nr_cpus; cpu++)
			g_string_append_printf(s, "%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n", cpu,
					       engine_cpu_wait_ns(lm->e, cpu, LOCK_CLASS_ZONE),
					       engine_cpu_wait_ns(lm->e, cpu, LOCK_CLASS_PCP));
		write_file("cpu_wait.csv", s);
		if (run.ts) {
			results_ts_close(run.ts);
			run.ts = NULL;
		}
		struct gb_yield y;
		char *total;

		gb_yield(lm->m, &y);
		total = g_strdup_printf("%lu", y.total_regions);
		title = plot_title(lm, NULL);
		results_plot(run.r, "lock_timeseries", "timeseries.csv", run.plot_format, title, NULL);
		results_plot(run.r, "cpu_wait", "cpu_wait.csv", run.plot_format, title, NULL);
		results_plot(run.r, "gb_yield", "timeseries.csv", run.plot_format, title,
			     (const char *const[]){ "total_regions", total, NULL });
		g_free(total);
		g_free(title);
	}
	g_string_free(s, TRUE);
	g_printerr("mmsim: results in %s\n", results_dir(run.r));
	results_close(run.r);
	run.r = NULL;
	g_free(run.plot_format);
	return LUA_OK;
}

/* m:gb_yield() -> {free_now=, movable_only=, movable_obtainable=, total_regions=} */
static int l_gb_yield(lua_State *L)
{
	struct gb_yield y;

	gb_yield(check_machine(L, 1), &y);
	lua_createtable(L, 0, 4);
	set_int(L, "free_now", (lua_Integer)y.free_now);
	set_int(L, "movable_only", (lua_Integer)y.movable_only);
	set_int(L, "movable_obtainable", (lua_Integer)y.movable_obtainable);
	set_int(L, "total_regions", (lua_Integer)y.total_regions);
	return 1;
}

/* m:memory_map() -> one character per pageblock (pb_class_chars) */
static int l_memory_map(lua_State *L)
{
	struct machine *m = check_machine(L, 1);
	luaL_Buffer b;
	uint32_t nr = m->pbstat->nr_pageblocks;
	char *p = luaL_buffinitsize(L, &b, nr);

	for (uint32_t pb = 0; pb < nr; pb++)
		p[pb] = pb_class_chars[pageblock_class(m, pb)];
	luaL_pushresultsize(&b, nr);
	return 1;
}

/* m:snapshot_memory_map(label): memmap-<label>.dat and memory_map-<label>.png
 * in the results folder now, for time-lapses. */
static int l_snapshot_memory_map(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	const char *label = luaL_checkstring(L, 2);

	/* The label goes into file names. */
	if (!*label || strspn(label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_.-") != strlen(label) || *label == '.')
		return luaL_error(L, "snapshot_memory_map: label '%s' must be letters, digits, "
				  "'_', '-' and '.' (not first)", label);
	if (run.r)
		write_memory_map(lm, label);
	return 0;
}

void lresults_open(lua_State *L, int methods)
{
	static const luaL_Reg funcs[] = {
		{ "gb_yield", l_gb_yield },
		{ "memory_map", l_memory_map },
		{ "snapshot_memory_map", l_snapshot_memory_map },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	for (const luaL_Reg *f = funcs; f->name; f++) {
		lua_pushcfunction(L, f->func);
		lua_setfield(L, methods, f->name);
	}
}
