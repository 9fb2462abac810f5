/* `make bench`: machine initialisation time and memory per preset, and the
 * buddy allocator's raw speed (no simulated time yet).  Each machine is
 * measured in its own child process so peak memory is its own. */
#include "models/machine.h"
#include "models/memmap.h"
#include "models/page_alloc.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long peak_rss_kib(void)
{
	char *status = NULL;
	long kib = -1;

	if (g_file_get_contents("/proc/self/status", &status, NULL, NULL)) {
		char *p = strstr(status, "VmHWM:");
		if (p)
			kib = strtol(p + 6, NULL, 10);
		g_free(status);
	}
	return kib;
}

static int bench_preset(const char *name)
{
	struct topology t;
	struct machine_params p;
	char *err = NULL;

	if (topology_preset(&t, name)) {
		fprintf(stderr, "unknown preset %s\n", name);
		return 1;
	}
	machine_params_default(&p);
	gint64 t0 = g_get_monotonic_time();
	struct machine *m = machine_create(&t, &p, &err);
	gint64 t1 = g_get_monotonic_time();
	if (!m) {
		printf("%-6s refused: %s\n", name, err);
		return 0;
	}
	long rss = peak_rss_kib();

	/* Allocate and free order-0..3 blocks of all types in a window of
	 * 100,000 live blocks. */
	enum { WINDOW = 100000, OPS = 4000000 };
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE,
				      GFP_KERNEL | __GFP_RECLAIMABLE };
	pfn_t *live = g_new0(pfn_t, WINDOW);
	GRand *r = g_rand_new_with_seed(1);
	struct mm_ctx ctx = mm_ctx_null(0);
	gint64 t2 = g_get_monotonic_time();
	for (unsigned i = 0; i < OPS; i++) {
		unsigned slot = i % WINDOW;

		if (i >= WINDOW)
			__free_pages(&ctx, m, live[slot]);
		live[slot] = __alloc_pages(&ctx, m, gfps[g_rand_int_range(r, 0, 3)],
					   (unsigned)g_rand_int_range(r, 0, 4),
					   g_rand_int_range(r, 0, (gint32)t.nr_nodes), OWNER_NONE, i);
	}
	gint64 t3 = g_get_monotonic_time();
	double frames = (double)m->mm.nr_frames;

	/* Worst case for memory: fill the machine with order-3 blocks, which
	 * touches the metadata of every frame group. */
	while (__alloc_pages(&ctx, m, GFP_HIGHUSER_MOVABLE, 3, 0, OWNER_NONE, 0) != PFN_NONE)
		;
	double used = 1.0 - (double)machine_free_pages(m) / (double)machine_managed_pages(m);
	long full_rss = peak_rss_kib();

	printf("%-6s %5llu GiB %11.0f frames  memmap %5.2f B/frame  init %6.2f s  "
	       "RSS after init %7.1f MiB  buddy alloc+free %5.2f M/s  "
	       "RSS when %4.1f%% allocated %7.1f MiB\n",
	       name, (unsigned long long)(topology_total_mem(&t) >> 30), frames,
	       (double)memmap_bytes(m->mm.nr_frames) / frames, (double)(t1 - t0) / 1e6,
	       (double)rss / 1024.0, (double)(OPS - WINDOW) / ((double)(t3 - t2) / 1e6) / 1e6,
	       100.0 * used, (double)full_rss / 1024.0);
	g_free(live);
	g_rand_free(r);
	machine_destroy(m);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *defaults[] = { "test", "2s-1t", "4s-4t", NULL };
	const char **names = argc > 1 ? (const char **)argv + 1 : defaults;
	int rc = 0;

	printf("mmsim init benchmark on %ld CPUs, %llu MiB host memory\n",
	       sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)(host_memory_bytes() >> 20));
	fflush(stdout);
	for (; *names; names++) {
		pid_t pid = fork();

		if (pid == 0)
			return bench_preset(*names);
		int status;
		waitpid(pid, &status, 0);
		rc |= !WIFEXITED(status) || WEXITSTATUS(status);
	}
	return rc;
}
