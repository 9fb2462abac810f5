/* Workload engines written in C (sim/workload_*.c), started from Lua: the
 * workload library's modules (lua/mmsim/) compose them. */
#include "lmachine.h"
#include "lresults.h"

#include "sim/workload_jemalloc.h"

#include <lauxlib.h>

#define JEMALLOC_CHURN_MT "mmsim.jemalloc_churn"

/* The state of math.random, to draw from the scenario's own stream: Lua
 * 5.4 keeps its generator's four 64-bit words in a userdata, the first
 * upvalue of math.random.  Pushes that userdata. */
static struct rng *push_math_random_state(lua_State *L)
{
	struct rng *r = NULL;

	lua_getglobal(L, "math");
	if (lua_istable(L, -1) && lua_getfield(L, -1, "random") == LUA_TFUNCTION &&
	    lua_getupvalue(L, -1, 1) && lua_type(L, -1) == LUA_TUSERDATA &&
	    lua_rawlen(L, -1) == sizeof(struct rng))
		r = lua_touserdata(L, -1);
	if (!r)
		luaL_error(L, "math.random is not Lua 5.4's own: a workload written in C draws from "
			   "its generator");
	lua_replace(L, -3);
	lua_pop(L, 1);
	return r;
}

/* What a workload's threads keep alive until the last one ends: a table
 * in the registry holding its machine, process and random state. */
struct lworkload_refs {
	lua_State *L;           /* the main state */
	int ref;
};

static void release_refs(void *arg)
{
	struct lworkload_refs *r = arg;

	luaL_unref(r->L, LUA_REGISTRYINDEX, r->ref);
	g_free(r);
}

/* Pops n values into the registry table of a new lworkload_refs. */
static struct lworkload_refs *keep_alive(lua_State *L, int n)
{
	struct lworkload_refs *r = g_new(struct lworkload_refs, 1);

	lua_createtable(L, n, 0);
	lua_insert(L, -n - 1);
	for (int i = n; i >= 1; i--)
		lua_seti(L, -i - 1, i);
	r->ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
	r->L = lua_tothread(L, -1);
	lua_pop(L, 1);
	return r;
}

static lua_Integer field_int(lua_State *L, int t, const char *k, lua_Integer min)
{
	int isnum;
	lua_Integer v = (lua_getfield(L, t, k), lua_tointegerx(L, -1, &isnum));

	if (!isnum || v < min)
		luaL_error(L, "start_jemalloc_churn: '%s' must be an integer, %I or more", k, min);
	lua_pop(L, 1);
	return v;
}

static double field_num(lua_State *L, int t, const char *k, double min, double max)
{
	int isnum;
	double v = (lua_getfield(L, t, k), lua_tonumberx(L, -1, &isnum));

	if (!isnum || !(v >= min && v <= max))
		luaL_error(L, "start_jemalloc_churn: '%s' must be a number from %f to %f", k, min,
			   max);
	lua_pop(L, 1);
	return v;
}

/* m:start_jemalloc_churn{process =, cpus = {...}, sizes = {{bytes =, weight =}...},
 * live_bytes =, remote_share =, decay_ns =, work_ns =, until_ns =} -> the
 * workload, whose :stats() are lua/mmsim/jemalloc_churn.lua's stats.
 * Values are in bytes and ns: the module reads the user's options. */
