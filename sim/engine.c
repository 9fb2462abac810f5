/* Threads, simulated time and the SimGrid platform.  Locks are in
 * spinlock.c; engine.h explains the time model. */
#include "engine_impl.h"
#include "spb_walk.h"
#include "sim/host.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xbt/config.h>
#include <xbt/log.h>

/* Each thread's stack, in KiB: enough for Lua's deepest nesting of C calls
 * (LUAI_MAXCCALLS, 200: string.gsub callbacks recursing in a thread need
 * about 450 KiB before Lua stops them with "C stack overflow"), twice
 * over; AddressSanitizer's frames are bigger.  SimGrid puts a guard page
 * below each stack; only the pages used cost memory. */
#ifdef __SANITIZE_ADDRESS__
#define ENGINE_STACK_KIB 4096
#else
#define ENGINE_STACK_KIB 1024
#endif

/* SimGrid can load one platform per process. */
static bool engine_created;

void engine_opts_default(struct engine_opts *o)
{
	o->quantum_ns = ENGINE_DEFAULT_QUANTUM_NS;
	o->horizon_ns = ENGINE_DEFAULT_HORIZON_NS;
	o->hints = true;
	costs_default(&o->costs);
}

const char *lock_class_name(enum lock_class_id cls)
{
	static const char *const names[NR_LOCK_CLASSES] = {
		[LOCK_CLASS_ZONE] = "&zone->lock",
		[LOCK_CLASS_PCP] = "&pcp->lock",
		[LOCK_CLASS_LRU] = "&lruvec->lru_lock",
		/* Split PTE locks: lockdep names their class after the
		 * initialising expression (ptlock_init). */
		[LOCK_CLASS_PTL] = "ptlock_ptr(ptdesc)",
		[LOCK_CLASS_MMAP] = "&mm->mmap_lock",
	};

	return names[cls];
}

/* Settles shorter than this (ns) always sleep in SimGrid, which rounds
 * sleeps up to its timing precision (1e-9). */
#define SETTLE_UNSEEN_MIN_NS 1e-3
/* How close to another event a settle's end counts as simultaneous
 * (SimGrid's sg_precision_timing, 1e-9, with room). */
#define SETTLE_EVENT_EPS_NS 1e-6

static bool thread_alive(const struct sim_thread *t)
{
	return t->state == THREAD_NEW || t->state == THREAD_RUNNING;
}

/* Whether no other thread can run, and the run cannot end, before t's
 * settle would end at at: a SimGrid sleep would then resume t at at with
 * nothing changed meanwhile, so t's clock moves to at without it.  The
 * SimGrid clock stays behind until t's next SimGrid call, which sleeps
 * the difference first (thread_catch_up); at <= 2 * sg_clock keeps that
 * difference exact (Sterbenz), so SimGrid's clock then lands exactly on
 * t's.  Only while t is the one workload thread alive (its company the
 * kernel threads and samplers): with two or more, another one nearly
 * always wakes within the settle (a 8-CPU jemalloc churn: 67 of 22,623
 * SimGrid calls saved), and looking for it cost more than that saved. */
static bool settle_unseen(struct engine *e, const struct sim_thread *t, double at)
{
	double by = at + SETTLE_EVENT_EPS_NS;

	if (e->nr_workload_alive > 1 || at - t->clock < SETTLE_UNSEEN_MIN_NS ||
	    at > 2 * t->sg_clock || by >= e->sg_until)
		return false;
	/* The thread that stopped the last one most often stops this one. */
	if (e->waker && e->waker != t && e->waker->wake_at <= by && thread_alive(e->waker))
		return false;
	for (unsigned i = 0; i < e->threads->len; i++) {
		struct sim_thread *u = e->threads->pdata[i];

		if (u != t && u->wake_at <= by && thread_alive(u)) {
			e->waker = u;
			return false;
		}
	}
	return true;
}

void thread_settle(struct sim_thread *t)
{
	double debt = t->debt;
	double at;

	if (debt <= 0)
		return;
	t->debt = 0;
	at = t->clock + debt;
	if (settle_unseen(t->e, t, at)) {
		t->clock = at;
		thread_limit_reset(t);
		return;
	}
	thread_yield_begin(t);
	t->wake_at = at;
	sg_actor_sleep_for(debt);
	thread_yield_end(t);
}

void thread_catch_up(struct sim_thread *t)
{
	t->e->nr_simgrid_calls++;
	t->e->running = NULL;
	t->wake_at = t->clock;
	sg_actor_sleep_for(t->clock - t->sg_clock);
	t->sg_clock = simgrid_get_clock();
	t->e->running = t;
	if (G_UNLIKELY(t->sg_clock != t->clock))
		g_error("thread %s: SimGrid's clock %.17g after catching up, not %.17g", t->name,
			t->sg_clock, t->clock);
}

