#include "scenario.h"
#include "lmmsim.h"
#include "lmachine.h"
#include "lmmsimlib.h"
#include "lparams.h"
#include "lresults.h"
#include "sim/results.h"
#include "sim/tee.h"

#include <glib.h>
#include <lauxlib.h>
#include <lualib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Message handler: keep the message (it already starts with file:line)
 * and add a traceback below it. */
static int msghandler(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);

	if (!msg)
		msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* load() that refuses precompiled chunks, whatever mode the caller asks. */
static int text_only_load(lua_State *L)
{
	size_t len;
	const char *chunk = luaL_checklstring(L, 1, &len);
	const char *name = luaL_optstring(L, 2, "=(load)");
	int env = !lua_isnone(L, 4);

	if (luaL_loadbufferx(L, chunk, len, name, "t") != LUA_OK) {
		lua_pushnil(L);
		lua_insert(L, -2);
		return 2;
	}
	if (env) {
		lua_pushvalue(L, 4);
		if (!lua_setupvalue(L, -2, 1))
			lua_pop(L, 1);
	}
	return 1;
}

/* Key order for pairs: numbers, then strings, then booleans, each
 * ascending; other keys (tables, functions) keep next()'s order. */
static int key_rank(lua_State *L, int idx)
{
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER: return 0;
	case LUA_TSTRING: return 1;
	case LUA_TBOOLEAN: return 2;
	default: return 3;
	}
}

static int key_before(lua_State *L)
{
	int ra = key_rank(L, 1), rb = key_rank(L, 2);

	if (ra != rb)
		lua_pushboolean(L, ra < rb);
	else if (ra < 2)
		lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
	else
		lua_pushboolean(L, ra == 2 && !lua_toboolean(L, 1) && lua_toboolean(L, 2));
	return 1;
}

/* The iterator of sorted_pairs: upvalues the sorted keys and the position. */
static int sorted_next(lua_State *L)
{
	lua_Integer i = lua_tointeger(L, lua_upvalueindex(2)) + 1;

	if (lua_geti(L, lua_upvalueindex(1), i) == LUA_TNIL)
		return 1;
	lua_pushinteger(L, i);
	lua_replace(L, lua_upvalueindex(2));
	lua_pushvalue(L, -1);
	lua_rawget(L, 1);
	return 2;
}

/* pairs(t) in a fixed order.  Lua hashes strings with a seed made from
 * the clock and addresses (luai_makeseed, fixed when the library is
 * built), so next()'s order changes from run to run; sorting the keys
 * first makes a scenario that iterates a table reproducible.  A __pairs
 * metamethod is honoured as by the library's pairs.  Upvalue 1 is the
 * library's table.sort. */
static int sorted_pairs(lua_State *L)
{
	luaL_checkany(L, 1);
	if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
		lua_pushvalue(L, 1);
		lua_call(L, 1, 3);
		return 3;
	}
	luaL_checktype(L, 1, LUA_TTABLE);       /* lua_next on anything else crashes */
	lua_newtable(L);
	lua_Integer n = 0;
	for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
		lua_pushvalue(L, -2);
		lua_seti(L, 2, ++n);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 2);
	lua_pushcfunction(L, key_before);
	lua_call(L, 2, 0);
	lua_pushinteger(L, 0);
	lua_pushcclosure(L, sorted_next, 2);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

/* io.open for reading only: files are written through
 * mmsim.write_result_file, into the results folder.  Upvalue 1 is the
 * library's io.open. */
static int read_only_open(lua_State *L)
{
	const char *mode = luaL_optstring(L, 2, "r");

	luaL_checkstring(L, 1);
	if (strcmp(mode, "r") && strcmp(mode, "rb"))
		return luaL_error(L, "io.open: mode '%s': scenarios may only read files (write "
				  "results with mmsim.write_result_file(name, text))", mode);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* io.output and io.input by name would open files the same way: only a
 * file already open passes.  Upvalue 1 is the library's function. */
static int no_file_name(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TSTRING)
		return luaL_error(L, "io.output and io.input take an open file here (io.open "
				  "reads files; mmsim.write_result_file writes results)");
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* require's searcher for Lua files: the workload library's folder and the
 * scenario's own (upvalue 1, a package.path-style template, so that
 * changing package.path reaches nothing else), text only. */
