/* Workload engines written in C (sim/workload_*.c), started from Lua: the
 * workload library's modules (lua/mmsim/) compose them. */
#include "laux.h"
#include "lmmsimlib.h"
#include "lresults.h"

#include "models/slub.h"
#include "sim/workload_jemalloc.h"
#include "sim/workload_kernel_noise.h"
#include "sim/workload_kernel_slab.h"
#include "sim/workload_mass_exit.h"
#include "sim/workload_network.h"
#include "sim/workload_page_cache.h"
#include "sim/workload_page_fault1.h"
#include "sim/workload_short_lived.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WORKLOAD_MT "mmsim.workload"

/* The handle m:start_* returns: the workload, how to push its stats as a
 * table, how to drop the handle's reference to it, and how to stop it. */
struct lworkload {
	void *w;
	void (*push_stats)(lua_State *L, const void *w);
	void (*put)(void *w);
	void (*stop)(void *w);          /* w:stop(), or NULL for none */
};

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

/* What a workload keeps alive until its last reference goes: a table in
 * the registry holding the Lua objects it uses (its machine; its process
 * and math.random's state where it has them). */
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

static lua_Integer field_int(lua_State *L, int t, const char *k, lua_Integer min,
			     const char *what)
{
	int isnum;
	lua_Integer v = (lua_getfield(L, t, k), lua_tointegerx(L, -1, &isnum));

	if (!isnum || v < min)
		luaL_error(L, "%s: '%s' must be an integer, %I or more", what, k, min);
	lua_pop(L, 1);
	return v;
}

/* A number from min to max: the value at idx, or field k of the table at
 * t if k is not NULL. */
static double check_num(lua_State *L, int t, const char *k, double min, double max,
			const char *what)
{
	int isnum;
	double v;

	if (k)
		lua_getfield(L, t, k);
	else
		lua_pushvalue(L, t);
	v = lua_tonumberx(L, -1, &isnum);

	if (!isnum || !(v >= min && v <= max)) {
		char range[64];

		snprintf(range, sizeof(range), "from %g to %g", min, max);
		luaL_error(L, "%s: '%s' must be a number %s", what, k ? k : "entry", range);
	}
	lua_pop(L, 1);
	return v;
}

/* The `cpus` list of the table at t, in a userdata left on the stack. */
static unsigned *field_cpus(lua_State *L, int t, struct lmachine *lm, unsigned *n,
			    const char *what)
{
	if (lua_getfield(L, t, "cpus") != LUA_TTABLE || !luaL_len(L, -1))
		luaL_error(L, "%s: 'cpus' must be a list of CPUs", what);
	*n = (unsigned)luaL_len(L, -1);
	unsigned *cpus = lua_newuserdatauv(L, *n * sizeof(*cpus), 0);
	for (unsigned i = 0; i < *n; i++) {
		lua_Integer cpu = (lua_geti(L, -2, i + 1), lua_tointeger(L, -1));

		if (!lua_isinteger(L, -1) || cpu < 0 || cpu >= (lua_Integer)lm->m->nr_cpus)
			luaL_error(L, "%s: cpu %s does not exist (the machine has CPUs 0-%d)", what,
				   luaL_tolstring(L, -1, NULL), (int)lm->m->nr_cpus - 1);
		cpus[i] = (unsigned)cpu;
		lua_pop(L, 1);
	}
	lua_remove(L, -2);
	return cpus;
}

/* A new handle on the stack; the caller sets its workload. */
static struct lworkload *new_handle(lua_State *L, void (*push_stats)(lua_State *, const void *),
				    void (*put)(void *))
{
	struct lworkload *h = lua_newuserdatauv(L, sizeof(*h), 0);

	*h = (struct lworkload){ .push_stats = push_stats, .put = put };
	luaL_setmetatable(L, WORKLOAD_MT);
	return h;
}

/* Raise the error of a workload that did not start. */
static int start_failed(lua_State *L, const char *what, char *err)
{
	lua_pushfstring(L, "%s: %s", what, err);
	g_free(err);
	return lua_error(L);
}