/* SimGrid calls that do not go through thread_yield_begin. */
static void thread_sync(struct sim_thread *t)
{
	if (t->clock != t->sg_clock)
		thread_catch_up(t);
}

/* The running thread's settled time, or the SimGrid clock in maestro. */
static double engine_now_ns(const struct engine *e)
{
	return e->running ? e->running->clock : MIN(simgrid_get_clock(), e->interrupted_at);
}

/* The debt t settles at: the quantum while it holds a shared lock (others
 * may queue for it), else the horizon; in fast-forward the horizon, but
 * never with a spinlock held, so that nobody ever finds one held. */
static double settle_limit(const struct sim_thread *t)
{
	const struct engine *e = t->e;

	if (!e->timing)
		return t->nr_held ? INFINITY : e->ff_horizon;
	if (!t->local || !e->quantum || t->nr_held + t->nr_sleeping_held > t->nr_private_held)
		return e->quantum;
	/* Not with a private lock held: taken ahead, it would be seen held
	 * by threads asking before that (a pageset section is short). */
	if (t->nr_private_held)
		return INFINITY;
	return e->horizon;
}

/* t->local from its sharing and bulk calls; turning it off settles a
 * debt of a quantum or more. */
static void thread_update_local(struct sim_thread *t)
{
	bool local = t->e->hints && (t->sharing == ENGINE_SHARES_NOTHING || t->bulk);

	if (local == t->local)
		return;
	t->local = local;
	thread_limit_reset(t);
	if (t->debt >= settle_limit(t))
		thread_settle(t);
}

void engine_set_sharing(struct mm_ctx *ctx, enum engine_sharing sharing)
{
	struct sim_thread *t = ctx_thread(ctx);

	t->sharing = sharing;
	thread_update_local(t);
}

bool engine_hints(const struct mm_ctx *ctx)
{
	return ((const struct sim_thread *)ctx->engine)->e->hints;
}

static void engine_bulk(struct mm_ctx *ctx, bool begin)
{
	struct sim_thread *t = ctx_thread(ctx);

	if (begin)
		t->bulk++;
	else
		t->bulk--;
	thread_update_local(t);
}

/* The debt at which t must settle or may be preempted, from its state now
 * and its settle_limit. */
static double debt_limit(const struct sim_thread *t, double limit)
{
	const struct cpu_rq *rq = &t->e->rq[t->ctx.cpu];

	if (rq->first && t->on_cpu && !t->nr_held)
		limit = MIN(limit, rq->slice_start + t->e->slice - t->clock);
	return limit;
}

void thread_limit_update(struct sim_thread *t)
{
	t->limit = debt_limit(t, settle_limit(t));
}

static void thread_add_debt(struct sim_thread *t, double ns)
{
	double settle_at;

	t->debt += ns;
	if (G_LIKELY(t->debt < t->limit))
		return;
	/* Neither the settle nor a preemption changes what it reads. */
	settle_at = settle_limit(t);
	if (t->debt >= settle_at)
		thread_settle(t);
	cpu_preempt_check(t);
	t->limit = debt_limit(t, settle_at);
}

static void engine_charge(struct mm_ctx *ctx, enum mm_cost kind, unsigned long count)
{
	struct sim_thread *t = ctx_thread(ctx);

	thread_add_debt(t, (double)count * t->e->costs.ns[kind]);
}

static void engine_touch(struct mm_ctx *ctx, struct cacheline *cl)
{
	struct sim_thread *t = ctx_thread(ctx);
	double ns = cacheline_ns(t->e, cl->last_cpu, ctx->cpu);

	cl->last_cpu = (int32_t)ctx->cpu;
	thread_add_debt(t, ns);
}

static uint64_t engine_now(struct mm_ctx *ctx)
{
	struct sim_thread *t = ctx_thread(ctx);

	return (uint64_t)(t->clock + t->debt);
}

static void engine_spb_section(struct mm_ctx *ctx, enum lock_site site, const struct mm_work *w)
{
	struct sim_thread *t = ctx_thread(ctx);

	t->spb_section = true;
	t->spb_site = site;
	t->spb_work = *w;
}

void engine_spb_section_end(struct sim_thread *t)
{
	struct engine *e = t->e;

	if (G_UNLIKELY(!e->spb_walk))
		e->spb_walk = g_new0(struct spb_walk_stats, 1);
	spb_walk_record(e->spb_walk, t->spb_site, &t->spb_work);
	t->spb_section = false;
}

static void engine_schedule_timeout(struct mm_ctx *ctx, uint64_t ns)
{
	if (ns)
		engine_sleep(ctx, ns);
	engine_settle(ctx);
}

