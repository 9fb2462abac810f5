/* The results folder: JSON (json-glib) and CSV rendering, number formats, atomic
 * files, the time series, gnuplot plots and the progress line. */
#include "sim/results.h"
#include "tests/subprocess.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static void remove_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	if (d) {
		while ((name = g_dir_read_name(d))) {
			char *p = g_build_filename(path, name, NULL);

			remove_tree(p);
			g_free(p);
		}
		g_dir_close(d);
	}
	g_remove(path);
}

static char *json_text(const struct results_json *j)
{
	GString *s = g_string_new(NULL);

	results_json_print(j, s);
	return g_string_free(s, FALSE);
}

static char *csv_text(const struct results_json *j)
{
	GString *s = g_string_new(NULL);

	results_json_print_csv(j, s);
	return g_string_free(s, FALSE);
}

static char *read_text(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_free(path);
	return text;
}

static void test_json_nesting(void)
{
	struct results_json *j = results_json_new();
	char *s;

	g_assert_true(results_json_set_string(j, "scenario", "cross-cpu-churn"));
	g_assert_true(results_json_set_uint(j, "zone_lock.acquisitions", 1234));
	g_assert_true(results_json_set_int(j, "params.cpus", 16));
	g_assert_true(results_json_set_double(j, "zone_lock.wait_share", 0.25));
	g_assert_true(results_json_set_bool(j, "params.thp", true));
	g_assert_true(results_json_set_int(j, "a.b.c.d", -1));
	s = json_text(j);
	g_assert_cmpstr(s, ==,
		"{\n"
		"  \"scenario\" : \"cross-cpu-churn\",\n"
		"  \"zone_lock\" : {\n"
		"    \"acquisitions\" : 1234,\n"
		"    \"wait_share\" : 0.25\n"
		"  },\n"
		"  \"params\" : {\n"
		"    \"cpus\" : 16,\n"
		"    \"thp\" : true\n"
		"  },\n"
		"  \"a\" : {\n"
		"    \"b\" : {\n"
		"      \"c\" : {\n"
		"        \"d\" : -1\n"
		"      }\n"
		"    }\n"
		"  }\n"
		"}\n");
	g_free(s);
	results_json_free(j);

	j = results_json_new();
	s = json_text(j);
	g_assert_cmpstr(s, ==, "{}\n");
	g_free(s);
	results_json_free(j);
}

/* Setting a key again keeps its place; members stay in first-set order. */
static void test_json_order(void)
{
	struct results_json *j = results_json_new();
	char *s;

	results_json_set_int(j, "z", 1);
	results_json_set_int(j, "a.y", 2);
	results_json_set_int(j, "m", 3);
	results_json_set_int(j, "a.b", 4);
	results_json_set_string(j, "z", "again");
	results_json_set_double(j, "a.y", 0.5);
	s = csv_text(j);
	g_assert_cmpstr(s, ==, "z,a.y,a.b,m\nagain,0.5,4,3\n");
	g_free(s);
	results_json_free(j);
}

static void test_json_conflicts(void)
{
	struct results_json *j = results_json_new();
	static const char *const bad[] = { "", ".", "a..b", ".a", "a.", "x", "v.w" };
	char *before, *after;

	results_json_set_int(j, "x.y", 1);
	results_json_set_int(j, "v", 2);
	before = json_text(j);
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_false(results_json_set_int(j, bad[i], 3));
		g_assert_false(results_json_set_string(j, bad[i], "s"));
	}
	/* A failure through a value creates nothing on the way. */
	g_assert_false(results_json_set_int(j, "v.w.deeper", 3));
	after = json_text(j);
	g_assert_cmpstr(before, ==, after);
	g_free(before);
	g_free(after);
	results_json_free(j);
}

/* The string value of member name of the JSON text s, through
 * json-glib's parser. */
static char *parsed_string(const char *s, const char *name)
{
	JsonParser *p = json_parser_new();
	char *v;

	g_assert_true(json_parser_load_from_data(p, s, -1, NULL));
	v = g_strdup(json_object_get_string_member(json_node_get_object(json_parser_get_root(p)),
						   name));
	g_object_unref(p);
	return v;
}