static void push_churn_stats(lua_State *L, const void *w)
{
	static const struct lfield f[] = {
		LFIELD(struct jemalloc_churn_stats, objects),
		LFIELD(struct jemalloc_churn_stats, remote_frees),
		LFIELD(struct jemalloc_churn_stats, purged_pages),
		LFIELD(struct jemalloc_churn_stats, faulted_pages),
		LFIELD(struct jemalloc_churn_stats, extents),
		LFIELD(struct jemalloc_churn_stats, failed),
		LFIELD(struct jemalloc_churn_stats, rss_pages),
		LFIELD(struct jemalloc_churn_stats, coasted_ns),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, jemalloc_churn_stats(w), f, G_N_ELEMENTS(f));
}

static void put_churn(void *w)
{
	jemalloc_churn_put(w);
}

/* m:start_jemalloc_churn{process =, cpus = {...}, sizes = {{bytes =, weight =}...},
 * live_bytes =, remote_share =, decay_ns =, work_ns =, until_ns =, page_leaders =,
 * coast_ratio =} -> the workload, whose :stats() are lua/mmsim/jemalloc_churn.lua's stats.
 * Values are in bytes and ns: the module reads the user's options. */
static int l_start_jemalloc_churn(lua_State *L)
{
	static const char *const keys[] = { "process", "cpus", "sizes", "live_bytes",
					    "remote_share", "decay_ns", "work_ns", "until_ns",
					    "page_leaders", "coast_ratio", NULL };
	struct lmachine *lm = check_lmachine(L, 1);
	struct jemalloc_churn_opts o = { .report = lresults_report(),
					 .release = release_refs };
	struct machine *pm;
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, "start_jemalloc_churn");
	lua_getfield(L, 2, "process");
	o.mm = lproc_check(L, lua_gettop(L), &pm);
	if (pm != lm->m)
		return luaL_error(L, "start_jemalloc_churn: the process is another machine's");
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, "start_jemalloc_churn");
	if (lua_getfield(L, 2, "sizes") != LUA_TTABLE || !luaL_len(L, -1))
		return luaL_error(L, "start_jemalloc_churn: 'sizes' must be a list of "
				  "{bytes =, weight =}");
	o.nr_sizes = (unsigned)luaL_len(L, -1);
	struct jemalloc_size *sizes = lua_newuserdatauv(L, o.nr_sizes * sizeof(*sizes), 0);
	for (unsigned i = 0; i < o.nr_sizes; i++) {
		luaL_checktype(L, (lua_geti(L, -2, i + 1), -1), LUA_TTABLE);
		int t = lua_gettop(L);

		sizes[i].bytes = (uint64_t)field_int(L, t, "bytes", 1, "start_jemalloc_churn");
		if (sizes[i].bytes % PAGE_SIZE)
			return luaL_error(L, "start_jemalloc_churn: size %I is not a multiple of "
					  "the page size", (lua_Integer)sizes[i].bytes);
		sizes[i].weight = check_num(L, t, "weight", 0x1p-1000, 0x1p1000, "start_jemalloc_churn");
		lua_pop(L, 1);
	}
	o.sizes = sizes;
	o.live_bytes = (uint64_t)field_int(L, 2, "live_bytes", 0, "start_jemalloc_churn");
	o.remote_share = check_num(L, 2, "remote_share", 0, 1, "start_jemalloc_churn");
	o.decay_ns = (uint64_t)field_int(L, 2, "decay_ns", 0, "start_jemalloc_churn");
	o.work_ns = (uint64_t)field_int(L, 2, "work_ns", 0, "start_jemalloc_churn");
	o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, "start_jemalloc_churn");
	o.page_leaders = (unsigned)opt_range_field(L, 2, "page_leaders", 0, 0, o.nr_cpus);
	o.coast_ratio = (unsigned)opt_range_field(L, 2, "coast_ratio", JEMALLOC_COAST_RATIO, 0,
						  1000);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_churn_stats, put_churn);
	lua_pushvalue(L, 1);
	lua_getfield(L, 2, "process");
	o.rng = push_math_random_state(L);
	o.release_arg = keep_alive(L, 3);
	h->w = jemalloc_churn_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, "start_jemalloc_churn", err);
}

static void push_pf1_stats(lua_State *L, const void *w)
{
	static const struct lfield f[] = {
		LFIELD(struct page_fault1_stats, loops),
		LFIELD(struct page_fault1_stats, faults),
		LFIELD(struct page_fault1_stats, failed),
		LFIELD(struct page_fault1_stats, tasks_done),
		LFIELD(struct page_fault1_stats, end_ns),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, page_fault1_stats(w), f, G_N_ELEMENTS(f));
}

