#include "lparams.h"

#include <glib.h>
#include <lauxlib.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define DEFINES_KEY "mmsim.defines"
#define RESOLVED_KEY "mmsim.params"
#define LIST_ONLY_KEY "mmsim.params_list_only"
#define LISTED_KEY "mmsim.params_listed"

/* -D keys the runner reads itself; scenarios need not declare them. */
static bool runner_key(const char *key)
{
	return !strcmp(key, "plot_format");
}

const char *lparams_define(lua_State *L, const char *key)
{
	const char *v;

	lua_getfield(L, LUA_REGISTRYINDEX, DEFINES_KEY);
	lua_getfield(L, -1, key);
	/* The defines table is anchored in the registry, so the string stays. */
	v = lua_tostring(L, -1);
	lua_pop(L, 2);
	return v;
}

int lparams_set_defines(lua_State *L, const char *const *defines)
{
	lua_newtable(L);
	for (; defines && *defines; defines++) {
		const char *eq = strchr(*defines, '=');

		if (!eq || eq == *defines) {
			lua_pushfstring(L, "-D %s: expected KEY=VALUE", *defines);
			return LUA_ERRRUN;
		}
		lua_pushlstring(L, *defines, (size_t)(eq - *defines));
		lua_pushstring(L, eq + 1);
		lua_settable(L, -3);
	}
	lua_setfield(L, LUA_REGISTRYINDEX, DEFINES_KEY);
	return LUA_OK;
}

int lparams_check_used(lua_State *L, const char *script)
{
	int top = lua_gettop(L);

	lua_getfield(L, LUA_REGISTRYINDEX, DEFINES_KEY);
	bool declared = lua_getfield(L, LUA_REGISTRYINDEX, RESOLVED_KEY) != LUA_TNIL;
	lua_pop(L, 1);
	for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
		if (!declared && !runner_key(lua_tostring(L, -2))) {
			lua_pushfstring(L, "-D %s: %s declares no parameters (mmsim.params)",
					lua_tostring(L, -2), script);
			return LUA_ERRRUN;
		}
	}
	lua_settop(L, top);
	return LUA_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The declared names, sorted, comma-separated, for messages. */
static char *known_keys(lua_State *L, int decl)
{
	GPtrArray *keys = g_ptr_array_new();
	GString *s = g_string_new(NULL);

	for (lua_pushnil(L); lua_next(L, decl); lua_pop(L, 1))
		g_ptr_array_add(keys, (gpointer)lua_tostring(L, -2));
	qsort(keys->pdata, keys->len, sizeof(gpointer), cmp_str);
	for (guint i = 0; i < keys->len; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)keys->pdata[i]);
	g_ptr_array_free(keys, TRUE);
	return g_string_free(s, FALSE);
}

/* mmsim --params: the resolved table at index t, "KEY=VALUE" lines sorted
 * by key on stdout; then stop the script. */
static int list_params(lua_State *L, int t)
{
	char *keys = known_keys(L, t);
	char **names = g_strsplit(keys, ", ", -1);

	for (char **k = names; *k && **k; k++) {
		lua_getfield(L, t, *k);
		printf("%s=%s\n", *k, luaL_tolstring(L, -1, NULL));
		lua_pop(L, 2);
	}
	fflush(stdout);
	g_strfreev(names);
	g_free(keys);
	lua_pushboolean(L, 1);
	lua_setfield(L, LUA_REGISTRYINDEX, LISTED_KEY);
	return luaL_error(L, "parameters listed");
}

/* Convert the -D text to the type of the declared default. */
static void push_converted(lua_State *L, const char *key, const char *text, int def)
{
	switch (lua_type(L, def)) {
	case LUA_TNUMBER: {
		if (!lua_stringtonumber(L, text) || (lua_isinteger(L, def) && !lua_isinteger(L, -1)))
			luaL_error(L, "-D %s=%s: expected %s", key, text,
				   lua_isinteger(L, def) ? "an integer (-2^63 to 2^63-1)" : "a number");
		/* 1e400 reads as inf, which the summary could only write as null. */
		if (!isfinite(lua_tonumber(L, -1)))
			luaL_error(L, "-D %s=%s: expected a finite number (magnitude below 1.8e308)",
				   key, text);
		return;
	}
	case LUA_TBOOLEAN:
		if (!strcmp(text, "true") || !strcmp(text, "1") || !strcmp(text, "yes"))
			lua_pushboolean(L, 1);
		else if (!strcmp(text, "false") || !strcmp(text, "0") || !strcmp(text, "no"))
			lua_pushboolean(L, 0);
		else
			luaL_error(L, "-D %s=%s: expected true or false", key, text);
		return;
	default:
		lua_pushstring(L, text);
	}
}

int lparams_declare(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	if (lua_getfield(L, LUA_REGISTRYINDEX, RESOLVED_KEY) != LUA_TNIL)
		return luaL_error(L, "mmsim.params: parameters are declared once per scenario");
	lua_pop(L, 1);
	for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
		int t = lua_type(L, -1);

		if (lua_type(L, -2) != LUA_TSTRING)
			return luaL_error(L, "mmsim.params: parameter names must be strings");
		if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
			return luaL_error(L, "mmsim.params: default of '%s' must be a number, string "
					  "or boolean", lua_tostring(L, -2));
	}
	/* Every override must name a declared parameter. */
	lua_getfield(L, LUA_REGISTRYINDEX, DEFINES_KEY);
	int defs = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, defs); lua_pop(L, 1)) {
		if (runner_key(lua_tostring(L, -2)))
			continue;
		if (lua_getfield(L, 1, lua_tostring(L, -2)) == LUA_TNIL) {
			char *known = known_keys(L, 1);

			lua_pushfstring(L, "-D %s: unknown parameter (known: %s)", lua_tostring(L, -3),
					known);
			g_free(known);
			return lua_error(L);
		}
		lua_pop(L, 1);
	}
	lua_newtable(L);
	int out = lua_gettop(L);
	for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
		const char *key = lua_tostring(L, -2);
		int def = lua_gettop(L);

		lua_pushvalue(L, -2);
		if (lua_getfield(L, defs, key) != LUA_TNIL) {
			const char *text = lua_tostring(L, -1);

			lua_pop(L, 1);
			push_converted(L, key, text, def);
		} else {
			lua_pop(L, 1);
			lua_pushvalue(L, def);
		}
		lua_settable(L, out);
	}
	lua_pushvalue(L, out);
	lua_setfield(L, LUA_REGISTRYINDEX, RESOLVED_KEY);
	if (lua_getfield(L, LUA_REGISTRYINDEX, LIST_ONLY_KEY) != LUA_TNIL)
		return list_params(L, out);
	lua_pop(L, 1);
	return 1;
}

void lparams_set_list_only(lua_State *L)
{
	lua_pushboolean(L, 1);
	lua_setfield(L, LUA_REGISTRYINDEX, LIST_ONLY_KEY);
}

bool lparams_listed(lua_State *L)
{
	bool listed = lua_getfield(L, LUA_REGISTRYINDEX, LISTED_KEY) != LUA_TNIL;

	lua_pop(L, 1);
	return listed;
}

void lparams_push_resolved(lua_State *L)
{
	lua_getfield(L, LUA_REGISTRYINDEX, RESOLVED_KEY);
}
