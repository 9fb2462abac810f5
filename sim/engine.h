/* The SimGrid engine: simulated time, threads pinned to CPUs, and the
 * kernel spinlocks of the model (it implements models/mm_env.h).
 *
 * Time is in simulated nanoseconds (one SimGrid second is one ns).  Each
 * simulated thread is a SimGrid actor on the host of its CPU.  A thread
 * does not yield to SimGrid for every charge: it accumulates a time debt
 * (temporal decoupling) and sleeps it off ("settles") before waiting on a
 * held lock, before handing a lock to a waiter, before taking a shared
 * lock with a debt of a quantum or more, and while it holds one once the
 * debt reaches the quantum.  Its own work outside shared locks (work
 * between allocator calls, zeroing, faults on its CPU's pageset) settles
 * only at the horizon: nothing another thread does depends on it sooner,
 * except lockless reads (counters, samplers), which may see it up to a
 * horizon early.  A settle of the only workload thread alive that no
 * other thread can see (all others sleep past its end or wait for a
 * thread's action, and the run does not end before it) moves the thread's
 * clock without a SimGrid call; the SimGrid clock catches up at the
 * thread's next SimGrid call.  A lock no
 * other thread ever took (a single-threaded
 * process's mmap and PTE locks), or a CPU's pageset lock, is private while
 * its last acquirer is the thread taking it again: that thread takes it
 * without settling
 * (and does not settle at the horizon while it holds it); should another
 * thread then ask for it earlier in simulated time than that run-ahead
 * acquisition, it takes the lock first (the owner's missed wait is the
 * error, rare for a lock that was private).  A thread's view of time is
 * the SimGrid clock plus its debt.
 *
 * Fast-forward (engine_set_timing false): every thread settles at
 * fast-forward's horizon only, never while it holds a spinlock, so no
 * spinlock is ever seen held: spinlocks cost their cache-line transfer
 * and their sections' work but nobody waits for them (no contention, no
 * wait time).  Sleeping locks held across a sleep are still waited for.
 * The scheduler, sleeps and daemons work as in timed mode.
 *
 * Spinlocks are FIFO like qspinlock.  The state change of a critical
 * section happens when the lock is taken; the holder then keeps the lock
 * for the simulated time it charges until the unlock.  Taking a free lock
 * and releasing a lock nobody waits for make no SimGrid call at all.  A
 * lock released by a thread that ran ahead of the clock is free only from
 * its release time on: a thread asking earlier in its own time waits until
 * then (counted as a contention), so decoupling does not hide contention.
 *
 * Threads pinned to one CPU share it (sched.c): one runs at a time, in
 * turns of the kernel's base time slice; a thread holding or spinning for
 * a spinlock is not preempted; sleeping threads leave the CPU to others.
 *
 * One engine per process: SimGrid loads one platform per process.  All
 * functions run in the simulation's only OS thread. */
#ifndef MMSIM_ENGINE_H
#define MMSIM_ENGINE_H

#include "models/mm_env.h"
#include "models/topology.h"
#include "sim/costs.h"

#include <stdbool.h>
#include <stdint.h>

struct engine;

struct engine_opts {
	/* How far (simulated ns) a thread may run ahead of the SimGrid clock
	 * before it settles.  0 settles on every charge and lock operation:
	 * exact and slow. */
	double quantum_ns;
	/* How far a thread's work outside shared locks runs ahead before it
	 * settles (at least the quantum; with quantum 0, 0 too).  Every
	 * thread's in fast-forward is ENGINE_FF_HORIZON_NS, or this if more. */
	double horizon_ns;
	/* false: every thread's work settles at the quantum, whatever its
	 * sharing and its bulk calls, and workloads skip no work on what
	 * they know (engine_hints): the run that the hints must not change
	 * beyond the engine's accuracy (tests/scenarios/engine_hints.sh). */
	bool hints;
	struct costs costs;
};

/* The default quantum, chosen with tests/sim/test_engine.c's accuracy
 * tests (contentions and wait time within 5% of quantum 0; twice this
 * quantum overstates wait time by 8-16% under moderate contention). */