/* One looker is enough: the kernel threads of CPU 0. */
static bool engine_kthread_should_stop(struct mm_ctx *ctx)
{
	if (ctx->cpu || !engine_stalled(ctx_thread(ctx)->e))
		return false;
	engine_stop(ctx);
	return true;
}

const struct mm_env engine_env = {
	.charge = engine_charge,
	.touch = engine_touch,
	.lock = engine_lock,
	.trylock = engine_trylock,
	.unlock = engine_unlock,
	.now = engine_now,
	.cond_resched = engine_safepoint,
	.spb_section = engine_spb_section,
	.schedule_timeout = engine_schedule_timeout,
	.kthread_should_stop = engine_kthread_should_stop,
	.bulk = engine_bulk,
};

/* Set from a signal handler: every engine stops at its threads' next
 * safepoints. */
static volatile sig_atomic_t interrupted;

void engine_interrupt(void)
{
	interrupted = 1;
}

bool engine_interrupted(void)
{
	return interrupted;
}

static bool stopping(const struct engine *e)
{
	return e->stop || interrupted;
}

/* t waits for a lock, or for a CPU whose thread waits for one. */
static bool thread_stuck(const struct sim_thread *t)
{
	const struct sim_thread *curr = t->e->rq[t->ctx.cpu].curr;

	return t->blocked_on || (t->queued && curr && curr->blocked_on);
}

/* Threads other than self not at a safepoint, and how many of them are
 * stuck on a lock. */
static unsigned unsafe_threads(const struct engine *e, const struct sim_thread *self,
			       unsigned *blocked)
{
	unsigned n = 0;

	*blocked = 0;
	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];

		if (t == self || t->state != THREAD_RUNNING || t->safe)
			continue;
		n++;
		*blocked += thread_stuck(t);
	}
	return n;
}

/* A stop ends the run as soon as every thread is at a safepoint, without
 * waiting for sleeping ones to wake: the last thread to get there ends
 * the others (SimGrid then ends it, the only one left and parked). */
static void stop_if_all_safe(struct sim_thread *self)
{
	unsigned blocked;

	if (stopping(self->e) && !unsafe_threads(self->e, self, &blocked)) {
		thread_sync(self);
		if (interrupted)
			self->e->interrupted_at = MIN(self->e->interrupted_at, simgrid_get_clock());
		sg_actor_kill_all();
	}
}

/* Park t if the run stops here.  A stop's park waits for good, so that
 * SimGrid ends the run once every thread has parked; a park at stop_at
 * keeps a timer so that it never looks like a deadlock. */
static void safepoint(struct sim_thread *t)
{
	struct engine *e = t->e;
	bool had_cpu;

	if (!stopping(e) && t->clock + t->debt < e->stop_at)
		return;
	thread_settle(t);
	if (!stopping(e) && t->clock < e->stop_at)
		return;
	t->parked = true;
	/* Threads preempted in a model call run on to their safepoints. */
	had_cpu = t->on_cpu;
	cpu_release(t);
	stop_if_all_safe(t);
	thread_yield_begin(t);
	t->wake_at = INFINITY;
	while (t->parked) {
		if (stopping(e))
			sg_sem_acquire(t->park);
		else
			sg_sem_acquire_timeout(t->park, 1e18);
	}
	thread_yield_end(t);
	if (had_cpu)
		cpu_acquire(t);
}

void engine_safepoint(struct mm_ctx *ctx)
{
	struct sim_thread *t = ctx_thread(ctx);

	t->safe = true;
	safepoint(t);
	t->safe = false;
}

void engine_work(struct mm_ctx *ctx, uint64_t ns)
{
	struct sim_thread *t = ctx_thread(ctx);
	double left = (double)ns;

	t->safe = true;
	/* A slice at a time, so that the CPU's other threads get their turns. */
	for (; left > t->e->slice; left -= t->e->slice)
		thread_add_debt(t, t->e->slice);
	thread_add_debt(t, left);
	safepoint(t);
	t->safe = false;
}

void engine_sleep(struct mm_ctx *ctx, uint64_t ns)
{
	struct sim_thread *t = ctx_thread(ctx);

	if (t->nr_held)
		g_error("CPU %u (thread %s) sleeps holding %u spinlock(s)", ctx->cpu, t->name,
			t->nr_held);
	t->safe = true;
	cpu_release(t);
	t->debt += (double)ns;
	/* Asleep, it must not hold the CPU: a sleep left as debt would take
	 * the CPU back at once, and a thread of the same CPU waking meanwhile
	 * would queue behind the sleeper until its next turn ended (the page
	 * cache readers lost 17% of their reads behind the kmem replay at a
	 * 4 ms horizon). */
	thread_settle(t);
	safepoint(t);
	cpu_acquire(t);
	t->safe = false;
}

