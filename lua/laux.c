/* The binding's auxiliary library, as Lua's lauxlib is Lua's: argument
 * and field checks, result tables, userdata classes, and the CPU a call
 * runs on.  Every library of the mmsim module uses it; it uses none. */
#include "laux.h"

#include "models/pcp.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

struct lmachine *check_lmachine(lua_State *L, int idx)
{
	struct lmachine *lm = luaL_checkudata(L, idx, MACHINE_MT);

	if (!lm->m)
		luaL_error(L, "machine has been destroyed");
	return lm;
}

struct machine *check_machine(lua_State *L, int idx)
{
	return check_lmachine(L, idx)->m;
}

/* A size is a number of bytes or a string with a K/M/G/T suffix, 0 to
 * SIZE_MAX_BYTES (a Lua integer). */
#define SIZE_MAX_BYTES ((uint64_t)INT64_MAX)
#define SIZE_RANGE "valid range 0 to 9223372036854775807 bytes (8 EiB - 1)"

uint64_t check_size(lua_State *L, int idx, const char *what)
{
	if (lua_type(L, idx) == LUA_TNUMBER) {
		int isint;
		lua_Integer v = lua_tointegerx(L, idx, &isint);

		if (!isint || v < 0)
			luaL_error(L, "%s: size %s is not a whole number of bytes in the %s", what,
				   lua_tostring(L, idx), SIZE_RANGE);
		return (uint64_t)v;
	}
	const char *s = lua_tostring(L, idx);
	unsigned shift = 0;
	char *end;
	uint64_t v;

	if (!s || lua_type(L, idx) != LUA_TSTRING)
		luaL_error(L, "%s: expected a size such as \"512G\" or a number of bytes, got %s",
			   what, luaL_typename(L, idx));
	/* strtoull would take a sign or spaces, and negate "-8G". */
	if (!g_ascii_isdigit(*s))
		luaL_error(L, "%s: cannot read size \"%s\" (digits and a K, M, G or T suffix; %s)",
			   what, s, SIZE_RANGE);
	errno = 0;
	v = g_ascii_strtoull(s, &end, 10);
	switch (g_ascii_toupper(*end)) {
	case 'T': shift += 10; /* fall through */
	case 'G': shift += 10; /* fall through */
	case 'M': shift += 10; /* fall through */
	case 'K': shift += 10; end++; break;
	case '\0': break;
	default: luaL_error(L, "%s: unknown size suffix in \"%s\" (use K, M, G or T)", what, s);
	}
	if (*end == 'B' || *end == 'b' || *end == 'i')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		luaL_error(L, "%s: trailing characters in size \"%s\"", what, s);
	if (errno == ERANGE || v > SIZE_MAX_BYTES >> shift)
		luaL_error(L, "%s: size \"%s\" is too large: %s", what, s, SIZE_RANGE);
	return v << shift;
}

/* A time is a number of nanoseconds or a string with a unit ("0" needs
 * none), 0 to INT64_MAX ns (a Lua integer: 292 years). */
#define TIME_RANGE "valid range 0 to 9223372036854775807 ns"
uint64_t check_time(lua_State *L, int idx, const char *what)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "min", 60e9 },
		{ "h", 3600e9 },
	};
	double v = -1;

	if (lua_type(L, idx) == LUA_TNUMBER) {
		v = lua_tonumber(L, idx);
	} else if (lua_type(L, idx) == LUA_TSTRING) {
		const char *s = lua_tostring(L, idx);
		char *end = (char *)s;
		/* strtod would also read signs, spaces, "inf" and "nan". */
		double x = g_ascii_isdigit(*s) || *s == '.' ? g_ascii_strtod(s, &end) : 0;

		/* Zero is zero in any unit: -D live=0 needs none. */
		if (end != s && !*end && x == 0)
			v = 0;
		for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
			if (end != s && !strcmp(end, units[i].unit))
				v = x * units[i].ns;
		if (v < 0)
			luaL_error(L, "%s: cannot read time \"%s\" (a number and ns, us, ms, s, min or h; %s)",
				   what, s, TIME_RANGE);
	} else {
		luaL_error(L, "%s: expected a time such as \"10ms\" or a number of ns, got %s",
			   what, luaL_typename(L, idx));
	}
	/* 2^63 is the first double out of range. */
	if (!(v >= 0 && v < 9223372036854775808.0))
		luaL_error(L, "%s: time %s is out of range: %s", what,
			   luaL_tolstring(L, idx, NULL), TIME_RANGE);
	return (uint64_t)v;
}