static int l_start_jemalloc_churn(lua_State *L)
{
	static const char *const keys[] = { "process", "cpus", "sizes", "live_bytes",
					    "remote_share", "decay_ns", "work_ns", "until_ns",
					    NULL };
	struct lmachine *lm = check_lmachine(L, 1);
	struct jemalloc_churn_opts o = { .count_objects = lresults_add_objects,
					 .release = release_refs };
	struct machine *pm;
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "start_jemalloc_churn");
	lua_getfield(L, 2, "process");
	o.mm = lproc_check(L, lua_gettop(L), &pm);
	if (pm != lm->m)
		return luaL_error(L, "start_jemalloc_churn: the process is another machine's");
	if (lua_getfield(L, 2, "cpus") != LUA_TTABLE || !luaL_len(L, -1))
		return luaL_error(L, "start_jemalloc_churn: 'cpus' must be a list of CPUs");
	o.nr_cpus = (unsigned)luaL_len(L, -1);
	unsigned *cpus = lua_newuserdatauv(L, o.nr_cpus * sizeof(*cpus), 0);
	for (unsigned i = 0; i < o.nr_cpus; i++) {
		lua_Integer cpu = (lua_geti(L, -2, i + 1), lua_tointeger(L, -1));

		if (!lua_isinteger(L, -1) || cpu < 0 || cpu >= (lua_Integer)lm->m->nr_cpus)
			return luaL_error(L, "start_jemalloc_churn: cpu %s does not exist (the "
					  "machine has CPUs 0-%d)", luaL_tolstring(L, -1, NULL),
					  (int)lm->m->nr_cpus - 1);
		cpus[i] = (unsigned)cpu;
		lua_pop(L, 1);
	}
	o.cpus = cpus;
	if (lua_getfield(L, 2, "sizes") != LUA_TTABLE || !luaL_len(L, -1))
		return luaL_error(L, "start_jemalloc_churn: 'sizes' must be a list of "
				  "{bytes =, weight =}");
	o.nr_sizes = (unsigned)luaL_len(L, -1);
	struct jemalloc_size *sizes = lua_newuserdatauv(L, o.nr_sizes * sizeof(*sizes), 0);
	for (unsigned i = 0; i < o.nr_sizes; i++) {
		luaL_checktype(L, (lua_geti(L, -2, i + 1), -1), LUA_TTABLE);
		int t = lua_gettop(L);

		sizes[i].bytes = (uint64_t)field_int(L, t, "bytes", 1);
		if (sizes[i].bytes % PAGE_SIZE)
			return luaL_error(L, "start_jemalloc_churn: size %I is not a multiple of "
					  "the page size", (lua_Integer)sizes[i].bytes);
		sizes[i].weight = field_num(L, t, "weight", 0x1p-1000, 0x1p1000);
		lua_pop(L, 1);
	}
	o.sizes = sizes;
	o.live_bytes = (uint64_t)field_int(L, 2, "live_bytes", 0);
	o.remote_share = field_num(L, 2, "remote_share", 0, 1);
	o.decay_ns = (uint64_t)field_int(L, 2, "decay_ns", 0);
	o.work_ns = (uint64_t)field_int(L, 2, "work_ns", 0);
	o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0);

	struct engine *e = lmachine_engine(L, lm);
	struct jemalloc_churn **h = lua_newuserdatauv(L, sizeof(*h), 0);
	*h = NULL;
	luaL_setmetatable(L, JEMALLOC_CHURN_MT);
	lua_pushvalue(L, 1);
	lua_getfield(L, 2, "process");
	o.rng = push_math_random_state(L);
	o.release_arg = keep_alive(L, 3);
	*h = jemalloc_churn_start(e, &o, &err);
	if (!*h) {
		lua_pushfstring(L, "start_jemalloc_churn: %s", err);
		g_free(err);
		return lua_error(L);
	}
	return 1;
}

static struct jemalloc_churn *check_churn(lua_State *L)
{
	return *(struct jemalloc_churn **)luaL_checkudata(L, 1, JEMALLOC_CHURN_MT);
}

/* w:stats() -> {objects =, remote_frees =, purged_pages =, extents =, failed =,
 * rss_pages =} */
static int l_churn_stats(lua_State *L)
{
	const struct jemalloc_churn_stats *s = jemalloc_churn_stats(check_churn(L));

	lua_createtable(L, 0, 6);
	set_int(L, "objects", (lua_Integer)s->objects);
	set_int(L, "remote_frees", (lua_Integer)s->remote_frees);
	set_int(L, "purged_pages", (lua_Integer)s->purged_pages);
	set_int(L, "extents", (lua_Integer)s->extents);
	set_int(L, "failed", (lua_Integer)s->failed);
	set_int(L, "rss_pages", (lua_Integer)s->rss_pages);
	return 1;
}

static int l_churn_gc(lua_State *L)
{
	struct jemalloc_churn **h = luaL_checkudata(L, 1, JEMALLOC_CHURN_MT);

	if (*h)
		jemalloc_churn_put(*h);
	*h = NULL;
	return 0;
}

void lworkload_open(lua_State *L, int methods)
{
	static const luaL_Reg churn_methods[] = {
		{ "stats", l_churn_stats },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushcfunction(L, l_start_jemalloc_churn);
	lua_setfield(L, methods, "start_jemalloc_churn");
	luaL_newmetatable(L, JEMALLOC_CHURN_MT);
	luaL_newlib(L, churn_methods);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_churn_gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
}