void engine_settle(struct mm_ctx *ctx)
{
	struct sim_thread *t = ctx_thread(ctx);

	t->safe = true;
	thread_settle(t);
	safepoint(t);
	t->safe = false;
}

void engine_request_stop(struct engine *e)
{
	e->stop = true;
	if (e->running)
		stop_if_all_safe(e->running);
}

uint64_t engine_clock(struct engine *e)
{
	return (uint64_t)engine_now_ns(e);
}

void engine_set_timing(struct engine *e, bool timing)
{
	e->timing = timing;
	if (timing)
		e->page_level = false;
	for (unsigned i = 0; i < e->threads->len; i++)
		thread_limit_reset(e->threads->pdata[i]);
}

void engine_set_ff_horizon(struct engine *e, double ns)
{
	e->ff_horizon = MAX(e->horizon, ns);
	for (unsigned i = 0; i < e->threads->len; i++)
		thread_limit_reset(e->threads->pdata[i]);
}

bool engine_timing(const struct engine *e)
{
	return e->timing;
}

void engine_set_page_level(struct engine *e, bool page_level)
{
	g_assert(!page_level || !e->timing);
	e->page_level = page_level;
}

bool engine_page_level(const struct mm_ctx *ctx)
{
	return ((const struct sim_thread *)ctx->engine)->e->page_level;
}

uint64_t engine_ff_horizon(const struct mm_ctx *ctx)
{
	const struct engine *e = ((const struct sim_thread *)ctx->engine)->e;

	return e->timing ? 0 : (uint64_t)e->ff_horizon;
}

unsigned engine_lock_records(const struct engine *e)
{
	return e->locks->len;
}

uint64_t engine_simgrid_calls(const struct engine *e)
{
	return e->nr_simgrid_calls;
}

/* One host per CPU, named cpuN.  The C API cannot create hosts, so the
 * platform goes through a file; routing="None" keeps 1000 hosts cheap. */
static char *load_platform(unsigned nr_cpus)
{
	GString *xml = g_string_new("<?xml version='1.0'?>\n"
				    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
				    "<platform version=\"4.1\">\n<zone id=\"mmsim\" routing=\"None\">\n");
	GError *gerr = NULL;
	char *path = NULL;
	char *msg = NULL;
	int fd;

	for (unsigned cpu = 0; cpu < nr_cpus; cpu++)
		g_string_append_printf(xml, "  <host id=\"cpu%u\" speed=\"1f\"/>\n", cpu);
	g_string_append(xml, "</zone>\n</platform>\n");
	fd = g_file_open_tmp("mmsim-platform-XXXXXX.xml", &path, &gerr);
	if (fd >= 0) {
		close(fd);
		g_file_set_contents(path, xml->str, (gssize)xml->len, &gerr);
	}
	if (gerr) {
		msg = g_strdup_printf("cannot write the SimGrid platform file: %s", gerr->message);
		g_error_free(gerr);
	} else {
		simgrid_load_platform(path);
	}
	if (path)
		unlink(path);
	g_free(path);
	g_string_free(xml, TRUE);
	return msg;
}

static char *check_opts(const struct topology *t, const struct engine_opts *o)
{
	if (topology_nr_cpus(t) == 0 || topology_nr_cpus(t) > MAX_CPUS)
		return g_strdup_printf("the machine has %u CPUs; the engine needs 1 to %d",
				       topology_nr_cpus(t), MAX_CPUS);
	if (!isfinite(o->quantum_ns) || o->quantum_ns < 0)
		return g_strdup_printf("quantum %g ns: it must be 0 or more", o->quantum_ns);
	if (!isfinite(o->horizon_ns) || o->horizon_ns < 0)
		return g_strdup_printf("horizon %g ns: it must be 0 or more", o->horizon_ns);
	for (unsigned i = 0; i < NR_COST_PARAMS; i++)
		if (!isfinite(o->costs.ns[i]) || o->costs.ns[i] < 0)
			return g_strdup_printf("cost %s is %g ns: it must be 0 or more",
					       costs_name(i), o->costs.ns[i]);
	return NULL;
}

/* The long a /proc file holds, or -1. */
static long proc_long(const char *path)
{
	char *text = NULL;
	long v = -1;

	if (g_file_get_contents(path, &text, NULL, NULL))
		v = strtol(text, NULL, 10);
	g_free(text);
	return v;
}

/* How many threads may be alive at once on this host.  Each one's stack
 * is a mapping and its guard page splits it in two, so the kernel's
 * vm.max_map_count (65530 by default) allows about half that many, less
 * the mappings in use; and each thread touches some 64 KiB of memory
 * (stack pages, its Lua coroutine), which the memory mmsim may use bounds
 * (host_memory: physical memory or the cgroup's limit).  Not MemAvailable:
 * it reads what other processes hold at that moment, and a sweep's runs
 * once saw "10 MiB of memory is available" and refused a run that fitted
 * (MMSIM_HOST_ROOT: another root for the files, tests). */
