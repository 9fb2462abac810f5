/* `make bench`: page allocations and frees per wall-clock second through
 * the full simulated path (SimGrid engaged, locks and costs timed), 64
 * threads on 64 CPUs of the 2s-1t machine, for each policy.  Each thread
 * keeps a window of 256 order-0 movable pages on its node: it allocates
 * one and frees the oldest, with 100 ns of its own work per allocation.
 * Then pages migrated per wall-clock second by compaction (upstream): two
 * processes fault 2 GiB each on node 0, page by page in turn, so their
 * pages interleave; one exits, leaving a free page between every two of
 * the other's; a thread on CPU 0 compacts node 0 whole (the write to
 * /proc/sys/vm/compact_memory), the migrate scanner moving the lower
 * pages into the upper holes.  Each run is a child process (SimGrid loads
 * one platform per process). */
#include "models/compaction.h"
#include "models/machine.h"
#include "models/mm_space.h"
#include "models/page_alloc.h"
#include "models/pcp.h"
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
	       "%.2f M ops/s  (zone->lock: %lu acquisitions, wait share %.3f)\n",
	       mm_policy_names[policy], NR_THREADS, ops, SIM_NS / 1e6, wall, ops / wall / 1e6,
	       (unsigned long)zs.hold.nr, engine_wait_share(e, LOCK_CLASS_ZONE));
	return 0;
}

#define COMPACT_PAGES (512u * 1024)     /* per process: 2 GiB */

static void compact_main(struct mm_ctx *ctx, void *arg)
{
	compact_node(ctx, arg, 0, false);
}

static int bench_compaction(enum mm_policy policy)
{
	struct topology t;
	struct machine_params p;
	struct engine_opts eo;
	struct mm_ctx ctx = mm_ctx_null(0);
	struct mm_struct *mm[2];
	uint64_t addr[2];
	char *err = NULL;
	int merr;

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
	for (int i = 0; i < 2; i++) {
		mm[i] = mm_alloc(&ctx, m);
		addr[i] = mmap_anon(mm[i], (uint64_t)COMPACT_PAGES * 4096, PROT_READ | PROT_WRITE,
				    &merr);
	}
	for (uint64_t off = 0; off < (uint64_t)COMPACT_PAGES * 4096; off += 4096)
		for (int i = 0; i < 2; i++)
			if (touch_range(&ctx, mm[i], addr[i] + off, 4096, NULL))
				g_error("bench: fault failed");
	exit_mmap(&ctx, mm[1]);
	drain_all_pages(&ctx, m, NULL);
	engine_spawn(e, 0, "compact", compact_main, m, NULL);
	gint64 t0 = g_get_monotonic_time();
	if (engine_run(e, 0, &err)) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return 1;
	}
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
	unsigned long moved = m->vm_events[PGMIGRATE_SUCCESS];

	printf("compaction (%s, node 0 of 2s-1t): %lu pages migrated in %.1f ms simulated, "
	       "%.2f s wall: %.0f k pages/s  (%lu scanned by the migrate scanner, %lu by the "
	       "free scanner)\n", mm_policy_names[policy], moved, engine_clock(e) / 1e6, wall, moved / wall / 1e3,
	       m->vm_events[COMPACTMIGRATE_SCANNED], m->vm_events[COMPACTFREE_SCANNED]);
	exit_mmap(&ctx, mm[0]);
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
	fflush(stdout);
	rc |= in_child(bench_compaction, POLICY_UPSTREAM);
	return rc;
}