static int text_searcher(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *path;

	lua_getglobal(L, "package");
	lua_getfield(L, -1, "searchpath");
	lua_pushvalue(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_call(L, 2, 2);
	if (lua_isnil(L, -2))
		return 1;               /* the "no file" message */
	path = lua_tostring(L, -2);
	if (luaL_loadfilex(L, path, "t") != LUA_OK)
		return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path,
				  lua_tostring(L, -1));
	lresults_keep_module(name, path);
	lua_pushstring(L, path);
	return 2;
}

/* Replace the library function t.name (t on top of the stack) by f with
 * the original as upvalue. */
static void wrap_field(lua_State *L, const char *name, lua_CFunction f)
{
	lua_getfield(L, -1, name);
	lua_pushcclosure(L, f, 1);
	lua_setfield(L, -2, name);
}

/* Scripts may not start programs, write files other than their results,
 * or load code other than text: drop os.execute, io.popen, loadfile,
 * dofile, string.dump, debug and C module loading; io.open reads only;
 * require finds text modules in the workload library and the scenario's
 * folder only. */
static void sandbox(lua_State *L, const char *script)
{
	lua_pushnil(L);
	lua_setglobal(L, "loadfile");
	lua_pushnil(L);
	lua_setglobal(L, "dofile");
	lua_pushcfunction(L, text_only_load);
	lua_setglobal(L, "load");
	lua_getglobal(L, "table");
	lua_getfield(L, -1, "sort");
	lua_pushcclosure(L, sorted_pairs, 1);
	lua_setglobal(L, "pairs");
	lua_pop(L, 1);
	lua_getglobal(L, "os");
	for (const char *const *f = (const char *const[]){ "execute", "exit", "remove", "rename",
							   "tmpname", NULL }; *f; f++) {
		lua_pushnil(L);
		lua_setfield(L, -2, *f);
	}
	lua_pop(L, 1);
	lua_getglobal(L, "io");
	lua_pushnil(L);
	lua_setfield(L, -2, "popen");
	wrap_field(L, "open", read_only_open);
	wrap_field(L, "output", no_file_name);
	wrap_field(L, "input", no_file_name);
	lua_pop(L, 1);
	lua_getglobal(L, "string");
	lua_pushnil(L);
	lua_setfield(L, -2, "dump");
	lua_pop(L, 1);
	lua_pushnil(L);
	lua_setglobal(L, "debug");
	lua_getglobal(L, "package");
	lua_getfield(L, -1, "loaded");
	lua_pushnil(L);
	lua_setfield(L, -2, "debug");
	lua_pop(L, 1);
	lua_pushnil(L);
	lua_setfield(L, -2, "loadlib");
	lua_pushliteral(L, "");
	lua_setfield(L, -2, "cpath");
	/* The workload library (require("mmsim.jemalloc_churn")), then the
	 * scenario's folder. */
	const char *luadir = results_data_dir("MMSIM_LUADIR", MMSIM_LUADIR, MMSIM_PKG_LUADIR);
	char *folder = g_path_get_dirname(script);
	lua_pushfstring(L, "%s/?.lua;%s/?.lua", luadir, folder);
	g_free(folder);
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, "path");
	/* Only preload and the text searcher remain. */
	lua_getfield(L, -2, "searchers");
	lua_insert(L, -2);
	lua_pushcclosure(L, text_searcher, 1);
	lua_seti(L, -2, 2);
	lua_pushnil(L);
	lua_seti(L, -2, 4);
	lua_pushnil(L);
	lua_seti(L, -2, 3);
	lua_pop(L, 2);
}

/* SIGINT and SIGTERM: the signal, and the state whose script they stop. */
static volatile sig_atomic_t stop_signal;
static lua_State *signal_L;

/* Scenario code outside threads stops at its next Lua instruction, and
 * again at every later one, so a pcall cannot swallow the stop. */
static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	luaL_error(L, "interrupted by %s", stop_signal == SIGTERM ? "SIGTERM" : "SIGINT");
}

