/* The simulation side of the mmsim module: simulated threads running Lua
 * functions on CPUs, running the engine, time, and lock statistics. */
#include "laux.h"
#include "lmmsimlib.h"
#include "lresults.h"

#include "models/pcp.h"
#include "models/procfs.h"
#include "sim/boot.h"
#include "sim/lockstat.h"

#include <glib.h>
#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* A simulated thread: a Lua coroutine run by an engine thread. */
struct lthread {
	lua_State *co;
	int ref;                /* keeps the coroutine alive */
	int mref;               /* and the machine's userdata */
	struct lmachine *lm;
	lua_State *L;           /* the main state, for the registry */
};

void lsim_machine_costs(lua_State *L, int t, struct engine_opts *eo)
{
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

struct engine *lmachine_engine(lua_State *L, struct lmachine *lm)
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
	machine_boot(lm->e, lm->m);
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
	/* Its tables are shared with other threads behind the engine's back. */
	engine_set_sharing(ctx, ENGINE_SHARES_STATE);
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
	check_known_keys(L, 2, keys, "spawn");
	lua_getfield(L, 2, "cpu");
	lua_Integer cpu = luaL_checkinteger(L, -1);
	if (cpu < 0 || cpu >= (lua_Integer)lm->m->nr_cpus)
		return luaL_error(L, "spawn: cpu %I does not exist (the machine has CPUs 0-%d)",
				  cpu, (int)lm->m->nr_cpus - 1);
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
	/* Not L: a thread may spawn another and end, its coroutine collected,
	 * before the other exits. */
	lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
	t->L = lua_tothread(L, -1);
	lua_pop(L, 1);
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

/* engine_run to until, timed or fast-forward: 0, or a Lua error (a
 * thread's, an interruption, a deadlock); the engine is timed again
 * afterwards either way. */
static void run_to(lua_State *L, struct lmachine *lm, uint64_t until, bool timing,
		   double ff_horizon, bool page_level)
{
	char *err = NULL;
	int rc;

	running = true;
	engine_set_timing(lm->e, timing);
	engine_set_ff_horizon(lm->e, ff_horizon);
	engine_set_page_level(lm->e, page_level);
	rc = engine_run(lm->e, until, &err);
	engine_set_timing(lm->e, true);
	running = false;
	if (lm->thread_error) {
		/* Raised once: a scenario that catches it may run on. */
		lua_pushstring(L, lm->thread_error);
		g_free(lm->thread_error);
		lm->thread_error = NULL;
		g_free(err);
		lua_error(L);
	}
	if (rc > 0)
		luaL_error(L, "run: interrupted at %I ns of simulated time",
			   (lua_Integer)engine_clock(lm->e));
	if (rc) {
		luaL_where(L, 1);
		lua_pushstring(L, err);
		g_free(err);
		lua_concat(L, 2);
		lua_error(L);
	}
}

/* Ends m:run's warm-up: an observer, so that the run goes on as it would
 * without one and the boundary falls at its time, not at the end of some
 * workload thread's time slice. */
static void warmup_timer(struct mm_ctx *ctx, void *arg)
{
	struct lmachine *lm = arg;

	engine_sleep(ctx, lm->warmup_ns);
	engine_settle(ctx);
	lm->warmup_pending = false;
	lresults_phase(lm, "measure", mm_now(ctx));
}

/* m:run() until every thread ends, m:run{until = T} or m:run{duration = D};
 * {expected_end = T} tells the progress line when an open-ended run
 * should end; {warmup = W} makes the first W of the run phase "warmup"
 * and the rest phase "measure", the summary's headline window;
 * {timing = false} fast-forwards (engine.h), in phase "fast_forward", with
 * {horizon = H} its threads' horizon (ENGINE_FF_HORIZON_NS) and {level = "page"}
 * its workloads at page level (engine_set_page_level; "object", the default,
 * steps every object). */
static int l_run(lua_State *L)
{
	static const char *const keys[] = { "until", "duration", "expected_end", "warmup",
					    "timing", "horizon", "level", NULL };
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e = lmachine_engine(L, lm);
	uint64_t until = 0, expected = 0, warmup = 0, horizon = 0;
	bool timing = true, page_level = false;

	if (lua_thread_ctx(L) || running)
		return luaL_error(L, "run: called from a simulated thread");
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		check_known_keys(L, 2, keys, "run");
		if (lua_getfield(L, 2, "until") != LUA_TNIL)
			until = check_time(L, -1, "run: until");
		if (lua_getfield(L, 2, "duration") != LUA_TNIL) {
			uint64_t d = check_time(L, -1, "run: duration");

			if (!d)
				return luaL_error(L, "run: duration 0: give a time after now");
			if (d > (uint64_t)INT64_MAX - engine_clock(e))
				return luaL_error(L, "run: duration %I ns goes past the last simulated "
						  "time, %I ns", (lua_Integer)d, (lua_Integer)INT64_MAX);
			until = engine_clock(e) + d;
		}
		if (lua_getfield(L, 2, "expected_end") != LUA_TNIL)
			expected = check_time(L, -1, "run: expected_end");
		if (lua_getfield(L, 2, "warmup") != LUA_TNIL)
			warmup = check_time(L, -1, "run: warmup");
		if (lua_getfield(L, 2, "timing") != LUA_TNIL) {
			if (!lua_isboolean(L, -1))
				return luaL_error(L, "run: 'timing' must be a boolean, got %s",
						  luaL_typename(L, -1));
			timing = lua_toboolean(L, -1);
		}
		if (lua_getfield(L, 2, "horizon") != LUA_TNIL)
			horizon = check_time(L, -1, "run: horizon");
		if (lua_getfield(L, 2, "level") != LUA_TNIL) {
			const char *level = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";

			if (strcmp(level, "page") && strcmp(level, "object"))
				return luaL_error(L, "run: 'level' must be \"object\" or \"page\", "
						  "got %s", luaL_tolstring(L, -1, NULL));
			page_level = !strcmp(level, "page");
		}
		lua_pop(L, 7);
		if (timing && page_level)
			return luaL_error(L, "run: level \"page\" is fast-forward's (timing = false)");
		if (timing && horizon)
			return luaL_error(L, "run: 'horizon' is fast-forward's (timing = false)");
		/* Both set phases; a fast-forward measures no contention anyway. */
		if (!timing && warmup)
			return luaL_error(L, "run: a fast-forward (timing = false) has no warmup");
		if (!timing && !until)
			return luaL_error(L, "run: a fast-forward (timing = false) needs 'until' "
					  "or 'duration'");
		if (!until && !expected && !warmup)
			return luaL_error(L, "run: give 'until', 'duration', 'expected_end' or "
					  "'warmup' (or no table to run until every thread ends)");
		if (warmup > (uint64_t)INT64_MAX - engine_clock(e))
			return luaL_error(L, "run: warmup %I ns goes past the last simulated "
					  "time, %I ns", (lua_Integer)warmup,
					  (lua_Integer)INT64_MAX);
		if (warmup && expected && engine_clock(e) + warmup >= expected)
			return luaL_error(L, "run: the warmup (%I ns) is at least as long as the run "
					  "(expected to end at %I ns): nothing would be measured",
					  (lua_Integer)warmup, (lua_Integer)expected);
		if (warmup && until && engine_clock(e) + warmup >= until)
			return luaL_error(L, "run: the warmup (%I ns) leaves nothing of the run to "
					  "measure (it ends at %I ns)", (lua_Integer)warmup,
					  (lua_Integer)until);
	}
	/* Threads stop only at safepoints, so a run may end past the next
	 * slice's end: that slice has nothing left to run. */
	if (until && until <= engine_clock(e)) {
		lua_pushinteger(L, (lua_Integer)engine_clock(e));
		return 1;
	}
	lresults_set_target(until ? until : expected);
	uint64_t start = engine_clock(e);

	if (warmup) {
		lresults_phase(lm, "warmup", start);
		lm->warmup_ns = warmup;
		lm->warmup_pending = true;
		engine_spawn_observer(e, "warmup", warmup_timer, lm);
	}
	if (!timing)
		lresults_phase(lm, "fast_forward", engine_clock(e));
	run_to(L, lm, until, timing, horizon ? (double)horizon : ENGINE_FF_HORIZON_NS,
	       page_level);
	/* Observers end with the last workload thread: a run with none (an
	 * idle machine's clock moved on) still passes the warm-up's end. */
	if (warmup && lm->warmup_pending && engine_clock(e) >= start + warmup) {
		lm->warmup_pending = false;
		lresults_phase(lm, "measure", start + warmup);
	}
	if (!timing)
		lresults_phase(lm, NULL, engine_clock(e));
	lua_pushinteger(L, (lua_Integer)engine_clock(e));
	return 1;
}

