/* Engine state shared by engine.c (threads and time) and spinlock.c. */
#ifndef MMSIM_ENGINE_IMPL_H
#define MMSIM_ENGINE_IMPL_H

#include "engine.h"
#include "models/mmzone.h"

#include <glib.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

enum thread_state { THREAD_NEW, THREAD_RUNNING, THREAD_DONE, THREAD_KILLED };

struct lock_impl;

struct sim_thread {
	struct mm_ctx ctx;          /* ctx.engine points back here */
	struct engine *e;
	char *name;
	engine_thread_fn fn;
	void *arg;
	void (*on_exit)(void *arg);
	sg_sem_t wake;              /* an unlocking holder hands the lock over through it */
	/* Its settled time: the SimGrid clock when it last resumed, or later
	 * after settles that needed no SimGrid call (engine.c) */
	double clock;
	double sg_clock;            /* the SimGrid clock when it last resumed */
	/* While it waits in SimGrid: when it runs again on its own (the end of
	 * its sleep), INFINITY if only another thread can wake it, -INFINITY
	 * once it is ready to run */
	double wake_at;
	double debt;                /* simulated ns the thread has run ahead of clock */
	/* While debt stays under it, a charge has nothing to decide (no
	 * settle, no preemption): thread_limit_reset after any change to
	 * what settle_limit and cpu_preempt_check read. */
	double limit;
	double start, end;
	enum thread_state state;
	bool daemon;                /* a kernel thread: ends with the last workload thread */
	bool observer;              /* takes no CPU time (the results sampler) */
	bool on_cpu;                /* its CPU's current thread */
	bool queued;                /* runnable, waiting in its CPU's run queue */
	sg_sem_t run;               /* the CPU is handed over through it */
	struct sim_thread *next_runnable;
	struct engine_schedstat sched; /* sched.c's accounting */
	double on_cpu_since, queued_since;
	bool safe;                  /* at a safepoint: no lock held, no model call half done */
	bool parked;                /* stopped at a safepoint until the next engine_run */
	sg_sem_t park;
	unsigned nr_held;           /* spinlocks held */
	unsigned nr_sleeping_held;  /* sleeping locks held (lock_class_sleeps) */
	unsigned nr_private_held;   /* of those, taken as private (spinlock.c) */
	/* Its work outside shared locks runs to the horizon: hints on, and
	 * it shares nothing or is inside bulk calls (thread_update_local). */
	bool local;
	enum engine_sharing sharing;
	unsigned bulk;              /* bulk calls it is inside (mm_env's bulk) */
	struct lock_impl *blocked_on;
	double blocked_since;
	struct sim_thread *next_waiter;
	/* For shares (engine_thread_time): the lock it asked for at
	 * blocked_since until it records the wait (after blocked_on is
	 * cleared by the handover), the end of its last wait, and its waits
	 * by class, unrounded. */
	struct lock_impl *waiting_for;
	double wait_end;
	double waited[NR_LOCK_CLASSES];
	/* The superpageblock work of the zone->lock section the thread is
	 * ending (mm_env's spb_section), recorded when it releases the lock,
	 * as its hold is. */
	bool spb_section;
	enum lock_site spb_site;
	struct mm_work spb_work;
};

/* A spinlock's engine state (spinlock.impl), created on its first use. */
struct lock_impl {
	struct engine *e;
	guint slot;                 /* in e->locks */
	enum lock_class_id cls;
	unsigned index;             /* among the locks of its class, in order of first use */
	struct sim_thread *holder;  /* NULL when free; the woken waiter during a handoff */
	struct sim_thread *first_waiter, *last_waiter; /* FIFO */
	double acquired_at;
	double free_at;             /* simulated time of the last release */
	int32_t last_cpu;           /* CPU of the previous lock() acquirer, -1: none yet */
	struct sim_thread *last_thread; /* the previous acquirer of any kind */
	bool shared;                /* taken by two threads or more so far */
	bool private_take;          /* the holder took it as private */
	bool ahead;                 /* and a quantum or more ahead of the clock */
	enum lock_site last_site;   /* and where it took the lock */
	struct lock_stats st;
	double waited;              /* workload threads' waits for it, unrounded */
};

/* A CPU's run queue (sched.c): one thread runs, the others that are
 * runnable wait their turn in FIFO order. */
struct cpu_rq {
	struct sim_thread *curr;    /* NULL while the CPU is idle */
	struct sim_thread *first, *last;
	double slice_start;         /* simulated time curr got the CPU */
	double free_at;             /* simulated time the CPU last went idle */
	struct engine_schedstat sched; /* its threads' sums */
};

/* spinlock.owner while the lock passes to a woken waiter that has not run
 * yet: the lock is not free for anyone else meanwhile. */
#define LOCK_HANDOFF (-2)

