/* libFuzzer target: the parsers of numbers a scenario or the command line
 * gives, mmsim.size, mmsim.time and -D KEY=VALUE for each parameter type.
 * Each must return a value or raise a Lua error, never crash or overflow
 * (run under AddressSanitizer and UndefinedBehaviorSanitizer). */
#include "lua/lmmsim.h"
#include "lua/lparams.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* fn(text) under pcall; the result or error is dropped. */
static void try_call(lua_State *L, const char *fn, const char *text)
{
	lua_getglobal(L, "mmsim");
	lua_getfield(L, -1, fn);
	lua_pushstring(L, text);
	lua_pcall(L, 1, 0, 0);
	lua_settop(L, 0);
}

/* mmsim.params{ v = def } with -D v=text. */
static int declare(lua_State *L)
{
	lua_getglobal(L, "mmsim");
	lua_getfield(L, -1, "params");
	lua_newtable(L);
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "v");
	lua_call(L, 1, 1);
	return 0;
}

static void try_define(const char *text, void (*push_default)(lua_State *))
{
	lua_State *L = luaL_newstate();
	char *def = malloc(strlen(text) + 3);
	const char *defines[] = { def, NULL };

	luaL_openlibs(L);
	luaL_requiref(L, "mmsim", luaopen_mmsim, 1);
	lua_settop(L, 0);
	strcpy(def, "v=");
	strcat(def, text);
	if (lparams_set_defines(L, defines) == LUA_OK) {
		lua_pushcfunction(L, declare);
		push_default(L);
		lua_pcall(L, 1, 0, 0);
	}
	free(def);
	lua_close(L);
}

static void push_int(lua_State *L) { lua_pushinteger(L, 1); }
static void push_num(lua_State *L) { lua_pushnumber(L, 0.5); }
static void push_bool(lua_State *L) { lua_pushboolean(L, 1); }
static void push_str(lua_State *L) { lua_pushliteral(L, "s"); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	lua_State *L = luaL_newstate();

	memcpy(text, data, size);
	text[size] = '\0';
	luaL_openlibs(L);
	luaL_requiref(L, "mmsim", luaopen_mmsim, 1);
	lua_settop(L, 0);
	try_call(L, "size", text);
	try_call(L, "time", text);
	lua_close(L);
	try_define(text, push_int);
	try_define(text, push_num);
	try_define(text, push_bool);
	try_define(text, push_str);
	free(text);
	return 0;
}
