/* The simulation side of the mmsim module: simulated threads running Lua
 * functions on CPUs, running the engine, time, and lock statistics. */
#include "lmachine.h"
#include "lresults.h"

#include "models/compaction.h"
#include "models/page_cache.h"
#include "models/pcp.h"
#include "sim/lockstat.h"

#include <glib.h>
#include <lauxlib.h>
#include <math.h>
#include <string.h>

/* A simulated thread: a Lua coroutine run by an engine thread. */
struct lthread {
	lua_State *co;
	int ref;                /* keeps the coroutine alive */
	int mref;               /* and the machine's userdata */
	struct lmachine *lm;
	lua_State *L;           /* the main state, for the registry */
};

/* A time is a number of nanoseconds or a string with a unit ("0" needs
 * none), 0 to INT64_MAX ns (a Lua integer: 292 years). */
#define TIME_RANGE "valid range 0 to 9223372036854775807 ns"
static uint64_t check_time(lua_State *L, int idx, const char *what)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
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
			luaL_error(L, "%s: cannot read time \"%s\" (a number and ns, us, ms or s; %s)",
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

void lsim_machine_opts(lua_State *L, int t, struct lmachine *lm)
{
	struct engine_opts *eo = &lm->eo;

	engine_opts_default(eo);
	lm->vmstat_interval = 1000000000;      /* sysctl_stat_interval: HZ */
	if (lua_getfield(L, t, "vmstat_interval") != LUA_TNIL)
		lm->vmstat_interval = check_time(L, -1, "vmstat_interval");
	lua_pop(L, 1);
	lm->sample_interval = 1000000;
	if (lua_getfield(L, t, "sample_interval") != LUA_TNIL)
		lm->sample_interval = check_time(L, -1, "sample_interval");
	lua_pop(L, 1);
	lm->kswapd_interval = 1000000;
	if (lua_getfield(L, t, "kswapd_interval") != LUA_TNIL)
		lm->kswapd_interval = check_time(L, -1, "kswapd_interval");
	lua_pop(L, 1);
	if (lua_getfield(L, t, "quantum_ns") != LUA_TNIL)
		eo->quantum_ns = (double)check_time(L, -1, "quantum_ns");
	lua_pop(L, 1);
	if (lua_getfield(L, t, "costs") == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	luaL_checktype(L, -1, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
		int rc = lua_type(L, -1) == LUA_TNUMBER ?
			 costs_set(&eo->costs, name, lua_tonumber(L, -1)) : -2;

		if (rc == -1) {
			char *names = costs_names();

			lua_pushfstring(L, "unknown cost '%s' (known: %s)", name, names);
			g_free(names);
			lua_error(L);
		}
		if (rc == -2)
			luaL_error(L, "cost '%s' must be a number of ns, 0 or more", name);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* The vmstat worker of one CPU (vmstat_update): decay the pagesets' high
 * every interval.  CPU 0's also notices a deadlock its own wake-ups would
 * hide from SimGrid. */
static void vmstat_worker(struct mm_ctx *ctx, void *arg)
{
	struct lmachine *lm = arg;

	for (;;) {
		engine_sleep(ctx, lm->vmstat_interval);
		engine_settle(ctx);
		if (ctx->cpu == 0 && engine_stalled(lm->e)) {
			engine_stop(ctx);
			return;
		}
		refresh_cpu_vm_stats(ctx, lm->m);
	}
}

/* kswapd of one node, reduced: it checks every interval whether the
 * node's watermarks or an allocation's wakeup_kswapd need it, instead of
 * sleeping on a wait queue, and reclaims only the page cache
 * (models/page_cache.c). */
static void kswapd(struct mm_ctx *ctx, void *arg)
{
	struct lmachine *lm = arg;
	int nid = (int)topology_cpu_to_node(&lm->m->topo, ctx->cpu);

	for (;;) {
		engine_sleep(ctx, lm->kswapd_interval);
		engine_settle(ctx);
		if (pgdat_needs_kswapd(lm->m, nid)) {
			kswapd_balance(ctx, lm->m, nid);
			kswapd_try_to_sleep(lm->m, nid);
		}
	}
}

/* kcompactd of one node (mm/compaction.c kcompactd()): it waits for
 * wakeup_kcompactd or for its timeout, HPAGE_FRAG_CHECK_INTERVAL_MSEC
 * (none while vm.compaction_proactiveness is 0); work found then is done,
 * otherwise the timeout runs proactive compaction, and a pass that does
 * not lower the node's score stretches the next timeout 64 times.  The
 * wait is a check of the wake flag every kswapd interval, as kswapd's. */
static void kcompactd(struct mm_ctx *ctx, void *arg)
{
	struct lmachine *lm = arg;
	struct machine *m = lm->m;
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	struct pglist_data *pgdat = &m->node_data[nid];
	const uint64_t default_timeout = HPAGE_FRAG_CHECK_INTERVAL_MSEC * 1000000ULL;
	uint64_t poll = lm->kswapd_interval ? lm->kswapd_interval : default_timeout;
	uint64_t timeout = default_timeout;

	for (;;) {
		uint64_t waited = 0;

		while (!pgdat->kcompactd_wake && (!m->compaction_proactiveness || waited < timeout)) {
			engine_sleep(ctx, poll);
			engine_settle(ctx);
			waited += poll;
		}
		pgdat->kcompactd_wake = false;
		timeout = default_timeout;
		if (kcompactd_work_requested(m, nid)) {
			kcompactd_do_work(ctx, m, nid);
			continue;
		}
		if (!kcompactd_proactive(ctx, m, nid))
			timeout = default_timeout << COMPACT_MAX_DEFER_SHIFT;
	}
}

static struct engine *lmachine_engine(lua_State *L, struct lmachine *lm)
{
	char *err = NULL;

	if (lm->e)
		return lm->e;
	lm->e = engine_create(&lm->m->topo, &lm->eo, &err);
	if (!lm->e) {
		lua_pushfstring(L, "cannot start the simulation: %s", err);
		g_free(err);
		lua_error(L);
	}
	for (unsigned cpu = 0; lm->vmstat_interval && cpu < lm->m->nr_cpus; cpu++) {
		char name[32];

		snprintf(name, sizeof(name), "vmstat/%u", cpu);
		engine_spawn_daemon(lm->e, cpu, name, vmstat_worker, lm);
	}
	/* kswapd<N> and kcompactd<N> run on the node's first CPU. */
	for (unsigned cpu = 0; cpu < lm->m->nr_cpus; cpu++) {
		unsigned nid = topology_cpu_to_node(&lm->m->topo, cpu);
		char name[32];

		if (cpu && topology_cpu_to_node(&lm->m->topo, cpu - 1) == nid)
			continue;
		if (lm->kswapd_interval) {
			snprintf(name, sizeof(name), "kswapd%u", nid);
			engine_spawn_daemon(lm->e, cpu, name, kswapd, lm);
		}
		snprintf(name, sizeof(name), "kcompactd%u", nid);
		engine_spawn_daemon(lm->e, cpu, name, kcompactd, lm);
	}
	lresults_start_sampling(lm);
	return lm->e;
}

void lsim_machine_gc(struct lmachine *lm)
{
	if (lm->e)
		engine_destroy(lm->e);
	lm->e = NULL;
	g_free(lm->thread_error);
	lm->thread_error = NULL;
}

static void thread_main(struct mm_ctx *ctx, void *arg)
{
	struct lthread *t = arg;
	int nres, rc;

	*(struct mm_ctx **)lua_getextraspace(t->co) = ctx;
	rc = lua_resume(t->co, NULL, 0, &nres);
	if (rc == LUA_OK)
		return;
	if (rc == LUA_YIELD)
		lua_pushliteral(t->co, "a simulated thread may not yield to the scenario");
	if (!t->lm->thread_error) {
		const char *msg = lua_tostring(t->co, -1);

		luaL_traceback(t->co, t->co, msg ? msg : "(error object is not a string)", 0);
		t->lm->thread_error = g_strdup_printf("thread on CPU %u: %s", ctx->cpu,
						      lua_tostring(t->co, -1));
	}
	/* The other threads stop at their next safepoints: the run ends. */
	engine_request_stop(t->lm->e);
}

static void thread_exit(void *arg)
{
	struct lthread *t = arg;

	luaL_unref(t->L, LUA_REGISTRYINDEX, t->ref);
	luaL_unref(t->L, LUA_REGISTRYINDEX, t->mref);
	g_free(t);
}

/* m:spawn{cpu =, name =, fn =} */
static int l_spawn(lua_State *L)
{
	static const char *const keys[] = { "cpu", "name", "fn", NULL };
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e;

	luaL_checktype(L, 2, LUA_TTABLE);
	for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
		bool known = false;

		for (const char *const *k = keys; *k; k++)
			known |= lua_type(L, -2) == LUA_TSTRING && !strcmp(*k, lua_tostring(L, -2));
		if (!known)
			return luaL_error(L, "spawn: unknown field '%s' (known: cpu, name, fn)",
					  luaL_tolstring(L, -2, NULL));
	}
	lua_getfield(L, 2, "cpu");
	lua_Integer cpu = luaL_checkinteger(L, -1);
	if (cpu < 0 || cpu >= (lua_Integer)lm->m->nr_cpus)
		return luaL_error(L, "spawn: cpu %d does not exist (the machine has CPUs 0-%d)",
				  (int)cpu, (int)lm->m->nr_cpus - 1);
	lua_getfield(L, 2, "name");
	const char *name = luaL_optstring(L, -1, NULL);
	if (lua_getfield(L, 2, "fn") != LUA_TFUNCTION)
		return luaL_error(L, "spawn: 'fn' must be a function");
	e = lmachine_engine(L, lm);
	char *full = engine_spawn_check(e);
	if (full) {
		lua_pushfstring(L, "spawn: %s", full);
		g_free(full);
		return luaL_error(L, "%s", lua_tostring(L, -1));
	}

	struct lthread *t = g_new0(struct lthread, 1);
	t->lm = lm;
	t->L = L;
	t->co = lua_newthread(L);
	*(struct mm_ctx **)lua_getextraspace(t->co) = NULL;
	lua_pushvalue(L, -2);
	lua_xmove(L, t->co, 1);
	t->ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_pushvalue(L, 1);
	t->mref = luaL_ref(L, LUA_REGISTRYINDEX);
	engine_spawn(e, (unsigned)cpu, name, thread_main, t, thread_exit);
	return 0;
}

/* True while m:run runs the engine: a coroutine or finalizer of a
 * simulated thread must not run the engine again from inside it. */
static bool running;

/* m:run() until every thread ends, m:run{until = T} or m:run{duration = D};
 * {expected_end = T} tells the progress line when an open-ended run
 * should end. */
static int l_run(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e = lmachine_engine(L, lm);
	uint64_t until = 0, expected = 0;
	char *err = NULL;

	if (lua_thread_ctx(L) || running)
		return luaL_error(L, "run: called from a simulated thread");
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		if (lua_getfield(L, 2, "until") != LUA_TNIL)
			until = check_time(L, -1, "run: until");
		if (lua_getfield(L, 2, "duration") != LUA_TNIL) {
			uint64_t d = check_time(L, -1, "run: duration");

			if (d > (uint64_t)INT64_MAX - engine_clock(e))
				return luaL_error(L, "run: duration %I ns goes past the last simulated "
						  "time, %I ns", (lua_Integer)d, (lua_Integer)INT64_MAX);
			until = engine_clock(e) + d;
		}
		if (lua_getfield(L, 2, "expected_end") != LUA_TNIL)
			expected = check_time(L, -1, "run: expected_end");
		lua_pop(L, 3);
		if (!until && !expected)
			return luaL_error(L, "run: give 'until', 'duration' or 'expected_end' (or no "
					  "table to run until every thread ends)");
	}
	lresults_set_target(until ? until : expected);
	running = true;
	int rc = engine_run(e, until, &err);
	running = false;
	if (lm->thread_error) {
		/* Raised once: a scenario that catches it may run on. */
		lua_pushstring(L, lm->thread_error);
		g_free(lm->thread_error);
		lm->thread_error = NULL;
		g_free(err);
		return lua_error(L);
	}
	if (rc > 0)
		return luaL_error(L, "run: interrupted at %I ns of simulated time",
				  (lua_Integer)engine_clock(e));
	if (rc) {
		luaL_where(L, 1);
		lua_pushstring(L, err);
		g_free(err);
		lua_concat(L, 2);
		return lua_error(L);
	}
	lua_pushinteger(L, (lua_Integer)engine_clock(e));
	return 1;
}

static void push_lock_stats(lua_State *L, const struct engine *e, enum lock_class_id cls)
{
	struct lock_stats s;

	engine_class_stats(e, cls, &s);
	lua_createtable(L, 0, 12);
	set_int(L, "acquisitions", (lua_Integer)s.hold.nr);
	set_int(L, "contentions", (lua_Integer)s.wait.nr);
	set_int(L, "con_bounces", (lua_Integer)s.con_bounces);
	set_int(L, "acq_bounces", (lua_Integer)s.acq_bounces);
	set_int(L, "wait_ns_total", (lua_Integer)s.wait.total);
	set_int(L, "wait_ns_min", (lua_Integer)s.wait.min);
	set_int(L, "wait_ns_max", (lua_Integer)s.wait.max);
	set_int(L, "hold_ns_total", (lua_Integer)s.hold.total);
	set_int(L, "hold_ns_min", (lua_Integer)s.hold.min);
	set_int(L, "hold_ns_max", (lua_Integer)s.hold.max);
	set_num(L, "wait_share", engine_wait_share(e, cls));
}

/* The lock classes' keys in m:lock_stats() and m:cpu_wait_ns(). */
static const char *const class_keys[NR_LOCK_CLASSES] = {
	[LOCK_CLASS_ZONE] = "zone",
	[LOCK_CLASS_PCP] = "pcp",
	[LOCK_CLASS_LRU] = "lru",
	[LOCK_CLASS_PTL] = "ptl",
	[LOCK_CLASS_MMAP] = "mmap",
};

/* m:lock_stats() -> {zone = {...}, pcp = {...}, lru =, ptl =, mmap =,
 * thread_time_ns =, threads =} */
static int l_lock_stats(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e = lmachine_engine(L, lm);

	lua_createtable(L, 0, NR_LOCK_CLASSES + 2);
	for (unsigned c = 0; c < NR_LOCK_CLASSES; c++) {
		push_lock_stats(L, e, (enum lock_class_id)c);
		lua_setfield(L, -2, class_keys[c]);
	}
	set_num(L, "thread_time_ns", engine_thread_time_ns(e));
	set_int(L, "threads", (lua_Integer)engine_nr_threads(e));
	return 1;
}

/* m:lock_stat() -> /proc/lock_stat text */
static int l_lock_stat(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	GString *s = g_string_new(NULL);

	lockstat_print(lmachine_engine(L, lm), s);
	return push_gstring(L, s);
}

/* m:cpu_wait_ns(cpu) -> {zone =, pcp =, lru =, ptl =, mmap =} */
static int l_cpu_wait(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e = lmachine_engine(L, lm);
	lua_Integer cpu = luaL_checkinteger(L, 2);

	if (cpu < 0 || cpu >= (lua_Integer)lm->m->nr_cpus)
		return luaL_error(L, "cpu %d does not exist", (int)cpu);
	lua_createtable(L, 0, NR_LOCK_CLASSES);
	for (unsigned c = 0; c < NR_LOCK_CLASSES; c++)
		set_int(L, class_keys[c],
			(lua_Integer)engine_cpu_wait_ns(e, (unsigned)cpu, (enum lock_class_id)c));
	return 1;
}

static struct mm_ctx *thread_ctx_or_error(lua_State *L, const char *what)
{
	struct mm_ctx *ctx = lua_thread_ctx(L);

	if (!ctx)
		luaL_error(L, "%s: only inside a simulated thread (m:spawn)", what);
	return ctx;
}

/* mmsim.sleep(time): idle time, off the CPU. */
static int l_sleep(lua_State *L)
{
	engine_sleep(thread_ctx_or_error(L, "mmsim.sleep"), check_time(L, 1, "mmsim.sleep"));
	return 0;
}

/* mmsim.work(time): the thread's own work on its CPU. */
static int l_work(lua_State *L)
{
	engine_work(thread_ctx_or_error(L, "mmsim.work"), check_time(L, 1, "mmsim.work"));
	return 0;
}

/* mmsim.now() -> simulated ns as this thread sees it */
static int l_now(lua_State *L)
{
	struct mm_ctx *ctx = thread_ctx_or_error(L, "mmsim.now");

	lua_pushinteger(L, (lua_Integer)mm_now(ctx));
	return 1;
}

/* mmsim.time(t) -> ns: "10ms" and the like, as every time argument takes */
static int l_time(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)check_time(L, 1, "mmsim.time"));
	return 1;
}