#define ENGINE_DEFAULT_QUANTUM_NS 1000.0
/* Ten quanta: a pageset lock taken that far ahead may be found held by
 * a remote CPU's drain when its owner settles inside the section (before
 * taking zone->lock), which delays the drain by up to the horizon; at 100
 * us, direct reclaim's drains under memory pressure waited 4 times longer
 * (tests/scenarios/page_cache.lua read 12% less), at 10 us as long as at
 * the quantum. */
#define ENGINE_DEFAULT_HORIZON_NS 10000.0
/* Fast-forward's horizon (no lock is ever found held there): a tenth of
 * the default sampling, kswapd and kcompactd intervals (1 ms), so that
 * what they observe early stays well under their period. */
#define ENGINE_FF_HORIZON_NS 100000.0

void engine_opts_default(struct engine_opts *o);

/* Generate and load the platform (host cpuN for each CPU of t).  NULL and
 * a g_malloc'ed *err if the options are invalid or an engine was already
 * created in this process. */
struct engine *engine_create(const struct topology *t, const struct engine_opts *o, char **err);
/* Kill the threads still alive and free the engine.  SimGrid itself stays
 * initialised: no other engine can be created afterwards. */
void engine_destroy(struct engine *e);

typedef void (*engine_thread_fn)(struct mm_ctx *ctx, void *arg);

/* Start a thread running fn(ctx, arg) on cpu; name defaults to "cpuN".
 * on_exit(arg), if not NULL, runs when the thread returns or is killed
 * (at engine_destroy or by a deadlock).  May be called before
 * engine_run or from a running thread: the child then starts at its
 * parent's simulated time (the parent settles first).  A thread must
 * release its locks before returning (checked). */
void engine_spawn(struct engine *e, unsigned cpu, const char *name, engine_thread_fn fn,
		  void *arg, void (*on_exit)(void *arg));

/* NULL if one more thread may start, else a g_malloc'ed message: the
 * host's limit of threads alive at once (from vm.max_map_count and the
 * memory available, read when the engine starts) is reached. */
char *engine_spawn_check(const struct engine *e);

/* A kernel thread (kswapd, the vmstat worker, ...): like engine_spawn, but
 * SimGrid ends it when the last workload thread ends, and it is left out
 * of deadlock detection and of thread time. */
void engine_spawn_daemon(struct engine *e, unsigned cpu, const char *name, engine_thread_fn fn,
			 void *arg);
/* A thread that takes no CPU time and does no model work (the results
 * sampler): a daemon outside the scheduler. */
void engine_spawn_observer(struct engine *e, const char *name, engine_thread_fn fn, void *arg);
/* Every workload thread still alive waits for a lock: a deadlock that a
 * periodic daemon keeps SimGrid from noticing. */
bool engine_stalled(const struct engine *e);
/* From a thread: kill every other thread, ending the run (engine_run
 * then reports the deadlock engine_stalled found). */
void engine_stop(struct mm_ctx *ctx);

/* Run the simulation until simulated time until_ns, or with until_ns == 0
 * until every thread has ended; the run ends with every thread at a
 * safepoint, possibly a little after until_ns (engine_clock tells).  May
 * be called again with a later time to go on (a time the last run already
 * passed returns at once).  Returns 1 if a stop was
 * requested (threads parked or ended at safepoints), 0, or -1 and a
 * g_malloc'ed *err on a deadlock: every
 * remaining thread waits for a lock ("deadlock at t=... ns: CPU 0 (name)
 * waits for &zone->lock[1] held by CPU 1; ..."; [n] numbers the locks of a
 * class in the order the run first used them).  Threads stuck on locks
 * while others still run at until_ns are not a deadlock yet. */
int engine_run(struct engine *e, uint64_t until_ns, char **err);

/* The thread's own work on its CPU: it adds to the thread's debt, a
 * time slice at a time (preemption points).  A safepoint (below). */
void engine_work(struct mm_ctx *ctx, uint64_t ns);
/* Sleep off the CPU (a daemon's wait, a workload's idle time): the CPU's
 * other threads run meanwhile, and the thread then waits its turn.  A
 * safepoint; not with a spinlock held (aborts). */
void engine_sleep(struct mm_ctx *ctx, uint64_t ns);
/* What a thread's own code, between its model calls, shares with other
 * threads behind the engine's back.  Declared once, when the thread
 * starts; the engine decides from it how far the thread's work outside
 * shared locks runs ahead of the clock. */