/* Simulated threads stop at their next safepoints (engine_interrupt). */
static void on_signal(int sig)
{
	if (stop_signal)
		return;
	stop_signal = sig;
	engine_interrupt();
	mm_signal_fatal();
	lua_sethook(signal_L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static void catch_signals(lua_State *L)
{
	struct sigaction sa = { .sa_handler = on_signal };

	signal_L = L;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Where an interrupted run stopped, on stderr. */
static void report_interrupt(lua_State *L)
{
	struct lmachine *lm = lmmsim_subject(L);

	fflush(stdout);
	fprintf(stderr, "mmsim: interrupted by %s at %.6f ms of simulated time\n",
		stop_signal == SIGTERM ? "SIGTERM" : "SIGINT",
		lm && lm->e ? (double)engine_clock(lm->e) / 1e6 : 0.0);
}

int scenario_run(const struct scenario_opts *o)
{
	lua_State *L = luaL_newstate();
	int rc;

	/* A script starts unstopped (the fuzzer runs many in one process). */
	stop_signal = 0;
	mm_signal_clear();
	catch_signals(L);
	/* Scenario code outside simulated threads has no CPU context. */
	*(void **)lua_getextraspace(L) = NULL;
	luaL_openlibs(L);
	sandbox(L, o->path);
	lsim_coroutines(L);
	luaL_requiref(L, "mmsim", luaopen_mmsim, 1);
	lua_pop(L, 1);
	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
	lua_pushcfunction(L, luaopen_expiry_heap);
	lua_setfield(L, -2, "mmsim.expiry_heap");
	lua_pop(L, 1);

	/* math.random is seeded from the run's seed, never from the clock. */
	lua_getglobal(L, "math");
	lua_getfield(L, -1, "randomseed");
	lua_pushinteger(L, (lua_Integer)o->seed);
	lua_call(L, 1, 0);
	lua_pop(L, 1);
	lua_pushinteger(L, (lua_Integer)o->seed);
	lua_setfield(L, LUA_REGISTRYINDEX, SEED_KEY);

	lua_createtable(L, o->argc, 1);
	lua_pushstring(L, o->path);
	lua_seti(L, -2, 0);
	for (int i = 0; i < o->argc; i++) {
		lua_pushstring(L, o->argv[i]);
		lua_seti(L, -2, i + 1);
	}
	lua_setglobal(L, "arg");

	lua_pushcfunction(L, msghandler);
	rc = lparams_set_defines(L, (const char *const *)o->defines);
	if (rc == LUA_OK)
		rc = lresults_begin(L, o, lparams_define(L, "plot_format"));
	if (rc == LUA_OK)
		rc = luaL_loadfilex(L, o->path, "t");
	if (rc == LUA_OK && o->list_params)
		lparams_set_list_only(L);
	if (rc == LUA_OK)
		rc = lua_pcall(L, 0, 0, -2);
	if (o->list_params) {
		/* Stopped at mmsim.params; nothing else to write. */
		if (rc != LUA_OK && lparams_listed(L)) {
			lua_close(L);
			return 0;
		}
		if (rc == LUA_OK) {
			lua_pushfstring(L, "%s declares no parameters (mmsim.params)", o->path);
			rc = LUA_ERRRUN;
		}
	}
	if (rc == LUA_OK)
		rc = lparams_check_used(L, o->path);
	if (stop_signal) {
		/* The hook stays: nothing more of the script runs. */
		report_interrupt(L);
		lresults_end(L, lmmsim_subject(L), true);
		rc = LUA_OK;
	} else if (rc == LUA_OK) {
		rc = lresults_end(L, lmmsim_subject(L), false);
		/* The script had ended: the signal only met the writing of results. */
		if (stop_signal) {
			fflush(stdout);
			fprintf(stderr, "mmsim: interrupted by %s after the simulation ended, %s\n",
				stop_signal == SIGTERM ? "SIGTERM" : "SIGINT",
				rc == LUA_OK ? "its results written whole" :
				"while writing its results");
		}
	}
	if (rc != LUA_OK) {
		fflush(stdout);
		fprintf(stderr, "%s\n", lua_tostring(L, -1));
	} else if (o->check_invariants) {
		GString *report = g_string_new(NULL);
		int n;

		/* The run has stopped at the signal: the check of where it
		 * stopped runs whole (the handler takes no second signal). */
		mm_signal_clear();
		n = lmmsim_check_all(L, report);

		fflush(stdout);
		if (report->len) {
			fprintf(stderr, "%s: invariant check failed:\n%s", o->path, report->str);
			rc = LUA_ERRRUN;
		} else {
			fprintf(stderr, "invariants hold on %d machine%s\n", n, n == 1 ? "" : "s");
		}
		g_string_free(report, TRUE);
	}
	lua_close(L);
	/* Everything said, the copy of stdout and stderr is whole; then a
	 * run that failed before its results leaves no folder of its own. */
	tee_stop();
	lresults_discard();
	if (rc == LUA_OK && stop_signal)
		return 128 + stop_signal;
	return rc == LUA_OK ? 0 : 1;
}