static void put_pf1(void *w)
{
	page_fault1_put(w);
}

/* m:start_page_fault1{cpus = {...}, threads =, size =, loops =, until_ns =}
 * -> the workload, whose :stats() are lua/mmsim/page_fault1.lua's stats. */
static int l_start_page_fault1(lua_State *L)
{
	static const char *const keys[] = { "cpus", "threads", "size", "loops", "until_ns", NULL };
	static const char what[] = "start_page_fault1";
	struct lmachine *lm = check_lmachine(L, 1);
	struct page_fault1_opts o = { .m = lm->m, .release = release_refs };
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	o.threads = opt_bool_field(L, 2, "threads", false);
	lua_getfield(L, 2, "size");
	o.size = check_size(L, -1, what);
	lua_pop(L, 1);
	o.loops = (uint64_t)opt_range_field(L, 2, "loops", 0, 0, LUA_MAXINTEGER);
	o.until_ns = (uint64_t)opt_range_field(L, 2, "until_ns", 0, 0, LUA_MAXINTEGER);
	if (!o.loops && !o.until_ns)
		return luaL_error(L, "%s: give 'loops' or 'until_ns'", what);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_pf1_stats, put_pf1);
	lua_pushvalue(L, 1);
	o.release_arg = keep_alive(L, 1);
	h->w = page_fault1_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

/* A list of the pagesets each process recorded, by process (holes where
 * none is recorded yet), as m:pagesets gives them. */
static void push_pagesets(lua_State *L, struct mass_exit_pageset *const *by_process,
			  unsigned processes, unsigned nr)
{
	lua_newtable(L);
	for (unsigned i = 0; i < processes; i++) {
		if (!by_process[i])
			continue;
		lua_createtable(L, (int)nr, 0);
		for (unsigned k = 0; k < nr; k++) {
			push_pageset(L, by_process[i][k].zone, &by_process[i][k].pcp);
			lua_seti(L, -2, k + 1);
		}
		lua_seti(L, -2, i + 1);
	}
}

static void push_exit_stats(lua_State *L, const void *w)
{
	const struct mass_exit_stats *s = mass_exit_stats(w);
	unsigned n = mass_exit_processes(w);

	lua_createtable(L, 0, 12);
	set_int(L, "processes", n);
	set_int(L, "pages_touched", (lua_Integer)s->pages_touched);
	set_int(L, "pgtable_pages", (lua_Integer)s->pgtable_pages);
	set_int(L, "failed", (lua_Integer)s->failed);
	set_int(L, "live_ns", (lua_Integer)s->live_ns);
	if (s->touched) {
		set_int(L, "touch_end_ns", (lua_Integer)s->touch_end_ns);
		set_int(L, "exit_start_ns", (lua_Integer)s->exit_start_ns);
	}
	set_int(L, "exit_end_ns", (lua_Integer)s->exit_end_ns);
	lua_newtable(L);
	for (unsigned i = 0; i < n; i++) {
		if (!s->exited[i])
			continue;
		lua_pushinteger(L, (lua_Integer)s->exit_ns[i]);
		lua_seti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "exit_ns");
	push_pagesets(L, s->pagesets_touched, n, s->nr_pagesets);
	lua_setfield(L, -2, "pagesets_touched");
	push_pagesets(L, s->pagesets_before_exit, n, s->nr_pagesets);
	lua_setfield(L, -2, "pagesets_before_exit");
	if (!s->done)
		return;
	lua_createtable(L, 0, 6);
	set_int(L, "slowest_ns", (lua_Integer)s->slowest_ns);
	set_int(L, "median_ns", (lua_Integer)s->median_ns);
	lua_createtable(L, 0, 6);
	set_int(L, "acquisitions", (lua_Integer)s->zone_lock.acquisitions);
	set_int(L, "contentions", (lua_Integer)s->zone_lock.contentions);
	set_int(L, "wait_ns_total", (lua_Integer)s->zone_lock.wait_ns_total);
	set_int(L, "hold_ns_total", (lua_Integer)s->zone_lock.hold_ns_total);
	set_num(L, "wait_ms_per_process", (double)s->zone_lock.wait_ns_total / n / 1e6);
	/* An integer 0 without exit time, as Lua's `and/or` gave it. */
	if (s->exit_time_ns)
		set_num(L, "wait_share", s->zone_lock.waited_ns / (double)s->exit_time_ns);
	else
		set_int(L, "wait_share", 0);
	lua_setfield(L, -2, "zone_lock");
	set_int(L, "pages_freed", (lua_Integer)s->pages_freed);
	set_int(L, "pages_to_buddy", (lua_Integer)s->pages_to_buddy);
	set_int(L, "pages_kept_on_pcp", (lua_Integer)s->pages_kept_on_pcp);
	lua_setfield(L, -2, "exit");
}