#define THREAD_TOUCHED_KIB 64
static void thread_limit(struct engine *e)
{
	long maps = proc_long("/proc/sys/vm/max_map_count");
	char *what = NULL;
	uint64_t mem_kib = host_memory(g_getenv("MMSIM_HOST_ROOT") ? g_getenv("MMSIM_HOST_ROOT") :
				       "", &what) >> 10;
	char *in_use = NULL;
	long used = 0;

	if (g_file_get_contents("/proc/self/maps", &in_use, NULL, NULL))
		for (const char *c = in_use; *c; c++)
			used += *c == '\n';
	g_free(in_use);
	e->max_alive = UINT_MAX;
	if (maps > 0) {
		/* Room for the mappings the run itself makes (libraries, heap). */
		long n = (maps - used - 1024) / 2;

		e->max_alive = n > 0 ? (unsigned)n : 0;
		e->limit_reason = g_strdup_printf("vm.max_map_count is %ld and each thread's "
						  "stack takes 2 mappings", maps);
	}
	if (mem_kib > 0 && mem_kib / THREAD_TOUCHED_KIB < e->max_alive) {
		e->max_alive = (unsigned)(mem_kib / THREAD_TOUCHED_KIB);
		g_free(e->limit_reason);
		e->limit_reason = g_strdup_printf("%" G_GUINT64_FORMAT " MiB of memory, %s, and "
						  "each thread needs about %d KiB", mem_kib >> 10,
						  what, THREAD_TOUCHED_KIB);
	}
	g_free(what);
}

char *engine_spawn_check(const struct engine *e)
{
	if (e->nr_alive < e->max_alive)
		return NULL;
	return g_strdup_printf("%u threads alive at once is this host's limit (%s); end some "
			       "threads first", e->max_alive, e->limit_reason);
}

struct engine *engine_create(const struct topology *t, const struct engine_opts *o, char **err)
{
	static char prog[] = "mmsim";
	char *argv[] = { prog, NULL };
	int argc = 1;
	struct engine *e;

	if (engine_created) {
		*err = g_strdup("a SimGrid engine already ran in this process; "
				"SimGrid loads one platform per process");
		return NULL;
	}
	*err = check_opts(t, o);
	if (*err)
		return NULL;
	engine_created = true;

	/* Before simgrid_init so that its own configuration messages are
	 * quiet too.  ker_engine's deadlock report goes away: engine_run
	 * reports deadlocks itself, naming CPUs and locks. */
	xbt_log_control_set("root.thresh:warning ker_engine.app:file:/dev/null");
	/* SimGrid's SIGINT handler exits on the spot; the program's own
	 * (engine_interrupt) stops the run at safepoints. */
	struct sigaction sigint, sigterm;
	sigaction(SIGINT, NULL, &sigint);
	sigaction(SIGTERM, NULL, &sigterm);
	simgrid_init(&argc, argv);
	sigaction(SIGINT, &sigint, NULL);
	sigaction(SIGTERM, &sigterm, NULL);
	sg_cfg_set_int("contexts/stack-size", ENGINE_STACK_KIB);
	sg_cfg_set_int("contexts/nthreads", 1);

	e = g_new0(struct engine, 1);
	e->nr_cpus = topology_nr_cpus(t);
	e->quantum = o->quantum_ns;
	/* Quantum 0 is exact: everything settles at once. */
	e->horizon = o->quantum_ns ? MAX(o->horizon_ns, o->quantum_ns) : 0;
	e->ff_horizon = MAX(e->horizon, ENGINE_FF_HORIZON_NS);
	e->interrupted_at = INFINITY;
	e->timing = true;
	e->hints = o->hints;
	e->costs = o->costs;
	*err = load_platform(e->nr_cpus);
	if (*err) {
		g_free(e);
		return NULL;
	}
	e->hosts = g_new(sg_host_t, e->nr_cpus);
	e->cpu_socket = g_new(unsigned, e->nr_cpus);
	e->rq = g_new0(struct cpu_rq, e->nr_cpus);
	e->slice = sched_slice_ns(e->nr_cpus);
	for (unsigned cpu = 0; cpu < e->nr_cpus; cpu++) {
		char name[16];

		/* Not sg_host_list(): it is sorted by name (cpu10 < cpu2). */
		snprintf(name, sizeof(name), "cpu%u", cpu);
		e->hosts[cpu] = sg_host_by_name(name);
		e->cpu_socket[cpu] = topology_node_to_socket(t, topology_cpu_to_node(t, cpu));
	}
	e->threads = g_ptr_array_new();
	e->locks = g_ptr_array_new();
	mm_set_lock_release(engine_lock_release);
	e->cpu_wait = g_new0(uint64_t, (gsize)NR_LOCK_CLASSES * e->nr_cpus);
	thread_limit(e);
	return e;
}

