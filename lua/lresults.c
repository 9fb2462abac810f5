/* The results folder of a scenario run, bound to Lua: what the script
 * knows (scenario, seed, parameters, mmsim.result figures) goes to the
 * run's report (sim/report.c), which gathers the rest from the machine
 * and its engine. */
#include "lresults.h"
#include "laux.h"
#include "lmmsimlib.h"
#include "lparams.h"

#include "models/gbyield.h"
#include "models/pbstat.h"
#include "sim/report.h"

#include <glib.h>
#include <lauxlib.h>
#include <math.h>
#include <string.h>

/* One run per process: SimGrid runs one simulation per process. */
static struct report *rep;

int lresults_begin(lua_State *L, const struct scenario_opts *o, const char *plot_format)
{
	char *err = NULL, *base;

	if (plot_format && !results_plot_format_valid(plot_format)) {
		lua_pushfstring(L, "-D plot_format=%s: expected png, pdf or svg", plot_format);
		return LUA_ERRRUN;
	}
	/* --params writes nothing: no folder. */
	if (o->list_params)
		return LUA_OK;
	rep = report_open(o->path, o->seed, o->command, o->out, plot_format, o->keep_output,
			  &err);
	if (!rep) {
		lua_pushstring(L, err);
		g_free(err);
		return LUA_ERRRUN;
	}
	base = g_path_get_basename(o->path);
	report_keep_source(rep, base, o->path);
	g_free(base);
	return LUA_OK;
}

void lresults_keep_module(const char *name, const char *path)
{
	char *file;

	if (!rep)
		return;
	file = g_strconcat(name, ".lua", NULL);
	g_strdelimit(file, ".", '/');
	/* The dots of the name, not of the extension. */
	file[strlen(file) - 4] = '.';
	report_keep_source(rep, file, path);
	g_free(file);
}

void lresults_discard(void)
{
	if (!rep)
		return;
	report_discard(rep);
	rep = NULL;
}

/* mmsim.time_compressed(on) */
int lresults_time_compressed(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	if (rep)
		report_set_time_compressed(rep, lua_toboolean(L, 1));
	return 0;
}

void lresults_set_target(uint64_t until_ns)
{
	if (rep)
		report_set_target(rep, until_ns);
}

void lresults_start_sampling(struct lmachine *lm)
{
	if (rep)
		report_start_sampling(rep, lm->m, lm->e, lm->sample_interval);
}

static int cmp_keys(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define RESULTS_KEY "mmsim.results"

/* mmsim.result(name, value): a scenario's own figure, kept in summary.json
 * under results.NAME (a number, string or boolean). */
/* a is b, or one names an object holding the other ("x" and "x.y"). */
static bool keys_nest(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t n = MIN(la, lb);

	return !strncmp(a, b, n) && (la == lb || (la > lb ? a : b)[n] == '.');
}

int lresults_record(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	int t = lua_type(L, 2);

	/* A dotted name is a path in summary.json: no empty component. */
	if (!*name || *name == '.' || name[strlen(name) - 1] == '.' || strstr(name, ".."))
		return luaL_error(L, "mmsim.result: name '%s' must be dot-separated non-empty "
				  "parts", name);
	if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
		return luaL_error(L, "mmsim.result: value of '%s' must be a number, string or "
				  "boolean", name);
	if (t == LUA_TNUMBER && !isfinite(lua_tonumber(L, 2)))
		return luaL_error(L, "mmsim.result: value of '%s' is %s: it must be finite", name,
				  lua_tostring(L, 2));
	if (!rep)
		return luaL_error(L, "mmsim.result: the run's results are written already (called "
				  "after the scenario ended?)");
	if (lua_getfield(L, LUA_REGISTRYINDEX, RESULTS_KEY) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, RESULTS_KEY);
	}
	/* "x" and "x.y" cannot both be in the summary: one would be lost. */
	for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
		const char *other = lua_tostring(L, -2);

		if (strcmp(other, name) && keys_nest(other, name))
			return luaL_error(L, "mmsim.result: '%s' and '%s' cannot both be results (one "
					  "would be an object holding the other)", other, name);
	}
	lua_pushvalue(L, 2);
	lua_setfield(L, -2, name);
	return 0;
}

