/* The scheduler: threads pinned to a CPU share it.
 *
 * A CPU runs one thread at a time; the others that are runnable wait in
 * its run queue, FIFO, and take turns of one time slice (round robin, as
 * EEVDF gives tasks of equal weight).  A thread gives up its CPU when it
 * sleeps (engine_sleep: off-CPU time is not CPU time), ends or parks at a
 * safepoint, and is preempted when its slice is used up and another
 * thread waits, unless it holds a spinlock: spin_lock disables
 * preemption, so a thread spinning for a lock or holding one keeps its
 * CPU.  Preemption happens at the thread's next charge (the model's
 * cond_resched points).
 *
 * The CPU is handed over as a contended spinlock is (spinlock.c): the
 * thread giving it up settles its debt first, so the next one starts at
 * the right time.  A CPU with one runnable thread costs no SimGrid call:
 * taking an idle CPU and leaving one nobody waits for only set fields.
 *
 * Each thread and each CPU keeps schedstat's three figures (sched_info in
 * kernel/sched/stats.h): time on the CPU, time runnable in the queue
 * (run_delay, from the enqueue or the CPU still busy in simulated time
 * to the start of the turn) and turns. */
#include "engine_impl.h"

#include <simgrid/actor.h>

/* sysctl_sched_base_slice, kernel/sched/fair.c (v6.6 to v6.12): 0.75 ms,
 * scaled at boot by 1 + ilog2(min(online CPUs, 8)) under the default
 * SCHED_TUNABLESCALING_LOG (update_sysctl): 3 ms from 8 CPUs on. */
#define SCHED_BASE_SLICE_NS 750000.0

double sched_slice_ns(unsigned nr_cpus)
{
	unsigned factor = 1;

	for (unsigned n = MIN(nr_cpus, 8u); n > 1; n >>= 1)
		factor++;
	return SCHED_BASE_SLICE_NS * factor;
}

/* sched_info_arrive(): t starts a turn at at after waiting delay. */
static void sched_info_arrive(struct sim_thread *t, struct cpu_rq *rq, double at, double delay)
{
	t->on_cpu_since = at;
	t->sched.run_delay_ns += delay;
	t->sched.pcount++;
	rq->sched.run_delay_ns += delay;
	rq->sched.pcount++;
}

/* sched_info_depart(): t's turn ends at at. */
static void sched_info_depart(struct sim_thread *t, struct cpu_rq *rq, double at)
{
	double ran = MAX(at - t->on_cpu_since, 0.0);

	t->sched.run_ns += ran;
	rq->sched.run_ns += ran;
}

void cpu_acquire(struct sim_thread *t)
{
	struct cpu_rq *rq = &t->e->rq[t->ctx.cpu];
	double now;

	if (t->observer)
		return;
	if (rq->curr) {
		/* Decide at t's own time: the CPU may be free by then. */
		thread_settle(t);
		if (rq->curr) {
			t->queued = true;
			t->queued_since = t->clock;
			t->next_runnable = NULL;
			if (rq->last)
				rq->last->next_runnable = t;
			else
				rq->first = t;
			rq->last = t;
			thread_yield_begin(t);
			t->wake_at = INFINITY;
			sg_sem_acquire(t->run);
			thread_yield_end(t);
			/* cpu_release made t curr and dequeued it. */
			t->on_cpu = true;
			rq->slice_start = t->clock;
			sched_info_arrive(t, rq, t->clock, t->clock - t->queued_since);
			thread_limit_reset(t);
			return;
		}
	}
	/* Idle at the clock, but its last thread may have left it later in
	 * its own time: t waits until then. */
	now = t->clock + t->debt;
	if (now < rq->free_at)
		t->debt += rq->free_at - now;
	rq->curr = t;
	rq->slice_start = t->clock + t->debt;
	t->on_cpu = true;
	sched_info_arrive(t, rq, rq->slice_start, rq->slice_start - now);
	thread_limit_reset(t);
}

void cpu_release(struct sim_thread *t)
{
	struct cpu_rq *rq = &t->e->rq[t->ctx.cpu];
	struct sim_thread *next = rq->first;

	if (!t->on_cpu)
		return;
	t->on_cpu = false;
	sched_info_depart(t, rq, t->clock + t->debt);
	thread_limit_reset(t);
	if (!next) {
		rq->curr = NULL;
		rq->free_at = t->clock + t->debt;
		return;
	}
	/* The next thread starts when t's time on the CPU is over. */
	thread_settle(t);
	rq->first = next->next_runnable;
	if (!rq->first)
		rq->last = NULL;
	next->queued = false;
	rq->curr = next;
	next->wake_at = -INFINITY;
	thread_yield_begin(t);
	sg_sem_release(next->run);
	thread_yield_end(t);
}

void cpu_preempt(struct sim_thread *t)
{
	cpu_release(t);
	cpu_acquire(t);
}

/* A killed thread leaves no trace in its run queue (no thread waiting
 * for the CPU is left behind: kills end every thread, or daemons once no
 * workload thread is left). */
void cpu_forget(struct sim_thread *t)
{
	struct cpu_rq *rq = &t->e->rq[t->ctx.cpu];

	/* Handed the CPU by cpu_release but killed before it woke to take
	 * it: curr without on_cpu, which would keep the CPU for good. */
	if (t->on_cpu || rq->curr == t) {
		if (t->on_cpu)
			sched_info_depart(t, rq, t->clock + t->debt);
		t->on_cpu = false;
		rq->curr = NULL;
		rq->free_at = t->clock + t->debt;
	}
	if (!t->queued)
		return;
	t->queued = false;
	for (struct sim_thread **p = &rq->first, *prev = NULL; *p; prev = *p, p = &(*p)->next_runnable) {
		if (*p != t)
			continue;
		*p = t->next_runnable;
		if (rq->last == t)
			rq->last = prev;
		break;
	}
}
