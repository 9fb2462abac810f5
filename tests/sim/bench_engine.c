/* `make bench`: spinlock lock/unlock pairs per wall-clock second through
 * the SimGrid engine.  64 threads on the 64 CPUs of two sockets each take
 * their own per-CPU lock (a pcp->lock: never contended) for a short
 * section between bits of private work, and every SHARED_EVERY-th time
 * the shared zone->lock for a 1.5 us section.  Each quantum runs in a
 * child process (one engine per process).
 * Usage: bench_engine [QUANTUM_NS ...] */
#include "sim/engine.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define CPUS 64
#define DURATION_NS 20000000ULL
/* Private-lock pairs per shared zone->lock section. */
#define SHARED_EVERY 2048

struct bench {
	struct spinlock zone;
	struct cacheline zone_data;
	struct spinlock pcp[CPUS];
	uint64_t pairs[CPUS];
};

static void bench_thread(struct mm_ctx *ctx, void *arg)
{
	struct bench *b = arg;
	struct spinlock *pcp = &b->pcp[ctx->cpu];
	uint64_t pairs = 0;

	/* Out of step: a staggered start and 45-90 ns of private work. */
	engine_work(ctx, ctx->cpu * 37);
	while (mm_now(ctx) < DURATION_NS) {
		mm_charge(ctx, COST_LIST_OP, 3 + ctx->cpu % 4);
		spin_lock(ctx, pcp, SITE_RMQUEUE_PCPLIST);
		mm_charge(ctx, COST_PCP_SECTION, 1);
		mm_charge(ctx, COST_LIST_OP, 1);
		spin_unlock(ctx, pcp);
		if (++pairs % SHARED_EVERY == 0) {
			spin_lock(ctx, &b->zone, SITE_RMQUEUE_BULK);
			mm_touch(ctx, &b->zone_data);
			mm_charge(ctx, COST_ZONE_SECTION, 1);
			mm_charge(ctx, COST_LIST_OP, 2 * 48);
			spin_unlock(ctx, &b->zone);
		}
	}
	b->pairs[ctx->cpu] = pairs + pairs / SHARED_EVERY;
}

static int bench_quantum(double quantum_ns)
{
	struct topology t;
	struct engine_opts o;
	struct bench *b = g_new0(struct bench, 1);
	struct lock_stats zone;
	char *err = NULL;
	uint64_t pairs = 0;

	topology_uniform(&t, 2, 1, CPUS / 2, 1ULL << 30);
	engine_opts_default(&o);
	o.quantum_ns = quantum_ns;
	struct engine *e = engine_create(&t, &o, &err);
	if (!e) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	spin_lock_init(&b->zone, LOCK_CLASS_ZONE);
	b->zone_data.last_cpu = -1;
	for (unsigned cpu = 0; cpu < CPUS; cpu++) {
		spin_lock_init(&b->pcp[cpu], LOCK_CLASS_PCP);
		engine_spawn(e, cpu, NULL, bench_thread, b, NULL);
	}
	gint64 t0 = g_get_monotonic_time();
	if (engine_run(e, 0, &err)) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;

	for (unsigned cpu = 0; cpu < CPUS; cpu++)
		pairs += b->pairs[cpu];
	engine_class_stats(e, LOCK_CLASS_ZONE, &zone);
	printf("quantum %6.0f ns  %10" G_GUINT64_FORMAT " lock/unlock pairs in %6.3f s wall: "
	       "%6.2f M/s  (zone->lock: %" G_GUINT64_FORMAT " acquisitions, %" G_GUINT64_FORMAT
	       " contentions, %.1f%% of thread time waiting)\n",
	       quantum_ns, pairs, wall, (double)pairs / wall / 1e6, zone.hold.nr, zone.wait.nr,
	       100 * engine_wait_share(e, LOCK_CLASS_ZONE));
	engine_destroy(e);
	g_free(b);
	return 0;
}

int main(int argc, char **argv)
{
	/* Quantum 0 (exact) takes about 30 s here: ask for it by name. */
	static const char *defaults[] = { "250", "500", "1000", "2000", "5000", NULL };
	const char **quanta = argc > 1 ? (const char **)argv + 1 : defaults;
	int rc = 0;

	printf("mmsim engine benchmark: %d threads on %d CPUs, %llu ms simulated\n", CPUS, CPUS,
	       DURATION_NS / 1000000);
	fflush(stdout);
	for (; *quanta; quanta++) {
		pid_t pid = fork();
		int status;

		if (pid == 0)
			return bench_quantum(atof(*quanta));
		waitpid(pid, &status, 0);
		rc |= !WIFEXITED(status) || WEXITSTATUS(status);
	}
	return rc;
}