/* The table on top of the stack (popped; nil is no table) as a tree, in
 * sorted key order. */
static struct results_json *table_tree(lua_State *L)
{
	struct results_json *j = results_json_new();
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);

	if (lua_istable(L, -1)) {
		for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
			g_ptr_array_add(keys, g_strdup(lua_tostring(L, -2)));
		g_ptr_array_sort(keys, cmp_keys);
	}
	for (guint i = 0; i < keys->len; i++) {
		const char *key = keys->pdata[i];

		lua_getfield(L, -1, key);
		if (lua_isboolean(L, -1))
			results_json_set_bool(j, key, lua_toboolean(L, -1));
		else if (lua_isinteger(L, -1))
			results_json_set_int(j, key, lua_tointeger(L, -1));
		else if (lua_type(L, -1) == LUA_TNUMBER)
			results_json_set_double(j, key, lua_tonumber(L, -1));
		else
			results_json_set_string(j, key, lua_tostring(L, -1));
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	g_ptr_array_free(keys, TRUE);
	return j;
}

int lresults_end(lua_State *L, struct lmachine *lm, bool interrupted)
{
	struct results_json *params, *results;

	lparams_push_resolved(L);
	params = table_tree(L);
	lua_getfield(L, LUA_REGISTRYINDEX, RESULTS_KEY);
	results = table_tree(L);
	int rc = report_close(rep, lm ? lm->m : NULL, lm ? lm->e : NULL, params, results,
			      interrupted, lm && lm->gb_yield_attempt);
	rep = NULL;
	results_json_free(results);
	results_json_free(params);
	if (rc) {
		lua_pushliteral(L, "mmsim: the results folder is incomplete (see the errors above)");
		return LUA_ERRRUN;
	}
	return LUA_OK;
}

/* A name for a file of the results folder: letters, digits, '_', '-' and
 * '.' (not first). */
static bool file_name_ok(const char *name)
{
	return *name && *name != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	       strlen(name);
}

/* mmsim.write_result_file(name, text): the only way a scenario writes a
 * file, atomically, into its results folder, never over the run's own. */
int lresults_write_file(lua_State *L)
{
	size_t name_len, len;
	const char *name = luaL_checklstring(L, 1, &name_len);
	const char *text = luaL_checklstring(L, 2, &len);
	char *err = NULL;

	if (strlen(name) != name_len || !file_name_ok(name) || g_str_has_suffix(name, ".tmp"))
		return luaL_error(L, "mmsim.write_result_file: name '%s' must be letters, digits, "
				  "'_', '-' and '.' (not first), not ending in .tmp", name);
	if (!rep)
		return luaL_error(L, "mmsim.write_result_file: the run's results are written "
				  "already (called after the scenario ended?)");
	if (report_write_file(rep, name, text, len, &err)) {
		lua_pushstring(L, err);
		g_free(err);
		return luaL_error(L, "mmsim.write_result_file: %s", lua_tostring(L, -1));
	}
	return 0;
}

/* m:gb_yield([{attempt =, cpu =, node =}]) -> {free_now=, movable_only=,
 * total_regions=, possible= [, obtained=, pages_migrated=, time_ns=]}: the
 * counts, then with attempt the measurement, of the machine or of node. */