static void put_exit(void *w)
{
	mass_exit_put(w);
}

static void exit_phase(void *arg, const char *name, uint64_t at_ns)
{
	lresults_phase(arg, name, at_ns);
}

/* m:start_mass_exit{cpus = {...}, size =, live =} -> the workload, whose
 * :stats() are lua/mmsim/mass_exit.lua's stats. */
static int l_start_mass_exit(lua_State *L)
{
	static const char *const keys[] = { "cpus", "size", "live", NULL };
	static const char what[] = "start_mass_exit";
	struct lmachine *lm = check_lmachine(L, 1);
	struct mass_exit_opts o = { .m = lm->m, .phase = exit_phase, .phase_arg = lm,
				    .release = release_refs };
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	lua_getfield(L, 2, "size");
	o.bytes = check_size(L, -1, what);
	lua_getfield(L, 2, "live");
	o.live_ns = check_time(L, -1, what);
	lua_pop(L, 2);
	if (!o.bytes)
		return luaL_error(L, "%s: 'size' must be more than 0", what);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_exit_stats, put_exit);
	lua_pushvalue(L, 1);
	o.release_arg = keep_alive(L, 1);
	h->w = mass_exit_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

static void push_short_lived_stats(lua_State *L, const void *w)
{
	const struct short_lived_stats *s = short_lived_stats(w);

	lua_createtable(L, 0, 3);
	set_int(L, "processes", (lua_Integer)s->processes);
	set_int(L, "faults", (lua_Integer)s->faults);
	set_int(L, "failed", (lua_Integer)s->failed);
}

static void put_short_lived(void *w)
{
	short_lived_put(w);
}

/* m:start_short_lived{cpus = {...}, size =, life =, gap =, until_ns =} -> the
 * workload, whose fields are lua/mmsim/short_lived.lua's stats. */
static int l_start_short_lived(lua_State *L)
{
	static const char *const keys[] = { "cpus", "size", "life", "gap", "until_ns", NULL };
	static const char what[] = "start_short_lived";
	struct lmachine *lm = check_lmachine(L, 1);
	struct short_lived_opts o = { .m = lm->m, .release = release_refs };
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	lua_getfield(L, 2, "size");
	o.size = check_size(L, -1, what);
	lua_getfield(L, 2, "life");
	o.life_ns = check_time(L, -1, what);
	lua_getfield(L, 2, "gap");
	o.gap_ns = check_time(L, -1, what);
	lua_pop(L, 3);
	if (!o.size)
		return luaL_error(L, "%s: 'size' must be more than 0", what);
	o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, what);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_short_lived_stats, put_short_lived);
	lua_pushvalue(L, 1);
	o.release_arg = keep_alive(L, 1);
	h->w = short_lived_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

static void push_network_stats(lua_State *L, const void *w)
{
	const struct network_stats *s = network_stats(w);

	lua_createtable(L, 0, 5);
	set_int(L, "packets", (lua_Integer)s->packets);
	set_int(L, "allocated", (lua_Integer)s->allocated);
	set_int(L, "freed", (lua_Integer)s->freed);
	set_int(L, "failed", (lua_Integer)s->failed);
	set_int(L, "long_lived", (lua_Integer)s->long_lived);
}

static void put_network(void *w)
{
	network_put(w);
}

/* A script's functions a workload's C threads call: a coroutine per
 * thread (a function may sleep, another thread then calling), the options
 * on its stack (1: the rate, 2: the lifetime; only the functions among
 * them are called), the calling thread's context set in its extra space
 * as a simulated thread's own, so that the function sees its time and CPU. */
struct lua_fns {
	struct lworkload_refs *refs;    /* keep the coroutines and the machine */
	struct lmachine *lm;
	lua_State **co;
};

