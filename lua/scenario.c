#include "scenario.h"
#include "lmmsim.h"
#include "lmachine.h"
#include "lparams.h"
#include "lresults.h"

#include <glib.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

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

/* Scripts may not start programs or load code other than text: drop
 * os.execute, io.popen, loadfile, dofile and C module loading. */
static void sandbox(lua_State *L)
{
	lua_pushnil(L);
	lua_setglobal(L, "loadfile");
	lua_pushnil(L);
	lua_setglobal(L, "dofile");
	lua_pushcfunction(L, text_only_load);
	lua_setglobal(L, "load");
	lua_getglobal(L, "os");
	lua_pushnil(L);
	lua_setfield(L, -2, "execute");
	lua_pushnil(L);
	lua_setfield(L, -2, "exit");
	lua_pop(L, 1);
	lua_getglobal(L, "io");
	lua_pushnil(L);
	lua_setfield(L, -2, "popen");
	lua_pop(L, 1);
	lua_getglobal(L, "package");
	lua_pushnil(L);
	lua_setfield(L, -2, "loadlib");
	lua_pushliteral(L, "");
	lua_setfield(L, -2, "cpath");
	/* Only the Lua searchers (preload and package.path) remain. */
	/* The workload library: require("mmsim.jemalloc_churn") etc. */
	const char *luadir = g_getenv("MMSIM_LUADIR");
	lua_pushfstring(L, "%s/?.lua", luadir ? luadir : MMSIM_LUADIR);
	lua_setfield(L, -2, "path");
	lua_getfield(L, -1, "searchers");
	lua_pushnil(L);
	lua_seti(L, -2, 4);
	lua_pushnil(L);
	lua_seti(L, -2, 3);
	lua_pop(L, 2);
}

int scenario_run(const struct scenario_opts *o)
{
	lua_State *L = luaL_newstate();
	int rc;

	/* Scenario code outside simulated threads has no CPU context. */
	*(void **)lua_getextraspace(L) = NULL;
	luaL_openlibs(L);
	sandbox(L);
	lsim_coroutines(L);
	luaL_requiref(L, "mmsim", luaopen_mmsim, 1);
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
		rc = lresults_begin(L, o->path, o->seed, o->out, lparams_define(L, "plot_format"));
	if (rc == LUA_OK)
		rc = luaL_loadfilex(L, o->path, "t");
	if (rc == LUA_OK)
		rc = lua_pcall(L, 0, 0, -2);
	if (rc == LUA_OK)
		rc = lparams_check_used(L, o->path);
	if (rc == LUA_OK)
		rc = lresults_end(L, lmmsim_subject(L));
	if (rc != LUA_OK) {
		fflush(stdout);
		fprintf(stderr, "%s\n", lua_tostring(L, -1));
	} else if (o->check_invariants) {
		GString *report = g_string_new(NULL);
		int n = lmmsim_check_all(L, report);

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
	return rc == LUA_OK ? 0 : 1;
}