/* Runs at every thread end: normal (failed == 0) or killed. */
static void thread_exited(int failed, void *data)
{
	struct sim_thread *t = data;

	t->e->nr_alive--;
	t->e->nr_workload_alive -= !t->daemon;
	cpu_forget(t);
	if (failed) {
		/* One a stop ended at its safepoint: not a deadlock. */
		t->state = t->safe ? THREAD_DONE : THREAD_KILLED;
		t->end = simgrid_get_clock();
	}
	if (t->on_exit)
		t->on_exit(t->arg);
}

static void thread_main(int argc, char **argv)
{
	struct sim_thread *t = sg_actor_self_get_data();

	(void)argc, (void)argv;
	sg_actor_on_exit(thread_exited, t);
	if (t->daemon)
		sg_actor_daemonize(sg_actor_self());
	thread_yield_end(t);
	/* Its life starts at its spawn, whenever its CPU is free. */
	t->start = t->clock;
	cpu_acquire(t);
	t->state = THREAD_RUNNING;
	t->fn(&t->ctx, t->arg);
	if (t->nr_held + t->nr_sleeping_held)
		g_error("thread %s on CPU %u returned holding %u spinlock(s)", t->name,
			t->ctx.cpu, t->nr_held + t->nr_sleeping_held);
	/* Its last work counts in the run's time. */
	t->safe = true;
	thread_settle(t);
	/* The run's time is where the last thread ends. */
	thread_sync(t);
	t->end = t->clock;
	t->state = THREAD_DONE;
	cpu_release(t);
	t->e->running = NULL;
}

static void spawn(struct engine *e, unsigned cpu, const char *name, engine_thread_fn fn,
		  void *arg, void (*on_exit)(void *arg), bool daemon, bool observer)
{
	struct sim_thread *parent = e->running;
	struct sim_thread *t;
	sg_actor_t actor;

	if (cpu >= e->nr_cpus)
		g_error("engine_spawn: CPU %u does not exist (the machine has %u CPUs)", cpu,
			e->nr_cpus);
	t = g_new0(struct sim_thread, 1);
	t->ctx = (struct mm_ctx){ .env = &engine_env, .cpu = cpu, .engine = t,
				  .cost_ns = e->costs.ns, .debt = &t->debt, .limit = &t->limit,
				  .clock = &t->clock };
	t->e = e;
	t->name = name ? g_strdup(name) : g_strdup_printf("cpu%u", cpu);
	t->fn = fn;
	t->arg = arg;
	t->on_exit = on_exit;
	t->wake = sg_sem_init(0);
	t->park = sg_sem_init(0);
	t->run = sg_sem_init(0);
	t->observer = observer;
	t->local = e->hints;
	t->wake_at = -INFINITY;
	thread_limit_reset(t);
	t->state = THREAD_NEW;
	t->daemon = daemon;
	g_ptr_array_add(e->threads, t);
	e->nr_alive++;
	e->nr_workload_alive += !daemon;

	/* The child starts at its parent's simulated time. */
	if (parent) {
		thread_settle(parent);
		thread_yield_begin(parent);
	}
	actor = sg_actor_init(t->name, e->hosts[cpu]);
	sg_actor_set_data(actor, t);
	sg_actor_start(actor, thread_main, 0, NULL);
	if (parent)
		thread_yield_end(parent);
}

void engine_spawn(struct engine *e, unsigned cpu, const char *name, engine_thread_fn fn,
		  void *arg, void (*on_exit)(void *arg))
{
	spawn(e, cpu, name, fn, arg, on_exit, false, false);
}

void engine_spawn_daemon(struct engine *e, unsigned cpu, const char *name, engine_thread_fn fn,
			 void *arg)
{
	spawn(e, cpu, name, fn, arg, NULL, true, false);
}

void engine_spawn_observer(struct engine *e, const char *name, engine_thread_fn fn, void *arg)
{
	spawn(e, 0, name, fn, arg, NULL, true, true);
}

/* A deadlock: SimGrid found every actor blocked and killed them, or every
 * thread still alive at until_ns waits for a lock. */
static bool deadlocked(const struct engine *e)
{
	unsigned alive = 0, blocked = 0;

	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];

		/* Daemons are killed when the last workload thread ends. */
		if (t->daemon)
			continue;
		if (t->state == THREAD_KILLED)
			return true;
		if (t->state == THREAD_DONE)
			continue;
		alive++;
		if (thread_stuck(t))
			blocked++;
	}
	return alive && blocked == alive;
}