/* The fields of m:lock_stats()'s class tables that are counters, and
 * where struct lock_stats keeps them. */
static const struct { const char *name; size_t off; } lock_counters[] = {
	{ "acquisitions", offsetof(struct lock_stats, hold.nr) },
	{ "contentions", offsetof(struct lock_stats, wait.nr) },
	{ "con_bounces", offsetof(struct lock_stats, con_bounces) },
	{ "acq_bounces", offsetof(struct lock_stats, acq_bounces) },
	{ "wait_ns_total", offsetof(struct lock_stats, wait.total) },
	{ "hold_ns_total", offsetof(struct lock_stats, hold.total) },
};

static uint64_t lock_counter(const struct lock_stats *s, size_t i)
{
	return *(const uint64_t *)((const char *)s + lock_counters[i].off);
}

/* The class table of cls, whose waits and threads' time for shares are
 * in tt: since (NULL: the whole run) is the class figures, and
 * since_waited and since_time the waits and time, a delta starts from; a
 * delta has no minima or maxima, which cannot be taken apart. */
static void push_lock_stats(lua_State *L, const struct engine *e, enum lock_class_id cls,
			    const struct thread_time *tt, const struct lock_stats *since,
			    double since_waited, double since_time)
{
	struct lock_stats s;
	double waiting = tt->wait_ns[cls] - since_waited;

	engine_class_stats(e, cls, &s);
	lua_createtable(L, 0, 13);
	for (size_t i = 0; i < G_N_ELEMENTS(lock_counters); i++) {
		uint64_t v = lock_counter(&s, i) - (since ? lock_counter(since, i) : 0);

		set_int(L, lock_counters[i].name, (lua_Integer)v);
	}
	if (!since) {
		set_int(L, "wait_ns_min", (lua_Integer)s.wait.min);
		set_int(L, "wait_ns_max", (lua_Integer)s.wait.max);
		set_int(L, "hold_ns_min", (lua_Integer)s.hold.min);
		set_int(L, "hold_ns_max", (lua_Integer)s.hold.max);
	}
	set_num(L, "waiting_ns", waiting);
	set_num(L, "wait_share", time_share(waiting, tt->ns - since_time));
}