/* mmsim.cpu() -> the CPU this thread runs on */
static int l_cpu(lua_State *L)
{
	lua_pushinteger(L, thread_ctx_or_error(L, "mmsim.cpu")->cpu);
	return 1;
}

/* A coroutine runs on the simulated thread that resumes it (or outside
 * threads if scenario code resumes it): its model calls take that
 * thread's time and locks. */
static void co_inherit_ctx(lua_State *L, lua_State *co)
{
	*(struct mm_ctx **)lua_getextraspace(co) = lua_thread_ctx(L);
}

/* coroutine.resume(co, ...), the library's own (upvalue 1) after that. */
static int co_resume(lua_State *L)
{
	lua_State *co = lua_tothread(L, 1);

	luaL_argexpected(L, co, 1, "coroutine");
	co_inherit_ctx(L, co);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* The function coroutine.wrap returns: upvalues the coroutine and the
 * library's resume; errors propagate as the library's wrap does. */
static int co_wrapped(lua_State *L)
{
	lua_State *co = lua_tothread(L, lua_upvalueindex(1));
	int nargs = lua_gettop(L);

	co_inherit_ctx(L, co);
	lua_pushvalue(L, lua_upvalueindex(2));
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_rotate(L, 1, 2);
	lua_call(L, nargs + 1, LUA_MULTRET);
	if (!lua_toboolean(L, 1)) {
		int status = lua_status(co);

		lua_settop(L, 2);
		if (status != LUA_OK && status != LUA_YIELD)
			lua_resetthread(co);    /* close its to-be-closed variables */
		if (lua_type(L, 2) == LUA_TSTRING) {
			luaL_where(L, 1);
			lua_insert(L, -2);
			lua_concat(L, 2);
		}
		return lua_error(L);
	}
	lua_remove(L, 1);
	return lua_gettop(L);
}

/* coroutine.wrap(f): upvalues the library's create and resume. */
static int co_wrap(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TFUNCTION);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 1);
	lua_call(L, 1, 1);
	lua_pushvalue(L, lua_upvalueindex(2));
	lua_pushcclosure(L, co_wrapped, 2);
	return 1;
}

