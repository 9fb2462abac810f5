/* The binding's auxiliary library (laux.c), as Lua's lauxlib.h: argument
 * and field checks, result tables, userdata classes, and the CPU a call
 * runs on. */
#ifndef MMSIM_LAUX_H
#define MMSIM_LAUX_H

#include "lmachine.h"

#include "models/mmzone.h"

#include <glib.h>
#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Make the methods table at idx refuse unknown names: indexing it with a
 * name it lacks raises "file:line: <what> has no method 'x' (methods: ...)"
 * rather than Lua's "attempt to call a nil value". */
void strict_methods(lua_State *L, int idx, const char *what);

/* Fields of the table on top of the stack. */
static inline void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static inline void set_num(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

static inline void set_str(lua_State *L, const char *k, const char *v)
{
	lua_pushstring(L, v);
	lua_setfield(L, -2, k);
}

/* A userdata class: its metatable name with the methods (up to a NULL
 * name) and finalizer gc; unknown methods are errors naming the class. */
static inline void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
			     lua_CFunction gc)
{
	int n = 0;

	while (methods[n].name)
		n++;
	luaL_newmetatable(L, name);
	lua_createtable(L, 0, n);
	luaL_setfuncs(L, methods, 0);
	strict_methods(L, -1, name);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
}

/* An unsigned integer member of a C struct and its name in a Lua table. */
struct lfield {
	const char *name;
	size_t offset, size;
};
#define LFIELD_AS(name, type, member) \
	{ name, offsetof(type, member), sizeof(((type *)0)->member) }
#define LFIELD(type, member) LFIELD_AS(#member, type, member)

/* The n fields f of struct s into the table on top of the stack, in
 * order (pairs can see the order a table's keys were set in). */
static inline void set_fields(lua_State *L, const void *s, const struct lfield *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)s + f[i].offset;
		uint64_t v64;
		uint32_t v32;

		if (f[i].size == sizeof(v64)) {
			memcpy(&v64, p, sizeof(v64));
		} else {
			g_assert(f[i].size == sizeof(v32));
			memcpy(&v32, p, sizeof(v32));
			v64 = v32;
		}
		set_int(L, f[i].name, (lua_Integer)v64);
	}
}

/* Return the text built in s (freed) as a Lua string. */
static inline int push_gstring(lua_State *L, GString *s)
{
	lua_pushlstring(L, s->str, s->len);
	g_string_free(s, TRUE);
	return 1;
}

struct machine *check_machine(lua_State *L, int idx);
struct lmachine *check_lmachine(lua_State *L, int idx);

/* The simulated thread running this Lua code, or NULL in scenario code
 * outside threads (each thread's coroutine keeps its context in the
 * coroutine's extra space). */
static inline struct mm_ctx *lua_thread_ctx(lua_State *L)
{
	return *(struct mm_ctx **)lua_getextraspace(L);
}

/* A size: bytes, or a string with a K/M/G/T suffix. */
uint64_t check_size(lua_State *L, int idx, const char *what);
/* A time argument in ns: a number, or a string with a unit ("10ms"). */
uint64_t check_time(lua_State *L, int idx, const char *what);
struct per_cpu_pages;
/* {node =, zone =, count =, high =, high_min =, high_max =, batch =}: a
 * CPU's pageset pcp of zone z, as m:pagesets lists them. */
void push_pageset(lua_State *L, const struct zone *z, const struct per_cpu_pages *pcp);
/* Raise an error naming the fields of the table at t not in keys (NULL-ended). */
void check_known_keys(lua_State *L, int t, const char *const *keys, const char *what);
/* The same, the message naming the caller level up the stack (1: the
 * Lua code calling the C function). */
void check_known_keys_at(lua_State *L, int t, const char *const *keys, const char *what,
			 int level);
/* A value not taken as an integer, for an error: a number as written,
 * anything else by its type. */
const char *not_integer_text(lua_State *L, int idx);
/* An optional integer field of the table at t. */
lua_Integer opt_int_field(lua_State *L, int t, const char *k, lua_Integer def);
/* The same, refused outside min-max with the range in the message. */
lua_Integer opt_range_field(lua_State *L, int t, const char *k, lua_Integer def,
			    lua_Integer min, lua_Integer max);
/* The boolean at idx: anything else is refused, "WHAT must be true or
 * false, not V" (Lua takes a string such as "no" as true). */
bool check_bool(lua_State *L, int idx, const char *what);
/* An optional boolean field of the table at t (check_bool's rule, nil
 * giving def). */
bool opt_bool_field(lua_State *L, int t, const char *k, bool def);
/* The CPU a call runs on: a simulated thread's own, or for scenario code
 * outside threads the `cpu` field of the table at t (0 for no table),
 * taking no time; buf holds the latter. */
struct mm_ctx *call_ctx(lua_State *L, struct machine *m, int t, struct mm_ctx *buf);
/* A node number of m, or an error naming the machine's nodes. */
int check_node(lua_State *L, struct machine *m, lua_Integer node);
/* A Lua list of node numbers at idx as a mask; errors name what. */
nodemask_t check_node_list(lua_State *L, struct machine *m, int idx, const char *what);
/* The `node` field of the table at t (0: no table), checked; by default
 * the node of ctx's CPU, as the kernel's default memory policy. */
int opt_node_field(lua_State *L, struct machine *m, int t, const struct mm_ctx *ctx);

#endif