/* The lock classes' keys in m:lock_stats() and m:cpu_wait_ns(). */
static const char *const class_keys[NR_LOCK_CLASSES] = {
	[LOCK_CLASS_ZONE] = "zone",
	[LOCK_CLASS_PCP] = "pcp",
	[LOCK_CLASS_LRU] = "lru",
	[LOCK_CLASS_PTL] = "ptl",
	[LOCK_CLASS_MMAP] = "mmap",
};

#define SINCE_USAGE "lock_stats: 'since' is an earlier m:lock_stats() result or a phase name"

/* The figures of an earlier m:lock_stats() result at index t. */
static void since_table(lua_State *L, int t, struct lock_stats *st, double *waited, double *time)
{
	for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
		memset(&st[c], 0, sizeof(st[c]));
		/* A delta's thread time would not be the run's. */
		if (lua_getfield(L, t, class_keys[c]) != LUA_TTABLE ||
		    lua_getfield(L, -1, "wait_ns_max") == LUA_TNIL)
			luaL_error(L, SINCE_USAGE " (a result without 'since', with its '%s' "
				   "table)", class_keys[c]);
		lua_pop(L, 1);
		for (size_t i = 0; i < G_N_ELEMENTS(lock_counters); i++) {
			int isnum;
			lua_Integer v = (lua_getfield(L, -1, lock_counters[i].name),
					 lua_tointegerx(L, -1, &isnum));

			if (!isnum || v < 0)
				luaL_error(L, SINCE_USAGE " ('%s.%s' is not a count)",
					   class_keys[c], lock_counters[i].name);
			*(uint64_t *)((char *)&st[c] + lock_counters[i].off) = (uint64_t)v;
			lua_pop(L, 1);
		}
		if (lua_getfield(L, -1, "waiting_ns") != LUA_TNUMBER || lua_tonumber(L, -1) < 0)
			luaL_error(L, SINCE_USAGE " ('%s.waiting_ns' is not a time)", class_keys[c]);
		waited[c] = lua_tonumber(L, -1);
		lua_pop(L, 2);
	}
	if (lua_getfield(L, t, "thread_time_ns") != LUA_TNUMBER)
		luaL_error(L, SINCE_USAGE " (no 'thread_time_ns')");
	*time = lua_tonumber(L, -1);
	lua_pop(L, 1);
}