const char *not_integer_text(lua_State *L, int idx)
{
	return lua_type(L, idx) == LUA_TNUMBER ? lua_tostring(L, idx) : luaL_typename(L, idx);
}

lua_Integer opt_int_field(lua_State *L, int t, const char *k, lua_Integer def)
{
	lua_Integer v = def;

	if (lua_getfield(L, t, k) != LUA_TNIL) {
		int isint;

		/* A float with an integral value (2^32) counts, as in luaL_checkinteger. */
		v = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &isint) : (isint = 0);
		if (!isint)
			luaL_error(L, "field '%s' must be an integer, got %s", k,
				   not_integer_text(L, -1));
	}
	lua_pop(L, 1);
	return v;
}

lua_Integer opt_range_field(lua_State *L, int t, const char *k, lua_Integer def,
			    lua_Integer min, lua_Integer max)
{
	lua_Integer v = opt_int_field(L, t, k, def);

	if (v < min || v > max)
		luaL_error(L, "field '%s' is %I: valid range %I to %I", k, v, min, max);
	return v;
}

bool check_bool(lua_State *L, int idx, const char *what)
{
	if (!lua_isboolean(L, idx))
		luaL_error(L, "%s must be true or false, not %s", what, luaL_tolstring(L, idx, NULL));
	return lua_toboolean(L, idx);
}

bool opt_bool_field(lua_State *L, int t, const char *k, bool def)
{
	bool v = def;

	if (lua_getfield(L, t, k) != LUA_TNIL) {
		char what[96];

		g_snprintf(what, sizeof(what), "field '%s'", k);
		v = check_bool(L, -1, what);
	}
	lua_pop(L, 1);
	return v;
}

/* The same, the message naming the caller level up the stack (1: the
 * Lua code calling the C function). */
void check_known_keys_at(lua_State *L, int t, const char *const *keys, const char *what,
				int level)
{
	lua_pushnil(L);
	while (lua_next(L, t)) {
		bool known = false;

		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING)
			for (const char *const *k = keys; *k; k++)
				known |= !strcmp(*k, lua_tostring(L, -1));
		if (!known) {
			GString *list = g_string_new(NULL);

			for (const char *const *k = keys; *k; k++)
				g_string_append_printf(list, "%s%s", k == keys ? "" : ", ", *k);
			const char *key = luaL_tolstring(L, -1, NULL);

			luaL_where(L, level);
			lua_pushfstring(L, "%s: unknown field '%s' (known: %s)", what, key, list->str);
			g_string_free(list, TRUE);
			lua_concat(L, 2);
			lua_error(L);
		}
	}
}

static int cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* __index of a strict methods table: (table, key) with the class's name as
 * upvalue; only reached for names the table lacks. */
static int unknown_method(lua_State *L)
{
	GPtrArray *names = g_ptr_array_new();
	GString *list = g_string_new(NULL);

	lua_pushnil(L);
	while (lua_next(L, 1)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING)
			g_ptr_array_add(names, (gpointer)lua_tostring(L, -1));
	}
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(list, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
	luaL_where(L, 1);
	lua_pushfstring(L, "%s has no method '%s' (methods: %s)",
			lua_tostring(L, lua_upvalueindex(1)), luaL_tolstring(L, 2, NULL),
			list->str);
	g_string_free(list, TRUE);
	g_ptr_array_free(names, TRUE);
	lua_remove(L, -2);
	lua_concat(L, 2);
	return lua_error(L);
}