static int l_gb_yield(lua_State *L)
{
	static const char *const keys[] = { "attempt", "cpu", "node", NULL };
	static const struct lfield attempt_fields[] = {
		LFIELD(struct gb_attempt, obtained),
		LFIELD(struct gb_attempt, pages_migrated),
		LFIELD(struct gb_attempt, time_ns),
	};
	static const struct lfield yield_fields[] = {
		LFIELD(struct gb_yield, free_now),
		LFIELD(struct gb_yield, movable_only),
		LFIELD(struct gb_yield, total_regions),
		LFIELD(struct gb_yield, possible),
	};
	struct machine *m = check_machine(L, 1);
	int opts = lua_isnoneornil(L, 2) ? 0 : 2;
	struct gb_attempt a;
	struct gb_yield y;
	bool attempt = false;
	int node = -1;

	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, keys, "gb_yield");
		attempt = opt_bool_field(L, opts, "attempt", false);
		if (lua_getfield(L, opts, "node") != LUA_TNIL)
			node = (int)opt_range_field(L, opts, "node", 0, 0, m->nr_nodes - 1);
		lua_pop(L, 1);
	}
	gb_yield_node(m, node, &y);
	if (attempt) {
		struct mm_ctx buf, *ctx = call_ctx(L, m, opts, &buf);

		gb_yield_attempt(ctx, m, node, &a);
	}
	lua_createtable(L, 0, G_N_ELEMENTS(attempt_fields) + G_N_ELEMENTS(yield_fields));
	if (attempt)
		set_fields(L, &a, attempt_fields, G_N_ELEMENTS(attempt_fields));
	set_fields(L, &y, yield_fields, G_N_ELEMENTS(yield_fields));
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

/* A label that goes into file names and CSV fields. */
static const char *check_label(lua_State *L, int idx, const char *what)
{
	const char *label = luaL_checkstring(L, idx);

	if (!file_name_ok(label))
		luaL_error(L, "%s: label '%s' must be letters, digits, '_', '-' and '.' (not first)",
			   what, label);
	return label;
}

/* mmsim.headline_phase(name): the summary's headline window */
int lresults_headline_phase(lua_State *L)
{
	const char *name = check_label(L, 1, "headline_phase");

	if (strchr(name, '.'))
		return luaL_error(L, "headline_phase: name '%s' must not hold a '.'", name);
	if (rep)
		report_set_window(rep, name);
	return 0;
}

/* m:snapshot_memory_map(label): memmap-<label>.dat and memory_map-<label>.png
 * in the results folder now, for time-lapses. */
static int l_snapshot_memory_map(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	const char *label = check_label(L, 2, "snapshot_memory_map");

	if (rep)
		report_memory_map(rep, lm->m, lm->e, label);
	return 0;
}

void lresults_phase(struct lmachine *lm, const char *name, uint64_t at_ns)
{
	if (rep)
		report_phase(rep, lm->m, lm->e, name, at_ns);
}

bool lresults_since_phase(const char *name, enum lock_class_id cls, struct lock_stats *st,
			  double *waited, double *thread_time)
{
	return rep && report_since_phase(rep, name, cls, st, waited, thread_time);
}

/* mmsim.count_objects(n): the workload did n more of its objects. */
int lresults_count_objects(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 1);

	if (n < 0)
		return luaL_error(L, "mmsim.count_objects: %I is negative", n);
	if (rep)
		report_count_objects(rep, (uint64_t)n);
	return 0;
}

struct report *lresults_report(void)
{
	return rep;
}

/* m:phase(name) starts a phase at the caller's simulated time (a thread's
 * own, else the engine's clock), m:phase() ends the current one. */
static int l_phase(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	const char *name = lua_isnoneornil(L, 2) ? NULL : check_label(L, 2, "phase");
	struct mm_ctx *ctx = lua_thread_ctx(L);
	uint64_t now = ctx ? mm_now(ctx) : lm->e ? engine_clock(lm->e) : 0;

	/* The name is a key of summary.json: phases.NAME.* */
	if (name && strchr(name, '.'))
		return luaL_error(L, "phase: name '%s' must not hold a '.' (it names phases.%s.* "
				  "in summary.json)", name, name);
	lresults_phase(lm, name, now);
	return 0;
}

void lresults_open(lua_State *L, int methods)
{
	static const luaL_Reg funcs[] = {
		{ "gb_yield", l_gb_yield },
		{ "memory_map", l_memory_map },
		{ "snapshot_memory_map", l_snapshot_memory_map },
		{ "phase", l_phase },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	for (const luaL_Reg *f = funcs; f->name; f++) {
		lua_pushcfunction(L, f->func);
		lua_setfield(L, methods, f->name);
	}
}