/* m:lock_stats([{since =}]) -> {zone = {...}, pcp = {...}, lru =, ptl =, mmap =,
 * thread_time_ns =, threads =, time_ns =}: the whole run's figures, or the counters and
 * shares since an earlier result or the start of a phase's last span. */
static int l_lock_stats(lua_State *L)
{
	static const char *const keys[] = { "since", NULL };
	struct lmachine *lm = check_lmachine(L, 1);
	struct engine *e = lmachine_engine(L, lm);
	struct lock_stats since[NR_LOCK_CLASSES];
	double since_waited[NR_LOCK_CLASSES] = { 0 };
	double since_time = 0;
	struct thread_time tt;
	bool delta = false;

	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		check_known_keys(L, 2, keys, "lock_stats");
		lua_getfield(L, 2, "since");
		if (lua_type(L, -1) == LUA_TSTRING) {
			const char *name = lua_tostring(L, -1);

			for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++)
				if (!lresults_since_phase(name, c, &since[c], &since_waited[c],
							  &since_time))
					return luaL_error(L, "lock_stats: no phase '%s' has "
							  "begun", name);
			delta = true;
		} else if (lua_istable(L, -1)) {
			since_table(L, lua_gettop(L), since, since_waited, &since_time);
			delta = true;
		} else if (!lua_isnil(L, -1)) {
			return luaL_error(L, SINCE_USAGE ", not a %s", luaL_typename(L, -1));
		}
		lua_pop(L, 1);
	}
	engine_thread_time(e, &tt);
	lua_createtable(L, 0, NR_LOCK_CLASSES + 3);
	for (enum lock_class_id c = 0; c < NR_LOCK_CLASSES; c++) {
		push_lock_stats(L, e, c, &tt, delta ? &since[c] : NULL, since_waited[c], since_time);
		lua_setfield(L, -2, class_keys[c]);
	}
	set_num(L, "thread_time_ns", tt.ns - since_time);
	set_int(L, "threads", (lua_Integer)engine_nr_threads(e));
	set_int(L, "time_ns", (lua_Integer)engine_clock(e));
	set_int(L, "simgrid_calls", (lua_Integer)engine_simgrid_calls(e));
	set_int(L, "lock_records", (lua_Integer)engine_lock_records(e));
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
		return luaL_error(L, "cpu %I does not exist (the machine has CPUs 0-%d)", cpu,
				  (int)lm->m->nr_cpus - 1);
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

/* mmsim.horizon() -> ns the threads of this run may run apart: fast-forward's
 * horizon, 0 in a timed run */
static int l_horizon(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)engine_ff_horizon(thread_ctx_or_error(L, "mmsim.horizon")));
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

/* mmsim.migrate_thread(cpu): the thread moves to that CPU and runs there
 * from now on (its allocations, pagesets and node follow). */