struct engine {
	unsigned nr_cpus;
	double quantum;
	double horizon;
	double ff_horizon;
	bool timing;                /* false: fast-forward */
	bool hints;                 /* engine_opts' */
	bool page_level;            /* workloads step page events, not objects */
	uint64_t nr_simgrid_calls;
	struct costs costs;
	sg_host_t *hosts;           /* by CPU */
	unsigned *cpu_socket;       /* by CPU */
	struct cpu_rq *rq;          /* by CPU */
	double slice;               /* sched.c: the scheduler's time slice, ns */
	GPtrArray *threads;         /* struct sim_thread, in spawn order */
	GPtrArray *locks;           /* struct lock_impl of the live locks (spin_lock_destroy) */
	unsigned nr_locks[NR_LOCK_CLASSES];
	/* Each class's locks' statistics summed, kept as they change: the
	 * samplers read them without walking every lock ever taken. */
	struct lock_stats class_st[NR_LOCK_CLASSES];
	uint64_t *cpu_wait;         /* [cls * nr_cpus + cpu] ns */
	double waited[NR_LOCK_CLASSES]; /* workload threads' waits, unrounded */
	struct sim_thread *running; /* the thread in control, NULL in maestro */
	bool deadlocked;
	/* Threads reaching a safepoint at or after stop_at (simulated ns) park
	 * there, so that a run stops with every thread at a safepoint; with
	 * stop set, they park whatever their time. */
	double stop_at;
	/* When a signal's stop killed the threads (engine_interrupt): SimGrid's
	 * clock then runs on to the run's end with nothing left to run. */
	double interrupted_at;
	bool stop;
	unsigned nr_alive;          /* threads started and not ended */
	unsigned nr_workload_alive; /* of those, not daemons */
	unsigned max_alive;         /* engine_spawn_check's limit */
	char *limit_reason;         /* what sets it, for the message */
	double sg_until;            /* the SimGrid run's end (simgrid_run_until) */
	struct sim_thread *waker;   /* the thread that last stopped a settle without SimGrid */
	/* Superpageblocks read per zone->lock section (sim/spb_walk.h), NULL
	 * until the model tells of a section (policy spb). */
	struct spb_walk_stats *spb_walk;
};

static inline struct sim_thread *ctx_thread(struct mm_ctx *ctx)
{
	return ctx->engine;
}

/* t releases the zone->lock whose section's superpageblock work it was
 * told of: into the engine's spb_walk statistics. */
void engine_spb_section_end(struct sim_thread *t);

/* Brings the SimGrid clock to t's after settles made without SimGrid. */
void thread_catch_up(struct sim_thread *t);

/* Around every SimGrid call a thread makes: others may run meanwhile
 * (even a call that does not block lets the other ready actors run).  A
 * call that blocks sets wake_at after this. */
static inline void thread_yield_begin(struct sim_thread *t)
{
	if (G_UNLIKELY(t->clock != t->sg_clock))
		thread_catch_up(t);
	t->e->nr_simgrid_calls++;
	t->e->running = NULL;
	t->wake_at = -INFINITY;
}

/* The next charge decides afresh. */
static inline void thread_limit_reset(struct sim_thread *t)
{
	t->limit = -INFINITY;
}

/* The limit for t's state now, where a charge follows often (a lock taken
 * or released): the next charges under it need no call. */
void thread_limit_update(struct sim_thread *t);

static inline void thread_yield_end(struct sim_thread *t)
{
	t->clock = t->sg_clock = simgrid_get_clock();
	t->e->running = t;
	thread_limit_reset(t);
}

/* Sleep off t's debt. */
void thread_settle(struct sim_thread *t);

/* sched.c: t takes its CPU (waiting its turn if another thread has it),
 * gives it up (to the next runnable thread), or forgets it (killed). */
void cpu_acquire(struct sim_thread *t);
void cpu_release(struct sim_thread *t);
void cpu_forget(struct sim_thread *t);
void cpu_preempt(struct sim_thread *t);
/* The base slice the kernel's default gives a machine of nr_cpus CPUs. */
double sched_slice_ns(unsigned nr_cpus);

/* A preemption point: t has used up its slice while other threads wait
 * for its CPU, and holds no spinlock (preemption is off while it does). */
static inline void cpu_preempt_check(struct sim_thread *t)
{
	const struct cpu_rq *rq = &t->e->rq[t->ctx.cpu];

	if (G_UNLIKELY(rq->first) && t->on_cpu && !t->nr_held &&
	    t->clock + t->debt - rq->slice_start >= t->e->slice)
		cpu_preempt(t);
}
/* Cost of writing a line last written by CPU from (-1: nobody) on CPU to. */
static inline double cacheline_ns(const struct engine *e, int32_t from, unsigned to)
{
	if (from < 0)
		return 0;
	if ((unsigned)from == to)
		return e->costs.ns[COST_CL_SAME_CPU];
	if (e->cpu_socket[from] == e->cpu_socket[to])
		return e->costs.ns[COST_CL_SAME_SOCKET];
	return e->costs.ns[COST_CL_OTHER_SOCKET];
}

/* spinlock.c */
void engine_lock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site);
bool engine_trylock(struct mm_ctx *ctx, struct spinlock *l, enum lock_site site);
void engine_unlock(struct mm_ctx *ctx, struct spinlock *l);
/* "&zone->lock[1]" (g_free it) */
char *lock_impl_describe(const struct lock_impl *li);
void engine_lock_release(struct spinlock *l);

#endif