static void release_fns(void *arg)
{
	struct lua_fns *f = arg;

	release_refs(f->refs);
	g_free(f->co);
	g_free(f);
}

/* The number the function at fn returns for thread (with the time now if
 * nargs is 1), finite, and above 0 if positive: false when it raised or
 * returned something else, the run then stopping with that error as with
 * a simulated thread's own. */
static bool call_fn(struct lua_fns *f, struct mm_ctx *ctx, unsigned thread, int fn, int nargs,
		    uint64_t now, bool positive, double *v, const char *what)
{
	lua_State *co = f->co[thread];
	int isnum = 0;

	*(struct mm_ctx **)lua_getextraspace(co) = ctx;
	lua_pushvalue(co, fn);
	if (nargs)
		lua_pushinteger(co, (lua_Integer)now);
	if (lua_pcall(co, nargs, 1, 0) == LUA_OK) {
		*v = lua_tonumberx(co, -1, &isnum);
		if (!isnum || !isfinite(*v) || (positive && !(*v > 0))) {
			isnum = 0;
			lua_pushfstring(co, "network: the %s function returned %s, not a %s number",
					what, luaL_tolstring(co, -1, NULL),
					positive ? "positive" : "finite");
		}
	}
	if (!isnum && !f->lm->thread_error) {
		const char *msg = lua_tostring(co, -1);

		f->lm->thread_error = g_strdup_printf("thread on CPU %u: %s", ctx->cpu,
						      msg ? msg : "(error object is not a string)");
		engine_request_stop(f->lm->e);
	}
	lua_settop(co, 2);
	return isnum;
}

static bool network_rate(void *arg, struct mm_ctx *ctx, unsigned thread, uint64_t now, double *v)
{
	return call_fn(arg, ctx, thread, 1, 1, now, true, v, "rate");
}

static bool network_lifetime(void *arg, struct mm_ctx *ctx, unsigned thread, double *v)
{
	return call_fn(arg, ctx, thread, 2, 0, 0, false, v, "lifetime");
}

/* m:start_network{cpus = {...}, rate =, lifetime_ns =, buffer_bytes =,
 * frag_share =, long_lived_share = [, until_ns =]} -> the workload, whose
 * fields are lua/mmsim/network.lua's stats; rate (packets per ms) and
 * lifetime_ns (the mean of an exponential) may be functions, called with
 * the time and with nothing. */
static int l_start_network(lua_State *L)
{
	static const char *const keys[] = { "cpus", "rate", "lifetime_ns", "buffer_bytes",
					    "frag_share", "long_lived_share", "until_ns", NULL };
	static const char what[] = "start_network";
	struct lmachine *lm = check_lmachine(L, 1);
	struct network_opts o = { .rx.m = lm->m, .release = release_refs,
				  .until_ns = UINT64_MAX };
	bool rate_fn, life_fn;
	char *err = NULL;
	int n = 2;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.rx.skbuff = kmem_cache_find(lm->m, "skbuff_head_cache");
	if (!o.rx.skbuff)
		return luaL_error(L, "%s: no slab caches (call m:kmem_cache_init() first)", what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	rate_fn = lua_getfield(L, 2, "rate") == LUA_TFUNCTION;
	life_fn = lua_getfield(L, 2, "lifetime_ns") == LUA_TFUNCTION;
	lua_pop(L, 2);
	if (!rate_fn)
		o.rate = check_num(L, 2, "rate", 0x1p-1000, 1e9, what);
	if (!life_fn)
		o.lifetime_ns = (uint64_t)check_num(L, 2, "lifetime_ns", 0, 0x1p62, what);
	o.rx.buffer_bytes = (unsigned)check_num(L, 2, "buffer_bytes", 1, PAGE_SIZE, what);
	o.rx.frag_share = check_num(L, 2, "frag_share", 0, 1, what);
	o.rx.long_lived_share = check_num(L, 2, "long_lived_share", 0, 1, what);
	if (lua_getfield(L, 2, "until_ns") != LUA_TNIL)
		o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, what);
	lua_pop(L, 1);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_network_stats, put_network);
	lua_pushvalue(L, 1);
	o.rx.rng = push_math_random_state(L);
	if (rate_fn || life_fn) {
		struct lua_fns *f = g_new0(struct lua_fns, 1);

		f->lm = lm;
		f->co = g_new(lua_State *, o.nr_cpus);
		for (unsigned i = 0; i < o.nr_cpus; i++, n++) {
			f->co[i] = lua_newthread(L);
			lua_getfield(L, 2, "rate");
			lua_getfield(L, 2, "lifetime_ns");
			lua_xmove(L, f->co[i], 2);
		}
		o.rate_fn = rate_fn ? network_rate : NULL;
		o.lifetime_fn = life_fn ? network_lifetime : NULL;
		o.fn_arg = f;
		o.release = release_fns;
		f->refs = keep_alive(L, n);
		o.release_arg = f;
	} else {
		o.release_arg = keep_alive(L, n);
	}
	h->w = network_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