void strict_methods(lua_State *L, int idx, const char *what)
{
	idx = lua_absindex(L, idx);
	lua_createtable(L, 0, 1);
	lua_pushstring(L, what);
	lua_pushcclosure(L, unknown_method, 1);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, idx);
}

void check_known_keys(lua_State *L, int t, const char *const *keys, const char *what)
{
	check_known_keys_at(L, t, keys, what, 1);
}

int check_node(lua_State *L, struct machine *m, lua_Integer node)
{
	if (node < 0 || node >= (lua_Integer)m->nr_nodes)
		luaL_error(L, "node %I does not exist (the machine has nodes 0-%d)", node,
			   (int)m->nr_nodes - 1);
	return (int)node;
}

nodemask_t check_node_list(lua_State *L, struct machine *m, int idx, const char *what)
{
	nodemask_t mask = NODE_MASK_NONE;

	if (lua_type(L, idx) != LUA_TTABLE)
		luaL_error(L, "%s: expected a list of nodes, got %s", what, luaL_typename(L, idx));
	for (lua_Integer i = 1, n = luaL_len(L, idx), last = -1; i <= n; i++) {
		lua_geti(L, idx, i);
		if (!lua_isinteger(L, -1))
			luaL_error(L, "%s: entry %d is not a node number", what, (int)i);
		lua_Integer node = check_node(L, m, lua_tointeger(L, -1));
		/* The list is a node mask, as the syscalls take: {1, 0} would
		 * read as {0, 1}, and a mapping by position would be lost. */
		if (node <= last)
			luaL_error(L, "%s: nodes are a node mask: list each once, in ascending order "
				   "(entry %d, node %d, follows node %d)", what, (int)i, (int)node,
				   (int)last);
		last = node;
		mask |= nodemask_of_node((unsigned)node);
		lua_pop(L, 1);
	}
	return mask;
}

/* The kernel's default policy allocates on numa_node_id(), the node of
 * the CPU the call runs on. */
int opt_node_field(lua_State *L, struct machine *m, int t, const struct mm_ctx *ctx)
{
	lua_Integer local = topology_cpu_to_node(&m->topo, ctx->cpu);

	return check_node(L, m, t ? opt_int_field(L, t, "node", local) : local);
}

/* The CPU a call runs on: a simulated thread's own, or for scenario code
 * outside threads the table's `cpu` field (default 0), taking no time.
 * t is a table index, or 0 for none. */
struct mm_ctx *call_ctx(lua_State *L, struct machine *m, int t, struct mm_ctx *buf)
{
	struct mm_ctx *ctx = lua_thread_ctx(L);
	bool has_cpu = t && lua_getfield(L, t, "cpu") != LUA_TNIL;

	if (t)
		lua_pop(L, 1);
	if (ctx) {
		if (has_cpu)
			luaL_error(L, "a simulated thread runs on its own CPU (%d): no 'cpu' field",
				   (int)ctx->cpu);
		/* Every model call from a thread starts at a safepoint. */
		engine_safepoint(ctx);
		return ctx;
	}
	lua_Integer cpu = t ? opt_int_field(L, t, "cpu", 0) : 0;
	if (cpu < 0 || cpu >= (lua_Integer)m->nr_cpus)
		luaL_error(L, "cpu %I does not exist (the machine has CPUs 0-%d)", cpu,
			   (int)m->nr_cpus - 1);
	*buf = mm_ctx_null((unsigned)cpu);
	return buf;
}

void push_pageset(lua_State *L, const struct zone *z, const struct per_cpu_pages *pcp)
{
	lua_createtable(L, 0, 7);
	set_int(L, "node", z->node);
	set_str(L, "zone", z->name);
	set_int(L, "count", pcp->count);
	set_int(L, "high", pcp->high);
	set_int(L, "high_min", pcp->high_min);
	set_int(L, "high_max", pcp->high_max);
	set_int(L, "batch", pcp->batch);
}
