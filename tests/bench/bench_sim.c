/* `make bench`: page allocations and frees per wall-clock second through
 * the full simulated path (SimGrid engaged, locks and costs timed), 64
 * threads on 64 CPUs of the 2s-1t machine, for each policy.  Each thread
 * keeps a window of 256 order-0 movable pages on its node: it allocates
 * one and frees the oldest, with 100 ns of its own work per allocation.
 * Each run is a child process (SimGrid loads one platform per process).
 * Compaction's rate is tests/bench/bench_compaction.sh's. */
#include "models/machine.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
#include "sim/boot.h"
#include "sim/engine.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NR_THREADS 64
#define WINDOW 256
#define SIM_NS 20000000ULL      /* 20 ms simulated */

struct worker {
	struct machine *m;
	unsigned long ops;
};

static void worker_main(struct mm_ctx *ctx, void *arg)
{
	struct worker *w = arg;
	pfn_t window[WINDOW];
	unsigned n = 0;

	for (;;) {
		pfn_t pfn = __alloc_pages(ctx, w->m, GFP_HIGHUSER_MOVABLE, 0,
					  (int)topology_cpu_to_node(&w->m->topo, ctx->cpu), 1, n);

		if (pfn == PFN_NONE)
			g_error("bench: out of memory");
		engine_work(ctx, 100);
		if (n >= WINDOW) {
			__free_pages(ctx, w->m, window[n % WINDOW]);
			w->ops++;
		}
		window[n % WINDOW] = pfn;
		n++;
		w->ops++;
	}
}

static int bench_policy(enum mm_policy policy)
{
	struct topology t;
	struct machine_params p;
	struct engine_opts eo;
	struct worker w[NR_THREADS];
	char *err = NULL;

	topology_preset(&t, "2s-1t");
	machine_params_default(&p);
	p.policy = policy;
	struct machine *m = machine_create(&t, &p, &err);
	engine_opts_default(&eo);
	struct engine *e = engine_create(&t, &eo, &err);
	if (!m || !e) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return 1;
	}
	/* The kernel threads a scenario's machine has. */
	machine_boot(e, m);
	for (unsigned i = 0; i < NR_THREADS; i++) {
		w[i] = (struct worker){ .m = m };
		engine_spawn(e, i, NULL, worker_main, &w[i], NULL);
	}
	gint64 t0 = g_get_monotonic_time();
	if (engine_run(e, SIM_NS, &err)) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return 1;
	}
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
	unsigned long ops = 0;
	for (unsigned i = 0; i < NR_THREADS; i++)
		ops += w[i].ops;
	struct lock_stats zs;
	engine_class_stats(e, LOCK_CLASS_ZONE, &zs);
	printf("%-9s %2d threads  %lu page allocs+frees in %.0f ms simulated, %.2f s wall: "
	       "%.2f M ops/s, %.4f SimGrid calls per op  (zone->lock: %lu acquisitions, "
	       "wait share %.3f)\n",
	       mm_policy_names[policy], NR_THREADS, ops, SIM_NS / 1e6, wall, ops / wall / 1e6,
	       (double)engine_simgrid_calls(e) / (double)ops, (unsigned long)zs.hold.nr,
	       engine_wait_share(e, LOCK_CLASS_ZONE));
	return 0;
}

/* fn in a child process: its failure. */
static int in_child(int (*fn)(enum mm_policy), enum mm_policy policy)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		exit(fn(policy));
	waitpid(pid, &status, 0);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

int main(void)
{
	int rc = 0;

	printf("mmsim simulated-path benchmark (default quantum %.0f ns)\n",
	       ENGINE_DEFAULT_QUANTUM_NS);
	fflush(stdout);
	for (int policy = 0; policy < NR_MM_POLICIES; policy++)
		rc |= in_child(bench_policy, (enum mm_policy)policy);
	return rc;
}