static int l_migrate_thread(lua_State *L)
{
	struct mm_ctx *ctx = thread_ctx_or_error(L, "mmsim.migrate_thread");
	lua_Integer cpu = luaL_checkinteger(L, 1);
	unsigned nr_cpus;

	if (!engine_migrate_thread(ctx, cpu, &nr_cpus))
		return luaL_error(L, "mmsim.migrate_thread: cpu %I does not exist (the machine has "
				  "CPUs 0-%d)", cpu, (int)nr_cpus - 1);
	return 0;
}

/* A coroutine runs on the simulated thread that resumes it (or outside
 * threads if scenario code resumes it): its model calls take that
 * thread's time and locks. */
static void co_inherit_ctx(lua_State *L, lua_State *co)
{
	lua_Debug ar;

	/* Only a coroutine the resume will run: one running or asleep inside
	 * another thread stays that thread's, and the resume fails. */
	if (lua_status(co) == LUA_YIELD ||
	    (lua_status(co) == LUA_OK && !lua_getstack(co, 0, &ar) && lua_gettop(co) > 0))
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

/* m:nodes() -> array, one table per node: its pages by holder (node_meminfo),
 * pageblocks by migratetype, gb_yield as m:gb_yield{node =} gives it, and its
 * zones' zone->lock figures over the whole run. */
static int l_nodes(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct machine *m = lm->m;
	static const struct lfield fields[] = {
		LFIELD(struct node_meminfo, managed), LFIELD(struct node_meminfo, free),
		LFIELD(struct node_meminfo, pcp), LFIELD(struct node_meminfo, anon),
		LFIELD(struct node_meminfo, file), LFIELD(struct node_meminfo, pgtable),
		LFIELD(struct node_meminfo, slab), LFIELD(struct node_meminfo, kernel),
		LFIELD(struct node_meminfo, hugetlb), LFIELD(struct node_meminfo, reserved),
	};

	lua_createtable(L, (int)m->nr_nodes, 0);
	for (unsigned nid = 0; nid < m->nr_nodes; nid++) {
		struct lock_stats zl = { 0 };
		struct node_meminfo mi;

		node_meminfo(m, (int)nid, &mi);
		lua_createtable(L, 0, G_N_ELEMENTS(fields) + 4);
		set_int(L, "node", nid);
		set_fields(L, &mi, fields, G_N_ELEMENTS(fields));
		lua_createtable(L, 0, MIGRATE_TYPES);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			set_int(L, migratetype_names[mt], (lua_Integer)mi.pageblocks[mt]);
		lua_setfield(L, -2, "pageblocks");
		lua_getfield(L, 1, "gb_yield");
		lua_pushvalue(L, 1);
		lua_createtable(L, 0, 1);
		set_int(L, "node", nid);
		lua_call(L, 2, 1);
		lua_setfield(L, -2, "gb_yield");
		for_each_populated_zone(m, z) {
			struct lock_stats ls;

			if (z->node != nid || !engine_lock_stats(&z->lock, &ls))
				continue;
			zl.hold.nr += ls.hold.nr;
			zl.wait.nr += ls.wait.nr;
			zl.wait.total += ls.wait.total;
		}
		lua_createtable(L, 0, 3);
		set_int(L, "acquisitions", (lua_Integer)zl.hold.nr);
		set_int(L, "contentions", (lua_Integer)zl.wait.nr);
		set_int(L, "wait_ns", (lua_Integer)zl.wait.total);
		lua_setfield(L, -2, "zone_lock");
		lua_seti(L, -2, nid + 1);
	}
	return 1;
}

void lsim_open(lua_State *L, int module, int methods)
{
	static const luaL_Reg machine_methods[] = {
		{ "spawn", l_spawn },
		{ "run", l_run },
		{ "lock_stats", l_lock_stats },
		{ "lock_stat", l_lock_stat },
		{ "cpu_wait_ns", l_cpu_wait },
		{ "nodes", l_nodes },
		{ NULL, NULL },
	};
	static const luaL_Reg module_funcs[] = {
		{ "sleep", l_sleep },
		{ "work", l_work },
		{ "now", l_now },
		{ "horizon", l_horizon },
		{ "cpu", l_cpu },
		{ "migrate_thread", l_migrate_thread },
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