static struct lworkload *check_workload(lua_State *L)
{
	struct lworkload *h = luaL_checkudata(L, 1, WORKLOAD_MT);

	if (!h->w)
		luaL_error(L, "the workload did not start");
	return h;
}

static void push_noise_stats(lua_State *L, const void *w)
{
	static const struct lfield f[] = {
		LFIELD(struct kernel_noise_stats, allocated),
		LFIELD(struct kernel_noise_stats, freed),
		LFIELD(struct kernel_noise_stats, failed),
		LFIELD(struct kernel_noise_stats, long_lived),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, kernel_noise_stats(w), f, G_N_ELEMENTS(f));
}

static void put_noise(void *w)
{
	kernel_noise_put(w);
}

static void stop_noise(void *w)
{
	kernel_noise_stop(w);
}

/* m:start_kernel_noise{cpus = {...}, rate =, reclaimable_share =, orders = {...},
 * lifetime_ns =, long_lived_share = [, until_ns =]} -> the workload, whose
 * fields are lua/mmsim/kernel_noise.lua's stats. */
static int l_start_kernel_noise(lua_State *L)
{
	static const char *const keys[] = { "cpus", "rate", "reclaimable_share", "orders",
					    "lifetime_ns", "long_lived_share", "until_ns", NULL };
	static const char what[] = "start_kernel_noise";
	struct lmachine *lm = check_lmachine(L, 1);
	struct kernel_noise_opts o = { .m = lm->m, .release = release_refs,
				       .until_ns = UINT64_MAX };
	double total = 0;
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	o.rate = check_num(L, 2, "rate", 0x1p-1000, 1e9, what);
	o.reclaimable_share = check_num(L, 2, "reclaimable_share", 0, 1, what);
	o.long_lived_share = check_num(L, 2, "long_lived_share", 0, 1, what);
	o.lifetime_ns = (uint64_t)field_int(L, 2, "lifetime_ns", 0, what);
	if (lua_getfield(L, 2, "until_ns") != LUA_TNIL)
		o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, what);
	if (lua_getfield(L, 2, "orders") != LUA_TTABLE || !luaL_len(L, -1) ||
	    luaL_len(L, -1) > NR_PAGE_ORDERS)
		return luaL_error(L, "%s: 'orders' must be a list of 1 to %d weights", what,
				  NR_PAGE_ORDERS);
	o.nr_orders = (unsigned)luaL_len(L, -1);
	for (unsigned i = 0; i < o.nr_orders; i++) {
		lua_geti(L, -1, i + 1);
		o.orders[i] = check_num(L, lua_gettop(L), NULL, 0, 0x1p1000, what);
		total += o.orders[i];
		lua_pop(L, 1);
	}
	if (!(total > 0))
		return luaL_error(L, "%s: the order weights sum to 0", what);
	lua_pop(L, 2);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_noise_stats, put_noise);
	h->stop = stop_noise;
	lua_pushvalue(L, 1);
	o.rng = push_math_random_state(L);
	o.release_arg = keep_alive(L, 2);
	h->w = kernel_noise_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

static void push_slab_stats(lua_State *L, const void *w)
{
	static const struct lfield f[] = {
		LFIELD(struct kernel_slab_stats, allocated),
		LFIELD(struct kernel_slab_stats, freed),
		LFIELD(struct kernel_slab_stats, failed),
		LFIELD(struct kernel_slab_stats, long_lived),
		LFIELD(struct kernel_slab_stats, files),
		LFIELD(struct kernel_slab_stats, packets),
		LFIELD(struct kernel_slab_stats, threads),
		LFIELD(struct kernel_slab_stats, pgtables),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, kernel_slab_stats(w), f, G_N_ELEMENTS(f));
}