static void test_json_escaping(void)
{
	static const char q[] = "say \"hi\"\\path\n\ttab\r\x01\x1e end \"e-1.0 2e+5.0";
	struct results_json *j = results_json_new();
	char *s, *back;

	results_json_set_string(j, "q", q);
	results_json_set_string(j, "utf8", "µs \xff bad");
	results_json_set_string(j, "key \"quoted\"", "");
	s = json_text(j);
	g_assert_cmpstr(s, ==,
		"{\n"
		"  \"q\" : \"say \\\"hi\\\"\\\\path\\n\\ttab\\r\\u0001\\u001e end \\\"e-1.0 2e+5.0\",\n"
		"  \"utf8\" : \"µs \xef\xbf\xbd bad\",\n"
		"  \"key \\\"quoted\\\"\" : \"\"\n"
		"}\n");
	back = parsed_string(s, "q");
	g_assert_cmpstr(back, ==, q);
	g_free(back);
	g_free(s);
	results_json_free(j);
}

/* summary.csv keeps the shortest text that reads back as the same double;
 * summary.json has json-glib's 17 digits, which read back as the same
 * double too (and no "1e-08.0", json-glib 1.6's own). */
static void test_numbers(void)
{
	static const struct { double v; const char *csv, *json; } cases[] = {
		{ 0.1, "0.1", "0.10000000000000001" },
		{ 1.0 / 3, "0.3333333333333333", "0.33333333333333331" },
		{ 3.0, "3", "3.0" }, { -2.0, "-2", "-2.0" },
		{ 2.5e-7, "2.5e-07", "2.4999999999999999e-07" }, { -0.0, "0", "-0.0" },
		{ 123456789012345678.0, "1.2345678901234568e+17", "1.2345678901234568e+17" },
		{ 9007199254740993.0, "9007199254740992", "9007199254740992.0" },
		{ 0.30000000000000004, "0.30000000000000004", "0.30000000000000004" },
		{ 1e17, "1e+17", "1e+17" }, { 1e20, "1e+20", "1e+20" }, { 1e-08, "1e-08", "1e-08" },
		{ NAN, "", "null" }, { INFINITY, "", "null" },
	};
	struct results_json *j = results_json_new();
	JsonParser *p = json_parser_new();
	char *s;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *json = g_strdup_printf("{\n  \"v\" : %s\n}\n", cases[i].json);
		char *csv = g_strdup_printf("v\n%s\n", cases[i].csv);
		JsonNode *n;

		results_json_set_double(j, "v", cases[i].v);
		s = json_text(j);
		g_assert_cmpstr(s, ==, json);
		g_assert_true(json_parser_load_from_data(p, s, -1, NULL));
		n = json_object_get_member(json_node_get_object(json_parser_get_root(p)), "v");
		if (!JSON_NODE_HOLDS_NULL(n))
			g_assert_true(json_node_get_double(n) == cases[i].v);
		g_free(s);
		s = csv_text(j);
		g_assert_cmpstr(s, ==, csv);
		g_free(s);
		g_free(csv);
		g_free(json);
	}
	g_object_unref(p);
	results_json_free(j);

	j = results_json_new();
	results_json_set_int(j, "min", G_MININT64);
	results_json_set_uint(j, "max", G_MAXINT64);
	results_json_set_uint(j, "over", G_MAXUINT64);
	results_json_set_double(j, "nan", NAN);
	results_json_set_bool(j, "no", false);
	s = csv_text(j);
	g_assert_cmpstr(s, ==, "min,max,over,nan,no\n-9223372036854775808,9223372036854775807,"
			"1.8446744073709552e+19,,false\n");
	g_free(s);
	results_json_free(j);
}

/* A tree of its own goes under a key in its order; an empty one adds
 * nothing; a value in the way is a failure. */
