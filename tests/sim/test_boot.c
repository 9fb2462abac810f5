/* machine_boot: the kernel threads a driver of the model gets, each seen
 * at work (or absent when its interval is 0).  SimGrid runs one engine
 * per process, so every case runs in a child process. */
#include "models/machine.h"
#include "models/pcp.h"
#include "sim/boot.h"
#include "sim/engine.h"
#include "tests/subprocess.h"

#include <glib.h>
#include <string.h>

#define GiB (1ULL << 30)

struct booted {
	struct machine *m;
	struct engine *e;
};

/* Two nodes of 1 GiB and two CPUs each, booted with the given intervals. */
static struct booted boot(enum mm_policy policy, uint64_t vmstat_interval,
			  uint64_t kswapd_interval)
{
	struct topology t;
	struct machine_params p;
	struct engine_opts o;
	char *err = NULL;
	struct booted b;

	topology_uniform(&t, 2, 1, 2, 1 * GiB);
	machine_params_default(&p);
	p.policy = policy;
	p.vmstat_interval = vmstat_interval;
	p.kswapd_interval = kswapd_interval;
	b.m = machine_create(&t, &p, &err);
	g_assert_null(err);
	engine_opts_default(&o);
	b.e = engine_create(&t, &o, &err);
	g_assert_null(err);
	machine_boot(b.e, b.m);
	return b;
}

static void idle_5ms(struct mm_ctx *ctx, void *arg)
{
	(void)arg;
	engine_sleep(ctx, 5000000);
}

static void run_5ms(struct booted *b)
{
	char *err = NULL;

	engine_spawn(b->e, 3, NULL, idle_5ms, NULL, NULL);
	g_assert_cmpint(engine_run(b->e, 0, &err), ==, 0);
	g_assert_null(err);
}

/* Woken before the run, node 1's kswapd does a turn on its free node,
 * finds it balanced and sleeps (the wake flag cleared); node 0's kcompactd,
 * woken for order 3, compacts once (one kcompactd_wake event). */
static void test_kswapd_kcompactd(void)
{
	if (!in_subprocess())
		return;
	struct booted b = boot(POLICY_UPSTREAM, 1000000000, 1000000);

	b.m->node_data[1].kswapd_wake = true;
	b.m->node_data[1].kswapd_order = 0;
	b.m->node_data[0].kcompactd_wake = true;
	b.m->node_data[0].kcompactd_max_order = 3;
	b.m->node_data[0].kcompactd_highest_zoneidx = MAX_NR_ZONES - 1;
	run_5ms(&b);
	g_assert_false(b.m->node_data[1].kswapd_wake);
	g_assert_cmpuint(b.m->vm_events[KCOMPACTD_WAKE], ==, 1);
	g_assert_null(b.m->node_data[0].evacuate_wq);
	engine_destroy(b.e);
	machine_destroy(b.m);
}

/* kswapd_interval 0: no kswapd, so the wake is never taken. */
static void test_no_kswapd(void)
{
	if (!in_subprocess())
		return;
	struct booted b = boot(POLICY_UPSTREAM, 1000000000, 0);

	b.m->node_data[1].kswapd_wake = true;
	run_5ms(&b);
	g_assert_true(b.m->node_data[1].kswapd_wake);
	engine_destroy(b.e);
	machine_destroy(b.m);
}

/* The vmstat worker of CPU 0, every 1 ms, decays a pageset's high raised
 * above high_min by an eighth a pass (decay_pcp_high): 5 passes in 5 ms
 * leave it below where it was; with no worker it stays. */
static void vmstat_decays(uint64_t interval, bool decays)
{
	struct booted b = boot(POLICY_UPSTREAM, interval, 1000000);
	struct zone *z = NULL;

	for_each_populated_zone(b.m, zz)
		if (zz->node == 0)
			z = zz;
	struct per_cpu_pages *pcp = zone_pcp(z, 0);
	int high = pcp->high_min + 4096;

	pcp->high = high;
	run_5ms(&b);
	if (decays)
		g_assert_cmpint(pcp->high, <, high);
	else
		g_assert_cmpint(pcp->high, ==, high);
	engine_destroy(b.e);
	machine_destroy(b.m);
}

static void test_vmstat_worker(void)
{
	if (!in_subprocess())
		return;
	vmstat_decays(1000000, true);
}

static void test_no_vmstat_worker(void)
{
	if (!in_subprocess())
		return;
	vmstat_decays(0, false);
}

/* Two threads taking two locks in opposite orders: with the kernel
 * threads waking every millisecond SimGrid never sees the deadlock; the
 * vmstat worker's kthread_should_stop finds it and ends the run. */
struct abba {
	struct spinlock a, b;
};

static void ab(struct mm_ctx *ctx, void *arg)
{
	struct abba *x = arg;

	spin_lock(ctx, &x->a, SITE_OTHER);
	engine_work(ctx, 1000);
	spin_lock(ctx, &x->b, SITE_OTHER);
}

static void ba(struct mm_ctx *ctx, void *arg)
{
	struct abba *x = arg;

	spin_lock(ctx, &x->b, SITE_OTHER);
	engine_work(ctx, 1000);
	spin_lock(ctx, &x->a, SITE_OTHER);
}

static void test_stall_found(void)
{
	/* A check that missed the stall would run for ever: the child gets 20 s. */
	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 20 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
		g_test_trap_assert_passed();
		return;
	}
	struct booted b = boot(POLICY_UPSTREAM, 1000000, 1000000);
	struct abba x;
	char *err = NULL;

	spin_lock_init(&x.a, LOCK_CLASS_ZONE);
	spin_lock_init(&x.b, LOCK_CLASS_ZONE);
	engine_spawn(b.e, 1, NULL, ab, &x, NULL);
	engine_spawn(b.e, 3, NULL, ba, &x, NULL);
	g_assert_cmpint(engine_run(b.e, 0, &err), ==, -1);
	g_assert_nonnull(strstr(err, "deadlock"));
	g_free(err);
}

/* Under spb the defrag queues exist (pageblock_evacuate_init). */
static void test_spb_queues(void)
{
	if (!in_subprocess())
		return;
	struct booted b = boot(POLICY_SPB, 1000000000, 1000000);

	g_assert_nonnull(b.m->node_data[0].evacuate_wq);
	g_assert_nonnull(b.m->node_data[1].evacuate_wq);
	run_5ms(&b);
	engine_destroy(b.e);
	machine_destroy(b.m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/boot/kswapd_kcompactd", test_kswapd_kcompactd);
	g_test_add_func("/boot/no_kswapd", test_no_kswapd);
	g_test_add_func("/boot/vmstat_worker", test_vmstat_worker);
	g_test_add_func("/boot/no_vmstat_worker", test_no_vmstat_worker);
	g_test_add_func("/boot/stall_found", test_stall_found);
	g_test_add_func("/boot/spb_queues", test_spb_queues);
	return g_test_run();
}
