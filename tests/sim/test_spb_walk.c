/* The spb_walk statistics: sections recorded by call site, the summary's
 * totals (a window's difference and sum), and the file's text. */
#include "sim/spb_walk.h"

#include <glib.h>
#include <string.h>

static struct mm_work work(unsigned long pass1, unsigned long preferred, unsigned long moves)
{
	struct mm_work w = { 0 };

	w.spb_visits[SPB_WALK_PASS1] = pass1;
	w.spb_visits[SPB_WALK_PREFERRED] = preferred;
	w.spb_moves = moves;
	return w;
}

static void record(struct spb_walk_stats *st, enum lock_site site, unsigned long pass1,
		   unsigned long preferred, unsigned long moves)
{
	struct mm_work w = work(pass1, preferred, moves);

	spb_walk_record(st, site, &w);
}

static void test_totals(void)
{
	struct spb_walk_stats *st = g_new0(struct spb_walk_stats, 1);
	struct spb_walk_totals a, b;

	record(st, SITE_RMQUEUE_BULK, 4000, 2, 500);
	record(st, SITE_RMQUEUE_BULK, 9, 0, 1);
	record(st, SITE_FREE_PCPPAGES_BULK, 0, 0, 3);
	spb_walk_totals(st, &a);
	g_assert_cmpuint(a.sections, ==, 3);
	g_assert_cmpuint(a.visits, ==, 4011);
	g_assert_cmpuint(a.moves, ==, 504);
	g_assert_cmpuint(a.visits_max, ==, 4002);
	g_assert_cmpuint(a.moves_max, ==, 500);
	/* A walk counts the sections it read in. */
	g_assert_cmpuint(a.walk[SPB_WALK_PASS1].sections, ==, 2);
	g_assert_cmpuint(a.walk[SPB_WALK_PASS1].visits, ==, 4009);
	g_assert_cmpuint(a.walk[SPB_WALK_PASS1].max, ==, 4000);
	g_assert_cmpuint(a.walk[SPB_WALK_PREFERRED].sections, ==, 1);
	g_assert_cmpuint(a.walk[SPB_WALK_PASS2].sections, ==, 0);
	g_assert_cmpuint(a.site[SITE_RMQUEUE_BULK].sections, ==, 2);
	g_assert_cmpuint(a.site[SITE_RMQUEUE_BULK].visits_max, ==, 4002);
	g_assert_cmpuint(a.site[SITE_FREE_PCPPAGES_BULK].sections, ==, 1);
	g_assert_cmpuint(a.site[SITE_FREE_PCPPAGES_BULK].moves, ==, 3);
	/* A window: the counts since a, the maxima the run's. */
	record(st, SITE_RMQUEUE_BULK, 16, 0, 2);
	spb_walk_totals(st, &b);
	spb_walk_totals_sub(&b, &a);
	g_assert_cmpuint(b.sections, ==, 1);
	g_assert_cmpuint(b.visits, ==, 16);
	g_assert_cmpuint(b.moves, ==, 2);
	g_assert_cmpuint(b.walk[SPB_WALK_PASS1].sections, ==, 1);
	g_assert_cmpuint(b.site[SITE_RMQUEUE_BULK].visits, ==, 16);
	g_assert_cmpuint(b.visits_max, ==, 4002);
	spb_walk_totals_add(&b, &a);
	g_assert_cmpuint(b.sections, ==, 4);
	g_assert_cmpuint(b.visits, ==, 4027);
	g_assert_cmpuint(b.site[SITE_RMQUEUE_BULK].sections, ==, 3);
	g_free(st);
}

/* The file: the sites' table, then for a site that read or moved any its
 * walks and bpftrace-style histograms (empty buckets inside the range
 * shown, bars scaled to the largest count). */
static void test_print(void)
{
	struct spb_walk_stats *st = g_new0(struct spb_walk_stats, 1);
	GString *out = g_string_new(NULL);

	record(st, SITE_RMQUEUE_BULK, 0, 1, 1);
	record(st, SITE_RMQUEUE_BULK, 5, 2, 1);
	record(st, SITE_RMQUEUE_BULK, 5000, 0, 40);
	record(st, SITE_RMQUEUE_BULK, 6000, 0, 40);
	record(st, SITE_FREE_ONE_PAGE, 0, 0, 0);
	spb_walk_print(st, out);
	g_assert_nonnull(strstr(out->str,
		"site                       sections    visits/sect        max     moves/sect        max\n"
		"rmqueue_bulk                      4        2752.00       6000          20.50         40\n"
		"free_one_page                     1           0.00          0           0.00          0\n"
		"\n"
		"rmqueue_bulk:\n"
		"  walk                     sections         visits    visits/sect        max\n"
		"  pass1                           3          11005        3668.33       6000\n"
		"  preferred                       2              3           1.50          2\n"
		"\n"
		"@visits[rmqueue_bulk]:\n"
		"[1]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[2, 4)                 0 |                                                    |\n"
		"[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"));
	g_assert_nonnull(strstr(out->str,
		"[2K, 4K)               0 |                                                    |\n"
		"[4K, 8K)               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n\n"
		"@visits[rmqueue_bulk, pass1]:\n"
		"[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"));
	g_assert_nonnull(strstr(out->str,
		"@moves[rmqueue_bulk]:\n"
		"[1]                    2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[2, 4)                 0 |                                                    |\n"));
	/* free_one_page read and moved nothing: no section of its own. */
	g_assert_null(strstr(out->str, "free_one_page:"));
	g_string_free(out, TRUE);
	g_free(st);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/spb_walk/totals", test_totals);
	g_test_add_func("/spb_walk/print", test_print);
	return g_test_run();
}