static void test_json_tree(void)
{
	struct results_json *j = results_json_new(), *t = results_json_new();
	struct results_json *empty = results_json_new();
	char *s;

	results_json_set_int(t, "cpus", 16);
	results_json_set_string(t, "a.b", "x");
	results_json_set_int(j, "seed", 1);
	g_assert_true(results_json_set_tree(j, "params", t));
	g_assert_true(results_json_set_tree(j, "results", empty));
	g_assert_false(results_json_set_tree(j, "seed", t));
	g_assert_false(results_json_set_tree(j, "params.cpus", t));
	results_json_set_int(j, "after", 2);
	s = csv_text(j);
	g_assert_cmpstr(s, ==, "seed,params.cpus,params.a.b,after\n1,16,x,2\n");
	g_free(s);
	results_json_free(empty);
	results_json_free(t);
	results_json_free(j);
}

static void test_summary_csv(void)
{
	struct results_json *j = results_json_new();
	char *s;

	results_json_set_string(j, "params.policy", "pcp_buddy");
	results_json_set_string(j, "params.note", "a, \"b\"");
	results_json_set_string(j, "params.pad", " x");
	results_json_set_string(j, "params.lines", "1\n2");
	results_json_set_uint(j, "zone_lock.contentions", 42);
	results_json_set_double(j, "zone_lock.wait_share", 0.125);
	s = csv_text(j);
	g_assert_cmpstr(s, ==,
		"params.policy,params.note,params.pad,params.lines,"
		"zone_lock.contentions,zone_lock.wait_share\n"
		"pcp_buddy,\"a, \"\"b\"\"\",\" x\",1\\n2,42,0.125\n");
	g_free(s);
	results_json_free(j);
}

static void test_default_dir(void)
{
	GTimeZone *tz = g_time_zone_new_offset(2 * 3600);
	GDateTime *t = g_date_time_new(tz, 2024, 1, 2, 5, 4, 5);
	char *dir;

	dir = results_default_dir("scenarios/cross-cpu-churn.lua", t);
	g_assert_cmpstr(dir, ==, "results/cross-cpu-churn-20240102T030405Z");
	g_free(dir);
	dir = results_default_dir("/x/y/plain", t);
	g_assert_cmpstr(dir, ==, "results/plain-20240102T030405Z");
	g_free(dir);
	dir = results_default_dir("x.lua", NULL);
	g_assert_true(g_str_has_prefix(dir, "results/x-2"));
	g_assert_true(g_str_has_suffix(dir, "Z"));
	g_assert_cmpuint(strlen(dir), ==, strlen("results/x-20240102T030405Z"));
	g_free(dir);
	g_date_time_unref(t);
	g_time_zone_unref(tz);
}

/* A failed run's folder: removed with all in it if the run made it (and
 * its parents left), kept as it is if it was there before. */
static void test_discard(void)
{
	char *tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
	char *dir = g_build_filename(tmp, "a", "run", NULL);
	char *parent = g_path_get_dirname(dir);
	char *err = NULL;
	struct results *r;

	r = results_open(dir, &err);
	g_assert_nonnull(r);
	g_assert_cmpint(results_write(r, "scenario/mmsim/x.lua", "x", 1, &err), ==, 0);
	g_assert_cmpint(results_write(r, "vmstat", "v", 1, &err), ==, 0);
	results_discard(r);
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(parent, G_FILE_TEST_IS_DIR));

	g_assert_cmpint(g_mkdir_with_parents(dir, 0777), ==, 0);
	r = results_open(dir, &err);
	g_assert_cmpint(results_write(r, "vmstat", "v", 1, &err), ==, 0);
	results_discard(r);
	g_assert_true(g_file_test(dir, G_FILE_TEST_IS_DIR));

	r = results_open_new(dir, &err);
	g_assert_cmpstr(results_dir(r), !=, dir);
	char *made = g_strdup(results_dir(r));
	results_discard(r);
	g_assert_false(g_file_test(made, G_FILE_TEST_EXISTS));
	g_free(made);
	remove_tree(tmp);
	g_free(parent);
	g_free(dir);
	g_free(tmp);
}