void lsim_coroutines(lua_State *L)
{
	lua_getglobal(L, "coroutine");
	lua_getfield(L, -1, "create");
	lua_getfield(L, -2, "resume");
	lua_pushvalue(L, -1);
	lua_pushcclosure(L, co_resume, 1);
	lua_setfield(L, -4, "resume");
	lua_pushcclosure(L, co_wrap, 2);
	lua_setfield(L, -2, "wrap");
	lua_pop(L, 1);
}

void lsim_open(lua_State *L, int module, int methods)
{
	static const luaL_Reg machine_methods[] = {
		{ "spawn", l_spawn },
		{ "run", l_run },
		{ "lock_stats", l_lock_stats },
		{ "lock_stat", l_lock_stat },
		{ "cpu_wait_ns", l_cpu_wait },
		{ NULL, NULL },
	};
	static const luaL_Reg module_funcs[] = {
		{ "sleep", l_sleep },
		{ "work", l_work },
		{ "now", l_now },
		{ "cpu", l_cpu },
		{ "time", l_time },
		{ NULL, NULL },
	};

	module = lua_absindex(L, module);
	methods = lua_absindex(L, methods);
	lua_pushvalue(L, methods);
	luaL_setfuncs(L, machine_methods, 0);
	lua_pop(L, 1);
	lua_pushvalue(L, module);
	luaL_setfuncs(L, module_funcs, 0);
	lua_pop(L, 1);
}