static void put_slab(void *w)
{
	kernel_slab_put(w);
}

static void stop_slab(void *w)
{
	kernel_slab_stop(w);
}

static const char *const slab_sources[] = { "kmalloc", "file", "packet", "thread", "pgtable",
					    NULL };

/* Field k of the table at t, a table of numbers from 0 to max by source
 * name (a source not named: 0), into v. */
static void field_per_source(lua_State *L, int t, const char *k, double max, double *v,
			     const char *what)
{
	int sub = lua_gettop(L) + 1;

	if (lua_getfield(L, t, k) != LUA_TTABLE)
		luaL_error(L, "%s: '%s' must be a table by source", what, k);
	check_known_keys(L, sub, slab_sources, what);
	for (unsigned i = 0; i < NR_KSLAB_SOURCES; i++)
		v[i] = lua_getfield(L, sub, slab_sources[i]) == LUA_TNIL ? 0 :
		       check_num(L, lua_gettop(L), NULL, 0, max, what);
	lua_pop(L, NR_KSLAB_SOURCES + 1);
}

/* m:start_kernel_slab{cpus = {...}, rate =, mix = {kmalloc =, file =, packet =,
 * thread =, pgtable =}, lifetime_ns = {...}, long_lived_share = {...},
 * hot_share =, frag_share =, buffer_bytes =, first_file = [, until_ns =]} ->
 * the workload, whose fields are lua/mmsim/kernel_slab.lua's stats; the
 * per-source tables are by source name, a source not named 0. */
static int l_start_kernel_slab(lua_State *L)
{
	static const char *const keys[] = { "cpus", "rate", "mix", "lifetime_ns",
					    "long_lived_share", "hot_share", "frag_share",
					    "buffer_bytes", "first_file", "until_ns", NULL };
	static const char what[] = "start_kernel_slab";
	struct lmachine *lm = check_lmachine(L, 1);
	struct kernel_slab_opts o = { .m = lm->m, .release = release_refs,
				      .until_ns = UINT64_MAX };
	double lifetime[NR_KSLAB_SOURCES], total = 0;
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	if (!kmem_cache_find(lm->m, "skbuff_head_cache"))
		return luaL_error(L, "%s: no slab caches (call m:kmem_cache_init() first)", what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	o.rate = check_num(L, 2, "rate", 0x1p-1000, 1e9, what);
	field_per_source(L, 2, "mix", 0x1p1000, o.mix, what);
	for (unsigned i = 0; i < NR_KSLAB_SOURCES; i++)
		total += o.mix[i];
	if (!(total > 0))
		return luaL_error(L, "%s: the mix's weights sum to 0", what);
	field_per_source(L, 2, "lifetime_ns", 0x1p62, lifetime, what);
	for (unsigned i = 0; i < NR_KSLAB_SOURCES; i++)
		o.lifetime_ns[i] = (uint64_t)lifetime[i];
	field_per_source(L, 2, "long_lived_share", 1, o.long_lived_share, what);
	o.hot_share = check_num(L, 2, "hot_share", 0, 1, what);
	o.frag_share = check_num(L, 2, "frag_share", 0, 1, what);
	o.buffer_bytes = (unsigned)check_num(L, 2, "buffer_bytes", 1, PAGE_SIZE, what);
	o.first_file = (uint32_t)check_num(L, 2, "first_file", 0, UINT32_MAX, what);
	if (lua_getfield(L, 2, "until_ns") != LUA_TNIL)
		o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, what);
	lua_pop(L, 1);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_slab_stats, put_slab);
	h->stop = stop_slab;
	lua_pushvalue(L, 1);
	o.rng = push_math_random_state(L);
	o.release_arg = keep_alive(L, 2);
	h->w = kernel_slab_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

static void push_readers_stats(lua_State *L, const void *w)
{
	static const struct lfield f[] = {
		LFIELD(struct page_cache_readers_stats, pages_read),
		LFIELD(struct page_cache_readers_stats, files),
		LFIELD(struct page_cache_readers_stats, failed),
	};

	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, page_cache_readers_stats(w), f, G_N_ELEMENTS(f));
}

static void put_readers(void *w)
{
	page_cache_readers_put(w);
}