bool engine_stalled(const struct engine *e)
{
	return deadlocked(e);
}

void engine_stop(struct mm_ctx *ctx)
{
	thread_settle(ctx_thread(ctx));
	thread_sync(ctx_thread(ctx));
	sg_actor_kill_all();
}

/* Nothing happened since the last thread blocked or ended. */
static double deadlock_time(const struct engine *e)
{
	double at = 0;

	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];

		if (t->blocked_on)
			at = MAX(at, t->blocked_since);
		else if (t->state == THREAD_DONE)
			at = MAX(at, t->end);
	}
	return at;
}

static char *deadlock_report(const struct engine *e)
{
	GString *s = g_string_new(NULL);
	const char *sep = "";

	g_string_printf(s, "deadlock at t=%.0f ns:", deadlock_time(e));
	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];
		const struct sim_thread *holder;
		char *lock;

		if (!t->blocked_on)
			continue;
		holder = t->blocked_on->holder;
		lock = lock_impl_describe(t->blocked_on);
		g_string_append_printf(s, "%s CPU %u (%s) waits for %s held by CPU %u (%s)", sep,
				       t->ctx.cpu, t->name, lock, holder->ctx.cpu, holder->name);
		g_free(lock);
		sep = ";";
	}
	return g_string_free(s, FALSE);
}

/* The stop time is reached, or a stop was requested: let the threads in
 * the middle of a model call (a critical section, a lock wait, an
 * operation's later steps) run on to their next safepoint, where they
 * park.  Stops if they all wait for locks (a deadlock). */
#define DRAIN_STEP_NS 1000.0
static void drain(struct engine *e)
{
	unsigned blocked;

	e->stop_at = MIN(e->stop_at, simgrid_get_clock());
	for (unsigned n; (n = unsafe_threads(e, NULL, &blocked)) && blocked < n;) {
		e->sg_until = simgrid_get_clock() + DRAIN_STEP_NS;
		simgrid_run_until(e->sg_until);
	}
}

/* Parked threads go on from where they stopped. */
static void unpark(struct engine *e)
{
	for (unsigned i = 0; i < e->threads->len; i++) {
		struct sim_thread *t = e->threads->pdata[i];

		if (t->parked) {
			t->parked = false;
			t->wake_at = -INFINITY;
			sg_sem_release(t->park);
		}
	}
}

int engine_run(struct engine *e, uint64_t until_ns, char **err)
{
	/* The last run's drain may have gone past until_ns already. */
	bool past = until_ns && (double)until_ns <= simgrid_get_clock();

	if (!e->deadlocked && !interrupted && !past) {
		e->stop = false;
		e->stop_at = until_ns ? (double)until_ns : INFINITY;
		unpark(e);
		e->sg_until = until_ns ? (double)until_ns : INFINITY;
		if (until_ns)
			simgrid_run_until(e->sg_until);
		else
			simgrid_run();
		drain(e);
		e->running = NULL;
		/* Threads a stop parked were killed by SimGrid: no deadlock. */
		e->deadlocked = !stopping(e) && deadlocked(e);
	}
	if (stopping(e))
		return 1;
	if (!e->deadlocked)
		return 0;
	*err = deadlock_report(e);
	return -1;
}

void engine_destroy(struct engine *e)
{
	if (sg_actor_count()) {
		sg_actor_kill_all();
		simgrid_run();
	}
	for (unsigned i = 0; i < e->threads->len; i++) {
		struct sim_thread *t = e->threads->pdata[i];

		/* Killed before it ever ran: its on_exit was never registered. */
		if (t->state == THREAD_NEW && t->on_exit)
			t->on_exit(t->arg);
		sg_sem_destroy(t->wake);
		sg_sem_destroy(t->park);
		sg_sem_destroy(t->run);
		g_free(t->name);
		g_free(t);
	}
	g_ptr_array_free(e->threads, TRUE);
	mm_set_lock_release(NULL);
	for (unsigned i = 0; i < e->locks->len; i++)
		g_free(e->locks->pdata[i]);
	g_ptr_array_free(e->locks, TRUE);
	g_free(e->cpu_wait);
	g_free(e->limit_reason);
	g_free(e->cpu_socket);
	g_free(e->rq);
	g_free(e->hosts);
	g_free(e->spb_walk);
	g_free(e);
}

const struct spb_walk_stats *engine_spb_walk(const struct engine *e)
{
	return e->spb_walk;
}

void engine_class_stats(const struct engine *e, enum lock_class_id cls, struct lock_stats *out)
{
	*out = e->class_st[cls];
}

void engine_all_class_stats(const struct engine *e, struct lock_stats out[NR_LOCK_CLASSES])
{
	memcpy(out, e->class_st, sizeof(e->class_st));
}