static void test_open_and_write(void)
{
	char *tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
	char *dir = g_build_filename(tmp, "a", "b", "run", NULL);
	char *file = g_build_filename(tmp, "file", NULL);
	char *bad = g_build_filename(file, "run", NULL);
	char *err = NULL, *text;
	struct results *r;
	GDir *d;
	const char *name;
	unsigned n = 0;

	r = results_open(dir, &err);
	g_assert_nonnull(r);
	g_assert_cmpstr(results_dir(r), ==, dir);
	g_assert_cmpint(results_write(r, "vmstat", "nr_free_pages 1\n", 16, &err), ==, 0);
	g_assert_cmpint(results_write(r, "vmstat", "nr_free_pages 22\n", 17, &err), ==, 0);
	text = read_text(dir, "vmstat");
	g_assert_cmpstr(text, ==, "nr_free_pages 22\n");
	g_free(text);
	/* Only the file itself and the folder's lock: no NAME.tmp is left
	 * behind. */
	d = g_dir_open(dir, 0, NULL);
	while ((name = g_dir_read_name(d))) {
		if (strcmp(name, ".mmsim.lock")) {
			g_assert_cmpstr(name, ==, "vmstat");
			n++;
		}
	}
	g_dir_close(d);
	g_assert_cmpuint(n, ==, 1);

	/* A subfolder is made as needed; not under a file. */
	g_assert_cmpint(results_write_user(r, "sub/dir/x", "x", 1, &err), ==, 0);
	text = read_text(dir, "sub/dir/x");
	g_assert_cmpstr(text, ==, "x");
	g_free(text);
	g_assert_cmpint(results_write_user(r, "vmstat/x", "x", 1, &err), ==, -1);
	g_assert_nonnull(strstr(err, "cannot write"));
	g_free(err);
	err = NULL;
	/* A scenario's file may not take a name of the run's own files. */
	g_assert_true(results_own_name("schedstat") && results_own_name("gb_yield.svg") &&
		      results_own_name("node12_vmstat") && results_own_name("scenario/a.lua") &&
		      results_own_name("memmap-before.dat"));
	g_assert_false(results_own_name("notes.txt") || results_own_name("gb_yield") ||
		       results_own_name("vmstat.txt"));
	g_assert_cmpint(results_write_user(r, "lock_timeseries.png", "x", 1, &err), ==, -1);
	g_assert_nonnull(strstr(err, "the run's own files"));
	g_free(err);
	err = NULL;
	results_close(r);

	/* Reopening an existing folder is fine. */
	r = results_open(dir, &err);
	g_assert_nonnull(r);
	results_close(r);

	/* A new folder never reuses one: the next free -N suffix. */
	for (int i = 2; i <= 3; i++) {
		char *want = g_strdup_printf("%s-%d", dir, i);

		r = results_open_new(dir, &err);
		g_assert_nonnull(r);
		g_assert_cmpstr(results_dir(r), ==, want);
		results_close(r);
		g_free(want);
	}

	g_assert_true(g_file_set_contents(file, "", 0, NULL));
	g_assert_null(results_open(bad, &err));
	g_assert_true(g_str_has_prefix(err, "cannot create results folder "));
	g_free(err);

	remove_tree(tmp);
	g_free(bad);
	g_free(file);
	g_free(dir);
	g_free(tmp);
}

static void test_summary_files(void)
{
	char *tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
	struct results *r = results_open(tmp, NULL);
	struct results_json *j = results_json_new();
	char *text;

	results_json_set_uint(j, "seed", 7);
	results_json_set_double(j, "zone_lock.wait_share", 0.5);
	g_assert_cmpint(results_write_summary(r, j, NULL), ==, 0);
	text = read_text(tmp, "summary.json");
	g_assert_cmpstr(text, ==,
		"{\n  \"seed\" : 7,\n  \"zone_lock\" : {\n    \"wait_share\" : 0.5\n  }\n}\n");
	g_free(text);
	text = read_text(tmp, "summary.csv");
	g_assert_cmpstr(text, ==, "seed,zone_lock.wait_share\n7,0.5\n");
	g_free(text);
	results_json_free(j);
	results_close(r);
	remove_tree(tmp);
	g_free(tmp);
}