/* m:start_page_cache_readers{cpus = {...}, pages_per_ns =, file_pages =, until_ns =}
 * -> the workload, whose fields are lua/mmsim/page_cache.lua's stats. */
static int l_start_page_cache_readers(lua_State *L)
{
	static const char *const keys[] = { "cpus", "pages_per_ns", "file_pages", "until_ns",
					    NULL };
	static const char what[] = "start_page_cache_readers";
	struct lmachine *lm = check_lmachine(L, 1);
	struct page_cache_readers_opts o = { .m = lm->m, .release = release_refs };
	char *err = NULL;

	luaL_checktype(L, 2, LUA_TTABLE);
	check_known_keys(L, 2, keys, what);
	o.cpus = field_cpus(L, 2, lm, &o.nr_cpus, what);
	o.pages_per_ns = check_num(L, 2, "pages_per_ns", 0x1p-60, 1e9, what);
	/* A file's page indexes are 32-bit. */
	o.file_pages = (uint64_t)opt_range_field(L, 2, "file_pages", 0, 1, UINT32_MAX);
	o.until_ns = (uint64_t)field_int(L, 2, "until_ns", 0, what);

	struct engine *e = lmachine_engine(L, lm);
	struct lworkload *h = new_handle(L, push_readers_stats, put_readers);
	lua_pushvalue(L, 1);
	o.release_arg = keep_alive(L, 1);
	h->w = page_cache_readers_start(e, &o, &err);
	return h->w ? 1 : start_failed(L, what, err);
}

/* w:stats() -> the workload's figures as they are now, a new table */
static int l_workload_stats(lua_State *L)
{
	struct lworkload *h = check_workload(L);

	h->push_stats(L, h->w);
	return 1;
}

/* w:stop(), for the workloads that have it */
static int l_workload_stop(lua_State *L)
{
	struct lworkload *h = check_workload(L);

	h->stop(h->w);
	return 0;
}

/* w.NAME: a figure as it is now, so that a module's `stats = w` reads as
 * a table that fills in as the run goes; w:stats() and w:stop(). */
static int l_workload_index(lua_State *L)
{
	struct lworkload *h = check_workload(L);
	const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";

	if (!strcmp(k, "stats")) {
		lua_pushcfunction(L, l_workload_stats);
		return 1;
	}
	if (h->stop && !strcmp(k, "stop")) {
		lua_pushcfunction(L, l_workload_stop);
		return 1;
	}
	h->push_stats(L, h->w);
	lua_pushvalue(L, 2);
	lua_rawget(L, -2);
	return 1;
}

/* pairs(w): the figures' names and values */
static int l_workload_pairs(lua_State *L)
{
	struct lworkload *h = check_workload(L);

	lua_getglobal(L, "next");
	h->push_stats(L, h->w);
	lua_pushnil(L);
	return 3;
}

static int l_workload_gc(lua_State *L)
{
	struct lworkload *h = luaL_checkudata(L, 1, WORKLOAD_MT);

	if (h->w)
		h->put(h->w);
	h->w = NULL;
	return 0;
}

void lworkload_open(lua_State *L, int methods)
{
	static const luaL_Reg workload_meta[] = {
		{ "__index", l_workload_index },
		{ "__pairs", l_workload_pairs },
		{ "__gc", l_workload_gc },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushcfunction(L, l_start_jemalloc_churn);
	lua_setfield(L, methods, "start_jemalloc_churn");
	lua_pushcfunction(L, l_start_page_fault1);
	lua_setfield(L, methods, "start_page_fault1");
	lua_pushcfunction(L, l_start_mass_exit);
	lua_setfield(L, methods, "start_mass_exit");
	lua_pushcfunction(L, l_start_kernel_noise);
	lua_setfield(L, methods, "start_kernel_noise");
	lua_pushcfunction(L, l_start_kernel_slab);
	lua_setfield(L, methods, "start_kernel_slab");
	lua_pushcfunction(L, l_start_page_cache_readers);
	lua_setfield(L, methods, "start_page_cache_readers");
	lua_pushcfunction(L, l_start_short_lived);
	lua_setfield(L, methods, "start_short_lived");
	lua_pushcfunction(L, l_start_network);
	lua_setfield(L, methods, "start_network");
	luaL_newmetatable(L, WORKLOAD_MT);
	luaL_setfuncs(L, workload_meta, 0);
	lua_pop(L, 1);
}
