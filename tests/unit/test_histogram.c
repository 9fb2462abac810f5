/* The log-linear latency histogram: exact below 16 ns, within 1/16 above,
 * percentiles by rank, and differences of two snapshots. */
#include "models/histogram.h"

#include <glib.h>

static void test_small_values_exact(void)
{
	struct log_hist h = { 0 };

	for (uint64_t v = 0; v < 16; v++)
		hist_record(&h, v);
	g_assert_cmpuint(h.count, ==, 16);
	g_assert_cmpuint(h.sum, ==, 120);
	g_assert_cmpuint(hist_percentile(&h, 0.5), ==, 7);
	g_assert_cmpuint(hist_percentile(&h, 1.0), ==, 15);
	g_assert_cmpuint(hist_percentile(&h, 0.0), ==, 0);
}

static void test_percentiles_within_a_sixteenth(void)
{
	struct log_hist h = { 0 };

	for (uint64_t v = 1; v <= 100000; v++)
		hist_record(&h, v);
	struct { double q; uint64_t exact; } cases[] = {
		{ 0.5, 50000 }, { 0.99, 99000 }, { 0.999, 99900 }, { 0.0001, 10 },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		uint64_t p = hist_percentile(&h, cases[i].q);

		g_assert_cmpuint(p, >=, cases[i].exact);
		g_assert_cmpuint(p, <=, cases[i].exact + cases[i].exact / 16);
	}
	/* One slow call in a thousand is the p99.9, not the p99. */
	struct log_hist t = { 0 };

	for (int i = 0; i < 999; i++)
		hist_record(&t, 300);
	hist_record(&t, 1000000);
	g_assert_cmpuint(hist_percentile(&t, 0.99), <, 320);
	g_assert_cmpuint(hist_percentile(&t, 0.999), <, 320);
	g_assert_cmpuint(hist_percentile(&t, 1.0), >=, 1000000);
	hist_record(&t, 1000000);
	g_assert_cmpuint(hist_percentile(&t, 0.999), >=, 1000000);
	/* Huge values share the last bucket instead of overflowing. */
	hist_record(&t, UINT64_MAX);
	g_assert_cmpuint(hist_percentile(&t, 1.0), >=, (uint64_t)1 << 46);
	struct log_hist empty = { 0 };

	g_assert_cmpuint(hist_percentile(&empty, 0.5), ==, 0);
}

static void test_window_difference(void)
{
	struct log_hist h = { 0 }, start, win;

	for (int i = 0; i < 100; i++)
		hist_record(&h, 5000);
	start = h;
	for (int i = 0; i < 100; i++)
		hist_record(&h, 40);
	win = h;
	hist_sub(&win, &start);
	g_assert_cmpuint(win.count, ==, 100);
	g_assert_cmpuint(win.sum, ==, 4000);
	g_assert_cmpuint(hist_percentile(&win, 0.999), ==, 41);
	hist_add(&win, &start);
	g_assert_cmpmem(&win, sizeof(win), &h, sizeof(h));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/histogram/small-values-exact", test_small_values_exact);
	g_test_add_func("/histogram/percentiles", test_percentiles_within_a_sixteenth);
	g_test_add_func("/histogram/window", test_window_difference);
	return g_test_run();
}