/* Every row is in the file before the series is closed. */
static void test_timeseries(void)
{
	static const char *const cols[] = { "time_ms", "zone_lock_contentions",
					    "zone_lock_wait_share", NULL };
	char *tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
	struct results *r = results_open(tmp, NULL);
	struct results_ts *ts = results_ts_open(r, "timeseries.csv", cols, NULL);
	double row1[] = { 0.5, 10, 0.125 }, row2[] = { 1, 25, NAN };
	char *text;

	g_assert_nonnull(ts);
	text = read_text(tmp, "timeseries.csv");
	g_assert_cmpstr(text, ==, "time_ms,zone_lock_contentions,zone_lock_wait_share\n");
	g_free(text);
	g_assert_cmpint(results_ts_row(ts, row1, NULL), ==, 0);
	g_assert_cmpint(results_ts_row(ts, row2, NULL), ==, 0);
	text = read_text(tmp, "timeseries.csv");
	g_assert_cmpstr(text, ==, "time_ms,zone_lock_contentions,zone_lock_wait_share\n"
			"0.5,10,0.125\n1,25,\n");
	g_free(text);
	results_ts_close(ts);
	results_close(r);
	remove_tree(tmp);
	g_free(tmp);
}

static bool is_png(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	char *data = NULL;
	gsize len = 0;
	bool ok = g_file_get_contents(path, &data, &len, NULL) && len > 1000 &&
		  !memcmp(data, "\x89PNG\r\n\x1a\n", 8);

	g_free(data);
	g_free(path);
	return ok;
}

/* lock_timeseries.gp and cpu_wait.gp render the CSV files a run writes. */
static void test_plot(void)
{
	static const char *const cols[] = { "time_ms", "zone_lock_acquisitions",
		"zone_lock_contentions", "zone_lock_wait_ns", "zone_lock_hold_ns",
		"zone_lock_wait_share", "pcp_lock_acquisitions", "pcp_lock_contentions",
		"free_pages", "pcp_pages", NULL };
	static const char cpu_wait[] = "cpu,zone_wait_ns,pcp_wait_ns\n"
				       "0,1500,200\n1,250000,3000\n2,0,0\n3,42000,120000\n";
	char *gnuplot = g_find_program_in_path("gnuplot");
	char *tmp, *msg = NULL;
	struct results *r;
	struct results_ts *ts;

	if (!gnuplot) {
		g_test_skip("gnuplot is not installed");
		return;
	}
	g_free(gnuplot);
	tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
	r = results_open(tmp, NULL);
	ts = results_ts_open(r, "timeseries.csv", cols, NULL);
	for (int i = 1; i <= 50; i++) {
		double row[] = { i * 0.1, i * 100, i * i * 3, i * 5000, i * 9000,
				 0.02 + 0.001 * (i % 7), i * 400, i * 2, 1e6 - i, 512 };

		g_assert_cmpint(results_ts_row(ts, row, &msg), ==, 0);
	}
	results_ts_close(ts);
	g_assert_cmpint(results_write(r, "cpu_wait.csv", cpu_wait, strlen(cpu_wait), NULL), ==, 0);
	g_assert_true(results_plot(r, "lock_timeseries", "timeseries.csv", NULL,
				   "test, upstream, 'quoted' title", NULL));
	g_assert_true(is_png(tmp, "lock_timeseries.png"));
	g_assert_true(results_plot(r, "cpu_wait", "cpu_wait.csv", "png", "per-CPU wait", NULL));
	g_assert_true(is_png(tmp, "cpu_wait.png"));
	/* A second plot of one script under its own name: a two-GiB memory
	 * map with every class. */
	GString *map = g_string_new(NULL);

	for (int i = 0; i < 2 * 512; i++)
		g_string_append_printf(map, "%d%c", i % 6, i % 512 == 511 ? '\n' : ' ');
	g_assert_cmpint(results_write(r, "memmap-x.dat", map->str, map->len, NULL), ==, 0);
	g_assert_true(results_plot_as(r, "memory_map", "memmap-x.dat", "memory_map-x", "png",
				      "memory map", (const char *const[]){ "ytics_zones",
				      "\"node 0\\nDMA\" 0", NULL }));
	g_assert_true(is_png(tmp, "memory_map-x.png"));
	g_string_free(map, TRUE);
	results_close(r);
	remove_tree(tmp);
	g_free(tmp);
}