enum engine_sharing {
	/* Nothing but through the model and the engine's mailboxes: its
	 * work runs to the horizon.  A thread's default. */
	ENGINE_SHARES_NOTHING,
	/* State other threads write (a Lua thread's tables, a random
	 * generator drawn in the order the threads ask): it settles at the
	 * quantum, except inside the model's calls of many page operations
	 * (mm_env's bulk: a range of faults, an munmap, an madvise, a fork,
	 * an exit), which mark themselves. */
	ENGINE_SHARES_STATE,
};
void engine_set_sharing(struct mm_ctx *ctx, enum engine_sharing sharing);
/* engine_opts' hints: whether a workload may skip work on what it knows
 * (the jemalloc churn's touches of pages an mmu_notifier says present). */
bool engine_hints(const struct mm_ctx *ctx);
/* Sleep off the thread's debt now.  A safepoint. */
void engine_settle(struct mm_ctx *ctx);
/* Move the running thread to CPU cpu (sched_setaffinity to one CPU): its
 * debt settled first, then it runs there, ctx->cpu included.  A
 * safepoint.  false, with *nr_cpus the machine's count, if cpu does not
 * exist. */
bool engine_migrate_thread(struct mm_ctx *ctx, int64_t cpu, unsigned *nr_cpus);
/* The thread holds no lock and is in no model call here.  A run stops
 * only with every thread at a safepoint: one that reaches a safepoint at
 * or after the run's end (or after a stop request) parks there until the
 * next engine_run, and threads elsewhere at the end run on to their next
 * one.  So between runs the machine is never in the middle of a critical
 * section. */
void engine_safepoint(struct mm_ctx *ctx);
/* Stop the run at the threads' next safepoints (a thread's error). */
void engine_request_stop(struct engine *e);
/* The same for every engine, async-signal-safe (SIGINT, SIGTERM); for
 * good: later runs return at once. */
void engine_interrupt(void);
bool engine_interrupted(void);
/* The SimGrid clock (simulated ns), without any thread's debt. */
uint64_t engine_clock(struct engine *e);
/* Timed (true, the default) or fast-forward (false) from now on; call it
 * between runs. */
void engine_set_timing(struct engine *e, bool timing);
/* Fast-forward's horizon from now on (ns; at least the timed horizon;
 * ENGINE_FF_HORIZON_NS unless set): call it between runs. */
void engine_set_ff_horizon(struct engine *e, double ns);
bool engine_timing(const struct engine *e);
/* Page-level workloads from now on (fast-forward only; call it between
 * runs): a workload with a page-level mode produces its page events
 * without stepping each of its objects (the jemalloc churn: most threads
 * replay the page events of a few whose objects are stepped); the model
 * sees the same events at the same rates (tests/scenarios/page_level.sh
 * holds them to it). */
void engine_set_page_level(struct engine *e, bool page_level);
bool engine_page_level(const struct mm_ctx *ctx);
/* Fast-forward's horizon, ns (engine_set_ff_horizon); 0 in a timed run. */
uint64_t engine_ff_horizon(const struct mm_ctx *ctx);
/* SimGrid calls the threads made so far (sleeps, semaphore waits and
 * posts, spawns): each one switches actors. */
uint64_t engine_simgrid_calls(const struct engine *e);
/* Locks the engine keeps a record of: those used so far and not destroyed. */
unsigned engine_lock_records(const struct engine *e);

/* charge, touch, lock, trylock, unlock and now for threads of the engine;
 * ctx->engine is the thread's state.  Locks belong to threads: two
 * threads of one CPU contend as two CPUs would (without bouncing).  A
 * thread's lock() of a lock it holds, or its unlock of a lock it does not
 * hold, aborts naming the CPUs, as lockdep would complain; its trylock of
 * a lock it holds fails, as spin_trylock does. */
extern const struct mm_env engine_env;

/* Statistics, as the kernel's lock_stat keeps them (struct lock_time). */
struct lock_time {
	uint64_t nr;
	uint64_t min, max, total;   /* ns; min and max are 0 while nr is 0 */
};