bool engine_lock_stats(const struct spinlock *l, struct lock_stats *out)
{
	const struct lock_impl *li = l->impl;

	if (!li)
		return false;
	*out = li->st;
	return true;
}

uint64_t engine_cpu_wait_ns(const struct engine *e, unsigned cpu, enum lock_class_id cls)
{
	return cpu < e->nr_cpus ? e->cpu_wait[cls * e->nr_cpus + cpu] : 0;
}

const char *engine_thread_schedstat(const struct engine *e, unsigned i, unsigned *cpu,
				    struct engine_schedstat *out)
{
	const struct sim_thread *t = e->threads->pdata[i];

	*cpu = t->ctx.cpu;
	*out = t->sched;
	return t->name;
}

void engine_cpu_schedstat(const struct engine *e, unsigned cpu, struct engine_schedstat *out)
{
	*out = e->rq[cpu].sched;
}

/* Where t's time stops counting for shares at now (engine_thread_time). */
static double share_end(const struct sim_thread *t, double now)
{
	return MAX(t->state == THREAD_RUNNING ? now : t->end, t->wait_end);
}

/* The part before end of t's wait in progress, if any. */
static double waiting_before(const struct sim_thread *t, double end)
{
	return t->waiting_for && end > t->blocked_since ? end - t->blocked_since : 0;
}

static bool shares_count(const struct sim_thread *t)
{
	return !t->daemon && t->state != THREAD_NEW;
}

void engine_thread_time(const struct engine *e, struct thread_time *out)
{
	double now = engine_now_ns(e);

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];
		double end;

		if (!shares_count(t))
			continue;
		end = share_end(t, now);
		out->ns += end - t->start;
		if (t->waiting_for)
			out->wait_ns[t->waiting_for->cls] += waiting_before(t, end);
	}
	for (unsigned c = 0; c < NR_LOCK_CLASSES; c++)
		out->wait_ns[c] += e->waited[c];
}

double engine_lock_waited_ns(const struct engine *e, const struct spinlock *l)
{
	const struct lock_impl *li = l->impl;
	double now = engine_now_ns(e);
	double sum;

	if (!li)
		return 0;
	sum = li->waited;
	/* Its waiters: those queued, and one it was handed to that has not
	 * run yet (its wait is not recorded). */
	for (const struct sim_thread *t = li->first_waiter; t; t = t->next_waiter)
		if (shares_count(t))
			sum += waiting_before(t, share_end(t, now));
	if (li->holder && li->holder->waiting_for == li && shares_count(li->holder))
		sum += waiting_before(li->holder, share_end(li->holder, now));
	return sum;
}

double engine_thread_waited_ns(struct mm_ctx *ctx, enum lock_class_id cls)
{
	return ctx_thread(ctx)->waited[cls];
}

double engine_wait_share(const struct engine *e, enum lock_class_id cls)
{
	struct thread_time tt;

	engine_thread_time(e, &tt);
	return time_share(tt.wait_ns[cls], tt.ns);
}

unsigned engine_nr_cpus(const struct engine *e)
{
	return e->nr_cpus;
}

unsigned engine_nr_threads(const struct engine *e)
{
	return e->threads->len;
}

static bool workload_thread(const struct sim_thread *t)
{
	return !t->daemon && t->state != THREAD_NEW;
}

unsigned engine_nr_workload_threads(const struct engine *e)
{
	unsigned n = 0;

	for (unsigned i = 0; i < e->threads->len; i++)
		n += workload_thread(e->threads->pdata[i]);
	return n;
}

bool engine_cpu_ran_workload(const struct engine *e, unsigned cpu)
{
	for (unsigned i = 0; i < e->threads->len; i++) {
		const struct sim_thread *t = e->threads->pdata[i];

		if (workload_thread(t) && t->ctx.cpu == cpu)
			return true;
	}
	return false;
}

bool engine_migrate_thread(struct mm_ctx *ctx, int64_t cpu, unsigned *nr_cpus)
{
	struct sim_thread *t = ctx_thread(ctx);

	*nr_cpus = t->e->nr_cpus;
	if (cpu < 0 || cpu >= (int64_t)t->e->nr_cpus)
		return false;
	if (t->nr_held)
		g_error("thread %s moved to CPU %u holding %u spinlock(s)", t->name, (unsigned)cpu,
			t->nr_held);
	engine_settle(ctx);
	/* Leave the old CPU's run queue as a sleep would, so the threads
	 * waiting there get it, and queue on the new one. */
	bool on_cpu = t->on_cpu;
	if (on_cpu)
		cpu_release(t);
	sg_actor_set_host(sg_actor_self(), t->e->hosts[cpu]);
	t->ctx.cpu = (unsigned)cpu;
	if (on_cpu)
		cpu_acquire(t);
	return true;
}