/* A failing plot is an error with gnuplot's message and false, not an
 * abort, and leaves no file behind. */
static void test_plot_failure(void)
{
	if (g_test_subprocess()) {
		char *tmp = g_dir_make_tmp("mmsim-results-XXXXXX", NULL);
		struct results *r = results_open(tmp, NULL);

		g_assert_false(results_plot(r, "lock_timeseries", "missing.csv", "png", "t", NULL));
		g_assert_false(results_plot(r, "lock_timeseries", "missing.csv", "gif", "t", NULL));
		char *png = g_build_filename(tmp, "lock_timeseries.png", NULL);
		char *part = g_build_filename(tmp, "lock_timeseries.png.tmp", NULL);
		g_assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
		g_assert_false(g_file_test(part, G_FILE_TEST_EXISTS));
		g_free(part);
		g_free(png);
		results_close(r);
		remove_tree(tmp);
		g_free(tmp);
		return;
	}
	expect_subprocess(true, "*error: plot lock_timeseries: gnuplot failed:*missing.csv*"
				"error: plot lock_timeseries: unknown format 'gif'*");
}

static void test_progress_format(void)
{
	GString *s = g_string_new(NULL);

	progress_format(s, 12500000, 20000000, 3.1);
	g_assert_cmpstr(s->str, ==, "[mmsim] sim 12.5 ms / 20 ms  wall 3.1 s  eta 1.9 s");
	g_string_truncate(s, 0);
	progress_format(s, 500000, 0, 125);
	g_assert_cmpstr(s->str, ==, "[mmsim] sim 500 us  wall 2m05s");
	g_string_truncate(s, 0);
	progress_format(s, 1000000000, 4000000000, 4000);
	g_assert_cmpstr(s->str, ==, "[mmsim] sim 1 s / 4 s  wall 1h06m  eta 3h20m");
	g_string_free(s, TRUE);
}

/* Nothing before 2 s of wall time, at most every 0.25 s, a shorter line
 * blanks the rest of the longer one, and a newline at the end; nothing at
 * all when stderr is not a terminal. */
static void test_progress_update(void)
{
	if (g_test_subprocess()) {
		struct progress p;

		progress_init(&p);
		p.tty = false;
		progress_update(&p, 1, 2, 5);
		progress_done(&p);
		p.tty = true;
		progress_update(&p, 1000, 20000, 1.9);
		progress_update(&p, 2000, 20000, 2.0);
		progress_update(&p, 3000, 20000, 2.1);
		progress_update(&p, 10000, 20000, 2.5);
		progress_update(&p, 20000, 20000, 3.0);
		progress_done(&p);
		progress_done(&p);
		return;
	}
	expect_subprocess(true, "\r[mmsim] sim 2 us / 20 us  wall 2.0 s  eta 18.0 s"
				"\r[mmsim] sim 10 us / 20 us  wall 2.5 s  eta 2.5 s"
				"\r[mmsim] sim 20 us / 20 us  wall 3.0 s           \n");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/results/json/nesting", test_json_nesting);
	g_test_add_func("/results/json/order", test_json_order);
	g_test_add_func("/results/json/conflicts", test_json_conflicts);
	g_test_add_func("/results/json/escaping", test_json_escaping);
	g_test_add_func("/results/json/tree", test_json_tree);
	g_test_add_func("/results/numbers", test_numbers);
	g_test_add_func("/results/summary-csv", test_summary_csv);
	g_test_add_func("/results/default-dir", test_default_dir);
	g_test_add_func("/results/open-and-write", test_open_and_write);
	g_test_add_func("/results/discard", test_discard);
	g_test_add_func("/results/summary-files", test_summary_files);
	g_test_add_func("/results/timeseries", test_timeseries);
	g_test_add_func("/results/plot", test_plot);
	g_test_add_func("/results/plot-failure", test_plot_failure);
	g_test_add_func("/results/progress/format", test_progress_format);
	g_test_add_func("/results/progress/update", test_progress_update);
	return g_test_run();
}