struct lock_stats {
	/* Contended lock() calls that got the lock: the lock was held when
	 * requested (a failed trylock is not a contention).  Wait: simulated
	 * ns from the request (after the requester settled) to the
	 * acquisition, including the lock word's cache-line transfer. */
	struct lock_time wait;
	/* Released acquisitions, with the time from acquisition to release
	 * (the kernel counts acquisitions at release too). */
	struct lock_time hold;
	/* lock() acquisitions and contentions whose previous lock() acquirer
	 * ran on another CPU.  As in the kernel, successful trylocks neither
	 * count here nor change the previous acquirer. */
	uint64_t acq_bounces, con_bounces;
	/* Contentions by the site of the lock() that waited, and by the site
	 * where the previous lock() acquirer took the lock. */
	uint64_t contention_point[NR_LOCK_SITES];
	uint64_t contending_point[NR_LOCK_SITES];
};

/* A thread's or a CPU's scheduler figures, as /proc/<pid>/schedstat
 * gives them: simulated ns on the CPU, ns runnable waiting for it, and
 * turns on it. */
struct engine_schedstat {
	double run_ns, run_delay_ns;
	uint64_t pcount;
};

/* "&zone->lock", "&pcp->lock" */
const char *lock_class_name(enum lock_class_id cls);

/* All locks of a class summed (min and max over them). */
void engine_class_stats(const struct engine *e, enum lock_class_id cls, struct lock_stats *out);
/* The same for every class at once: one pass over the locks (a run has
 * thousands of PTE locks). */
void engine_all_class_stats(const struct engine *e, struct lock_stats out[NR_LOCK_CLASSES]);
/* One lock's figures; false if the engine never saw it used. */
bool engine_lock_stats(const struct spinlock *l, struct lock_stats *out);
/* Superpageblocks read per zone->lock section, by call site
 * (sim/spb_walk.h); NULL if no section of a zone with superpageblocks
 * ended on a thread of e. */
struct spb_walk_stats;
const struct spb_walk_stats *engine_spb_walk(const struct engine *e);
/* Simulated ns the threads of cpu spent waiting for locks of cls. */
uint64_t engine_cpu_wait_ns(const struct engine *e, unsigned cpu, enum lock_class_id cls);
/* What shares of the workload threads' time come from (kernel threads are
 * left out): each thread's time from its start to its end, or to now
 * while it runs, or to the end of its last lock wait if that is later (it
 * ran ahead of the clock); and the part of its lock waits up to the same
 * point, a wait still in progress counting from its start.  A span's
 * share is the growth of wait_ns between two samples over that of ns: at
 * most 1 by construction, a thread waiting for one lock at a time within
 * its life.  lock_stat's figures (struct lock_stats, engine_cpu_wait_ns)
 * instead count each wait whole when it ends, as the kernel does, kernel
 * threads' included: a span's growth of them can hold waits begun
 * before it. */
struct thread_time {
	double ns;
	double wait_ns[NR_LOCK_CLASSES];
};
void engine_thread_time(const struct engine *e, struct thread_time *out);
/* thread_time's wait_ns for one lock (0 if the engine never saw it used). */
double engine_lock_waited_ns(const struct engine *e, const struct spinlock *l);
/* The running thread's own waits for locks of cls so far, ns. */
double engine_thread_waited_ns(struct mm_ctx *ctx, enum lock_class_id cls);
/* The share of the workload threads' time so far spent waiting for locks
 * of cls. */
double engine_wait_share(const struct engine *e, enum lock_class_id cls);
/* part over whole, 0 without whole. */
static inline double time_share(double part_ns, double whole_ns)
{
	return whole_ns > 0 ? part_ns / whole_ns : 0;
}

unsigned engine_nr_cpus(const struct engine *e);
/* Threads spawned so far. */
unsigned engine_nr_threads(const struct engine *e);
/* Workload threads (not daemons) that started, and whether one ran on
 * cpu: what a plot's title and cpu_wait.csv count as the run's threads. */
unsigned engine_nr_workload_threads(const struct engine *e);
bool engine_cpu_ran_workload(const struct engine *e, unsigned cpu);
/* Thread i's (in spawn order: i < engine_nr_threads) name, CPU and
 * figures, and the sums of the threads' turns on cpu. */
const char *engine_thread_schedstat(const struct engine *e, unsigned i, unsigned *cpu,
				    struct engine_schedstat *out);
void engine_cpu_schedstat(const struct engine *e, unsigned cpu, struct engine_schedstat *out);

#endif
