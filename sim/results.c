/* The results folder of a run: see results.h. */
#include "sim/results.h"
#include "sim/tee.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct results {
	char *dir;
	bool created;               /* by this run: results_discard removes it */
	int lock_fd;                /* holds the folder's flock for the run */
};

static void remove_tree(const char *path);

/* One run at a time in a folder: an flock on DIR/.mmsim.lock, held until
 * results_close (the kernel drops it if mmsim dies).  The file stays: a
 * run that removed it could let two later runs lock two files. */
static int lock_folder(const char *dir, char **err)
{
	char *path = g_build_filename(dir, ".mmsim.lock", NULL);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		*err = g_strdup_printf("cannot create %s: %s", path, g_strerror(errno));
	else if (flock(fd, LOCK_EX | LOCK_NB)) {
		*err = errno == EWOULDBLOCK ?
		       g_strdup_printf("results folder %s is in use by another mmsim run "
				       "(%s is locked); give another --out", dir, path) :
		       g_strdup_printf("cannot lock %s: %s", path, g_strerror(errno));
		close(fd);
		fd = -1;
	}
	g_free(path);
	return fd;
}

/* A reused folder loses the files of mmsim's own names that an earlier
 * run left (its timeseries, phases, plots, ... would stand beside the new
 * summary); stdout and stderr stay, which the sweep's redirection or the
 * copier (tee) have opened already.  Files of other names stay too. */
static void clear_own_files(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		char *sub;

		if (!results_own_name(name) || !strcmp(name, "stdout") || !strcmp(name, "stderr"))
			continue;
		sub = g_build_filename(dir, name, NULL);
		remove_tree(sub);
		g_free(sub);
	}
	g_dir_close(d);
}

/* ---- numbers and CSV fields ---- */

/* The one number format of results.h.  Integral values below 1e17 go
 * through %.0f so that they never switch to exponent notation. */
static void append_double(GString *out, double v)
{
	static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (v == 0) {
		g_string_append_c(out, '0');    /* -0 too */
		return;
	}
	if (fabs(v) < 1e17 && v == (double)(int64_t)v) {
		g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.0f", v));
		return;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
		g_ascii_formatd(buf, sizeof(buf), formats[i], v);
		if (g_ascii_strtod(buf, NULL) == v)
			break;
	}
	g_string_append(out, buf);
}

/* A field as RFC 4180 quotes it, but a record stays one line: a line
 * break in a value is written as the two characters \n (\r), which the
 * awk programs of sim/csv.sh can read line by line (a quoted line break
 * split a summary.csv row in two: the sweep took it for a ragged row).
 * summary.json keeps the value as it is. */
static void append_csv_field(GString *out, const char *s)
{
	size_t len = strlen(s);
	bool quote = strpbrk(s, ",\"") || (len && (s[0] == ' ' || s[len - 1] == ' '));

	if (quote)
		g_string_append_c(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			g_string_append_c(out, '"');
		if (*s == '\n' || *s == '\r')
			g_string_append(out, *s == '\n' ? "\\n" : "\\r");
		else
			g_string_append_c(out, *s);
	}
	if (quote)
		g_string_append_c(out, '"');
}

/* ---- the folder ---- */

char *results_default_dir(const char *scenario_path, GDateTime *when)
{
	GDateTime *utc = when ? g_date_time_to_utc(when) : g_date_time_new_now_utc();
	char *base = g_path_get_basename(scenario_path);
	char *stamp = g_date_time_format(utc, "%Y%m%dT%H%M%SZ");
	size_t len = strlen(base);
	char *dir;

	if (len > 4 && g_str_has_suffix(base, ".lua"))
		base[len - 4] = '\0';
	dir = g_strdup_printf("results/%s-%s", base, stamp);
	g_free(stamp);
	g_free(base);
	g_date_time_unref(utc);
	return dir;
}

/* A folder we can write in (created: by us), else NULL and *err. */
static struct results *results_new(const char *dir, bool created, char **err)
{
	struct results *r;

	/* Refuse now rather than run to the end and write nothing.  A file
	 * made and removed, not access(): root passes access() on read-only
	 * file systems. */
	char *probe = g_build_filename(dir, ".mmsim-write-test", NULL);
	int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0) {
		*err = g_strdup_printf("cannot write in results folder %s: %s", dir,
				       g_strerror(errno));
		g_free(probe);
		return NULL;
	}
	close(fd);
	unlink(probe);
	g_free(probe);
	fd = lock_folder(dir, err);
	if (fd < 0)
		return NULL;
	if (!created)
		clear_own_files(dir);
	r = g_new0(struct results, 1);
	r->dir = g_strdup(dir);
	r->created = created;
	r->lock_fd = fd;
	return r;
}

struct results *results_open(const char *dir, char **err)
{
	bool existed = g_file_test(dir, G_FILE_TEST_IS_DIR);

	if (g_mkdir_with_parents(dir, 0777)) {
		*err = g_strdup_printf("cannot create results folder %s: %s", dir,
				       g_strerror(errno));
		return NULL;
	}
	return results_new(dir, !existed, err);
}

struct results *results_open_new(const char *dir, char **err)
{
	char *parent = g_path_get_dirname(dir);
	struct results *r = NULL;

	if (g_mkdir_with_parents(parent, 0777)) {
		*err = g_strdup_printf("cannot create %s: %s", parent, g_strerror(errno));
		g_free(parent);
		return NULL;
	}
	g_free(parent);
	/* mkdir is atomic: two runs started in the same second get two folders. */
	for (unsigned n = 1; !r; n++) {
		char *name = n == 1 ? g_strdup(dir) : g_strdup_printf("%s-%u", dir, n);

		if (!mkdir(name, 0777))
			r = results_new(name, true, err);
		else if (errno != EEXIST || n == 1000)
			*err = g_strdup_printf("cannot create results folder %s: %s", name,
					       g_strerror(errno));
		g_free(name);
		if (*err)
			break;
	}
	return r;
}

const char *results_dir(const struct results *r)
{
	return r->dir;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	close(r->lock_fd);
	g_free(r->dir);
	g_free(r);
}

/* Remove path and, if it is a folder, what it holds (symbolic links are
 * removed, not followed). */
static void remove_tree(const char *path)
{
	GDir *d = g_file_test(path, G_FILE_TEST_IS_SYMLINK) ? NULL : g_dir_open(path, 0, NULL);
	const char *name;

	if (!d) {
		unlink(path);
		return;
	}
	while ((name = g_dir_read_name(d))) {
		char *sub = g_build_filename(path, name, NULL);

		remove_tree(sub);
		g_free(sub);
	}
	g_dir_close(d);
	rmdir(path);
}

void results_discard(struct results *r)
{
	if (!r)
		return;
	if (r->created)
		remove_tree(r->dir);
	results_close(r);
}

int results_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Globs (g_pattern_match_simple) of the run's own files. */
static const char *const own_names[] = {
	"summary.json", "summary.csv", "timeseries.csv", "phases.csv", "stdout", "stderr",
	"scenario", "scenario/*",
	"vmstat", "node*_vmstat", "lock_stat", "buddyinfo", "pagetypeinfo", "zoneinfo",
	"numastat", "slabinfo", "superpageblocks", "transparent_hugepage", "schedstat",
	"spb_walk", "cpu_wait.csv", "plots.txt", "page_owner_ages",
	"memmap*.dat", "spbmap.dat",
	/* Plots: their scripts' names, or results_plot_as's, in any format. */
	"lock_timeseries.*", "cpu_wait.*", "gb_yield.*", "numa_migration.*", "phases.*",
	"memory_map*.*", "spb_map.*", "gib_map.*",
	NULL
};

bool results_own_name(const char *name)
{
	for (const char *const *g = own_names; *g; g++)
		if (g_pattern_match_simple(*g, name))
			return true;
	return false;
}

static int write_whole(const struct results *r, const char *name, const char *data, size_t len,
		       char **err);

int results_write(const struct results *r, const char *name, const char *data, size_t len,
		  char **err)
{
	if (!results_own_name(name))
		g_error("results_write: %s is not in own_names (sim/results.c)", name);
	return write_whole(r, name, data, len, err);
}

int results_write_user(const struct results *r, const char *name, const char *data,
		       size_t len, char **err)
{
	if (results_own_name(name)) {
		*err = g_strdup_printf("'%s' is a name the run's own files use", name);
		return -1;
	}
	return write_whole(r, name, data, len, err);
}

static int write_whole(const struct results *r, const char *name, const char *data, size_t len,
		       char **err)
{
	char *path = g_build_filename(r->dir, name, NULL);
	char *tmp = g_strconcat(path, ".tmp", NULL);
	char *parent = g_path_get_dirname(path);
	int fd = -1;
	int rc = -1;

	if (!g_mkdir_with_parents(parent, 0777))
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	g_free(parent);
	if (fd < 0)
		goto fail;
	if (results_write_all(fd, data, len)) {
		int e = errno;

		close(fd);
		errno = e;
		goto fail_unlink;
	}
	if (close(fd) || rename(tmp, path))
		goto fail_unlink;
	rc = 0;
	goto out;
fail_unlink:
	{
		int e = errno;

		unlink(tmp);
		errno = e;
	}
fail:
	*err = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
out:
	g_free(tmp);
	g_free(path);
	return rc;
}

/* ---- timeseries.csv ---- */

struct results_ts {
	int fd;
	char *path;
	unsigned ncols;
	GString *line;
	off_t whole;        /* bytes of the whole rows written */
	bool failed;        /* a write failed: no more rows */
};

/* A row that cannot be written in full (a full disk) is cut off again,
 * so the file ends in its last whole row, and the file takes no more:
 * the error is said once, not once per sample. */
static int ts_write_line(struct results_ts *ts, char **err)
{
	if (ts->failed)
		return 0;
	if (results_write_all(ts->fd, ts->line->str, ts->line->len)) {
		int e = errno;

		ts->failed = true;
		*err = ftruncate(ts->fd, ts->whole) ?
		       g_strdup_printf("cannot write %s: %s (and it ends in part of a row)",
				       ts->path, g_strerror(e)) :
		       g_strdup_printf("cannot write %s: %s; no more rows written (it ends in "
				       "its last whole row)", ts->path, g_strerror(e));
		return -1;
	}
	ts->whole += (off_t)ts->line->len;
	return 0;
}

struct results_ts *results_ts_open(const struct results *r, const char *name,
				   const char *const *columns, char **err)
{
	struct results_ts *ts = g_new0(struct results_ts, 1);

	if (!results_own_name(name))
		g_error("results_ts_open: %s is not in own_names (sim/results.c)", name);
	ts->path = g_build_filename(r->dir, name, NULL);
	ts->line = g_string_new(NULL);
	ts->fd = open(ts->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (ts->fd < 0) {
		*err = g_strdup_printf("cannot create %s: %s", ts->path, g_strerror(errno));
		results_ts_close(ts);
		return NULL;
	}
	for (; columns[ts->ncols]; ts->ncols++) {
		if (ts->ncols)
			g_string_append_c(ts->line, ',');
		append_csv_field(ts->line, columns[ts->ncols]);
	}
	g_string_append_c(ts->line, '\n');
	if (ts_write_line(ts, err)) {
		results_ts_close(ts);
		return NULL;
	}
	return ts;
}

/* The file has no user-space buffer: each row is one write(2), so it is
 * in the file (the page cache) as soon as this returns. */
int results_ts_row(struct results_ts *ts, const double *values, char **err)
{
	g_string_truncate(ts->line, 0);
	for (unsigned i = 0; i < ts->ncols; i++) {
		if (i)
			g_string_append_c(ts->line, ',');
		if (isfinite(values[i]))
			append_double(ts->line, values[i]);
	}
	g_string_append_c(ts->line, '\n');
	return ts_write_line(ts, err);
}

void results_ts_close(struct results_ts *ts)
{
	if (!ts)
		return;
	if (ts->fd >= 0)
		close(ts->fd);
	g_string_free(ts->line, TRUE);
	g_free(ts->path);
	g_free(ts);
}

/* ---- JSON ---- */

struct results_json {
	JsonObject *root;
};

struct results_json *results_json_new(void)
{
	struct results_json *j = g_new0(struct results_json, 1);

	j->root = json_object_new();
	return j;
}

void results_json_free(struct results_json *j)
{
	if (!j)
		return;
	json_object_unref(j->root);
	g_free(j);
}

/* The object that holds the last component of key, creating the objects
 * on the way, and that component in *name (g_free it); NULL if key is
 * invalid or conflicts with the tree: a component before the last names
 * a value, or the last names an object and object is false (a value when
 * it is true).  Conflicts are checked before anything is created, so a
 * failure changes nothing. */
static JsonObject *json_parent(struct results_json *j, const char *key, bool object,
			       char **name)
{
	char **parts = g_strsplit(key, ".", -1);
	guint last = g_strv_length(parts) - 1;
	JsonObject *o = j->root;

	if (!parts[0])          /* g_strsplit("") is empty */
		goto fail;
	for (guint i = 0; parts[i]; i++)
		if (!parts[i][0])
			goto fail;
	for (guint i = 0; i <= last; i++) {
		JsonNode *n = json_object_get_member(o, parts[i]);

		if (!n)
			break;
		if (JSON_NODE_HOLDS_OBJECT(n) != (i < last || object))
			goto fail;
		if (i < last)
			o = json_node_get_object(n);
	}
	o = j->root;
	for (guint i = 0; i < last; i++) {
		if (!json_object_has_member(o, parts[i]))
			json_object_set_object_member(o, parts[i], json_object_new());
		o = json_object_get_object_member(o, parts[i]);
	}
	*name = g_strdup(parts[last]);
	g_strfreev(parts);
	return o;
fail:
	g_strfreev(parts);
	return NULL;
}

/* Set key to the value node n (taken). */
static bool json_set(struct results_json *j, const char *key, JsonNode *n)
{
	char *name;
	JsonObject *o = json_parent(j, key, false, &name);

	if (!o) {
		json_node_unref(n);
		return false;
	}
	json_object_set_member(o, name, n);
	g_free(name);
	return true;
}

bool results_json_set_int(struct results_json *j, const char *key, int64_t v)
{
	return json_set(j, key, json_node_init_int(json_node_alloc(), v));
}

/* json-glib's integers are signed 64-bit. */
bool results_json_set_uint(struct results_json *j, const char *key, uint64_t v)
{
	if (v > G_MAXINT64)
		return results_json_set_double(j, key, (double)v);
	return results_json_set_int(j, key, (int64_t)v);
}

bool results_json_set_double(struct results_json *j, const char *key, double v)
{
	JsonNode *n = json_node_alloc();

	return json_set(j, key, isfinite(v) ? json_node_init_double(n, v) : json_node_init_null(n));
}

bool results_json_set_string(struct results_json *j, const char *key, const char *v)
{
	char *valid = g_utf8_make_valid(v, -1);
	bool ok = json_set(j, key, json_node_init_string(json_node_alloc(), valid));

	g_free(valid);
	return ok;
}

bool results_json_set_bool(struct results_json *j, const char *key, bool v)
{
	return json_set(j, key, json_node_init_boolean(json_node_alloc(), v));
}

bool results_json_set_tree(struct results_json *j, const char *key,
			   const struct results_json *from)
{
	GList *names = json_object_get_members(from->root);
	JsonObject *o = NULL;
	char *name = NULL;

	if (names && (o = json_parent(j, key, true, &name))) {
		if (!json_object_has_member(o, name))
			json_object_set_object_member(o, name, json_object_new());
		o = json_object_get_object_member(o, name);
		for (GList *l = names; l; l = l->next)
			json_object_set_member(o, l->data,
					       json_node_copy(json_object_get_member(from->root,
										     l->data)));
	}
	g_free(name);
	g_list_free(names);
	return !names || o;
}

/* json-glib 1.6 appends ".0" to every double it prints without a '.',
 * which turns 1e-08 into 1e-08.0, not JSON: drop it after an exponent,
 * outside strings, in s from offset from. */
static void json_fix_exponents(GString *s, gsize from)
{
	bool string = false, exponent = false;
	gsize w = from;

	for (gsize r = from; r < s->len; r++) {
		char c = s->str[r];

		if (string && c == '\\') {
			s->str[w++] = c;
			c = s->str[++r];
		} else if (c == '"') {
			string = !string;
		} else if (!string && exponent && c == '.') {
			r++;                    /* and the '0' */
			exponent = false;
			continue;
		} else if (!string) {
			exponent = c == 'e' || (exponent && (c == '+' || c == '-' ||
							     g_ascii_isdigit(c)));
		}
		s->str[w++] = c;
	}
	g_string_truncate(s, w);
}

void results_json_print(const struct results_json *j, GString *out)
{
	JsonNode *root = json_node_init_object(json_node_alloc(), j->root);
	JsonGenerator *gen = json_generator_new();
	gsize from = out->len;

	json_generator_set_pretty(gen, TRUE);
	json_generator_set_indent(gen, 2);
	json_generator_set_root(gen, root);
	json_generator_to_gstring(gen, out);
	json_fix_exponents(out, from);
	g_string_append_c(out, '\n');
	g_object_unref(gen);
	json_node_unref(root);
}

/* A value as a CSV field. */
static void append_csv_value(GString *out, JsonNode *n)
{
	if (JSON_NODE_HOLDS_NULL(n))
		return;
	switch (json_node_get_value_type(n)) {
	case G_TYPE_INT64:
		g_string_append_printf(out, "%" G_GINT64_FORMAT, json_node_get_int(n));
		break;
	case G_TYPE_DOUBLE:
		append_double(out, json_node_get_double(n));
		break;
	case G_TYPE_BOOLEAN:
		g_string_append(out, json_node_get_boolean(n) ? "true" : "false");
		break;
	default:
		append_csv_field(out, json_node_get_string(n));
	}
}

/* Append the leaves under obj: their dotted keys (header) or values. */
static void csv_leaves(JsonObject *obj, GString *prefix, GString *out, bool header, bool *first)
{
	GList *names = json_object_get_members(obj);

	for (GList *l = names; l; l = l->next) {
		JsonNode *n = json_object_get_member(obj, l->data);
		gsize plen = prefix->len;

		if (plen)
			g_string_append_c(prefix, '.');
		g_string_append(prefix, l->data);
		if (JSON_NODE_HOLDS_OBJECT(n)) {
			csv_leaves(json_node_get_object(n), prefix, out, header, first);
		} else {
			if (!*first)
				g_string_append_c(out, ',');
			*first = false;
			if (header)
				append_csv_field(out, prefix->str);
			else
				append_csv_value(out, n);
		}
		g_string_truncate(prefix, plen);
	}
	g_list_free(names);
}

void results_json_print_csv(const struct results_json *j, GString *out)
{
	GString *prefix = g_string_new(NULL);

	for (int header = 1; header >= 0; header--) {
		bool first = true;

		csv_leaves(j->root, prefix, out, header, &first);
		g_string_append_c(out, '\n');
	}
	g_string_free(prefix, TRUE);
}

int results_write_summary(const struct results *r, const struct results_json *j, char **err)
{
	GString *s = g_string_new(NULL);
	int rc;

	results_json_print(j, s);
	rc = results_write(r, "summary.json", s->str, s->len, err);
	if (!rc) {
		g_string_truncate(s, 0);
		results_json_print_csv(j, s);
		rc = results_write(r, "summary.csv", s->str, s->len, err);
	}
	g_string_free(s, TRUE);
	return rc;
}

/* ---- plots ---- */

const char *results_data_dir(const char *env, const char *source, const char *installed)
{
	const char *dir = g_getenv(env);

	if (dir && *dir)
		return dir;
	/* A build beside its source tree runs the tree's files, so an edit
	 * needs no install; a moved or removed tree leaves the installed ones. */
	return g_file_test(source, G_FILE_TEST_IS_DIR) ? source : installed;
}

const char *results_plots_dir(void)
{
	return results_data_dir("MMSIM_PLOTSDIR", MMSIM_PLOTSDIR, MMSIM_PKG_PLOTSDIR);
}

bool results_plot_format_valid(const char *format)
{
	return !strcmp(format, "png") || !strcmp(format, "pdf") || !strcmp(format, "svg");
}

/* name='value'; as a gnuplot -e setting.  Single-quoted gnuplot strings
 * take no backslash escapes; a quote is doubled.  A line break (a title's
 * second line) is a double-quoted "\n" joined on; other control characters
 * would end the command: they become spaces. */
static void append_setting(GString *out, const char *name, const char *value)
{
	g_string_append_printf(out, "%s='", name);
	for (; *value; value++) {
		if (*value == '\'')
			g_string_append(out, "''");
		else if (*value == '\n')
			g_string_append(out, "'.\"\\n\".'");
		else if ((unsigned char)*value < 0x20)
			g_string_append_c(out, ' ');
		else
			g_string_append_c(out, *value);
	}
	g_string_append(out, "'; ");
}

/* level: "warning" (gnuplot's remarks), or "error" (no plot). */
static void plot_message(const char *level, const char *script, const char *what,
			 const char *messages)
{
	fflush(stdout);
	fprintf(stderr, "mmsim: %s: plot %s: %s\n", level, script, what);
	if (messages && *messages)
		fprintf(stderr, "%s%s", messages,
			g_str_has_suffix(messages, "\n") ? "" : "\n");
}

/* The file ends as a whole file of its format does: a full disk can
 * leave gnuplot's output cut short without gnuplot noticing. */
static bool plot_complete(const char *path, const char *format)
{
	static const struct { const char *format, *tail; } tails[] = {
		{ "png", "IEND\xae\x42\x60\x82" }, { "pdf", "%%EOF" }, { "svg", "</svg>" },
	};
	char *data = NULL;
	gsize len = 0;
	bool ok = false;

	if (!g_file_get_contents(path, &data, &len, NULL))
		return false;
	/* Trailing whitespace after the end marker is allowed. */
	while (len && g_ascii_isspace(data[len - 1]))
		len--;
	for (size_t i = 0; i < G_N_ELEMENTS(tails); i++) {
		size_t n = strlen(tails[i].tail);

		if (!strcmp(format, tails[i].format))
			ok = len >= n && !memcmp(data + len - n, tails[i].tail, n);
	}
	g_free(data);
	return ok;
}

bool results_plot(const struct results *r, const char *script, const char *input,
		  const char *format, const char *title, const char *const *extra)
{
	return results_plot_as(r, script, input, script, format, title, extra);
}

bool results_plot_as(const struct results *r, const char *script, const char *input,
		     const char *output, const char *format, const char *title,
		     const char *const *extra)
{
	char *gp = g_strconcat(script, ".gp", NULL);
	char *script_path = g_build_filename(results_plots_dir(), gp, NULL);
	char *data = g_build_filename(r->dir, input, NULL);
	char *outname, *outfile, *errout = NULL;
	GString *settings = g_string_new(NULL);
	GError *error = NULL;
	struct stat st;
	int status;
	bool ok = false;

	format = format ? format : "png";
	outname = g_strconcat(output, ".", format, NULL);
	if (!results_own_name(outname))
		g_error("results_plot_as: %s is not in own_names (sim/results.c)", outname);
	outfile = g_build_filename(r->dir, outname, NULL);
	/* gnuplot writes a temporary name, renamed once checked whole. */
	char *tmpfile = g_strconcat(outfile, ".tmp", NULL);
	if (!results_plot_format_valid(format)) {
		char *what = g_strdup_printf("unknown format '%s' (png, pdf or svg)", format);

		plot_message("error", script, what, NULL);
		g_free(what);
		goto out;
	}
	append_setting(settings, "datafile", data);
	append_setting(settings, "outfile", tmpfile);
	append_setting(settings, "term", format);
	append_setting(settings, "plot_title", title ? title : "");
	for (; extra && extra[0] && extra[1]; extra += 2)
		append_setting(settings, extra[0], extra[1]);

	char *argv[] = { "gnuplot", "-e", settings->str, script_path, NULL };
	/* UTF-8 for style.gp's encoding whatever the caller's locale (unset
	 * under cron or env -i: gnuplot then warns on every plot), and C
	 * numbers so a plot does not change with the user's locale. */
	char **envp = g_environ_setenv(g_get_environ(), "LC_ALL", "C.UTF-8", TRUE);
	gboolean spawned = g_spawn_sync(NULL, argv, envp,
					G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
					NULL, NULL, NULL, &errout, &status, &error);

	g_strfreev(envp);
	if (!spawned) {
		plot_message("error", script, error->message, NULL);
		g_error_free(error);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		plot_message("error", script, "gnuplot failed:", errout);
	} else if (stat(tmpfile, &st) || !st.st_size || !plot_complete(tmpfile, format)) {
		char *what = g_strdup_printf("gnuplot wrote no complete plot to %s (disk full?):",
					     tmpfile);

		plot_message("error", script, what, errout);
		g_free(what);
	} else if (rename(tmpfile, outfile)) {
		char *what = g_strdup_printf("cannot rename %s: %s", tmpfile, g_strerror(errno));

		plot_message("error", script, what, NULL);
		g_free(what);
	} else {
		/* Warnings such as "Skipping data file with no valid points". */
		if (errout && *errout)
			plot_message("warning", script, "gnuplot says:", errout);
		ok = true;
	}
out:
	if (!ok)
		unlink(tmpfile);
	g_free(tmpfile);
	g_free(errout);
	g_string_free(settings, TRUE);
	g_free(outfile);
	g_free(outname);
	g_free(data);
	g_free(script_path);
	g_free(gp);
	return ok;
}

/* ---- progress line ---- */

/* The terminal's stderr, not the copy in the results folder (tee.h). */
void progress_init(struct progress *p)
{
	p->fd = tee_stderr();
	p->tty = isatty(p->fd);
	p->last_wall = -1;
	p->last_len = 0;
}

/* A simulated time in the unit that suits scale_ns. */
static void append_sim_time(GString *out, uint64_t ns, uint64_t scale_ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	size_t i = 0;

	while (i + 1 < G_N_ELEMENTS(units) && (double)scale_ns < units[i].ns)
		i++;
	g_string_append_printf(out, "%.4g %s", (double)ns / units[i].ns, units[i].unit);
}

static void append_wall_time(GString *out, double s)
{
	if (s < 60)
		g_string_append_printf(out, "%.1f s", s);
	else if (s < 3600)
		g_string_append_printf(out, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		g_string_append_printf(out, "%dh%02dm", (int)(s / 3600), (int)s % 3600 / 60);
}

void progress_format(GString *out, uint64_t sim_ns, uint64_t target_ns, double wall_s)
{
	g_string_append(out, "[mmsim] sim ");
	append_sim_time(out, sim_ns, target_ns ? target_ns : sim_ns);
	if (target_ns) {
		g_string_append(out, " / ");
		append_sim_time(out, target_ns, target_ns);
	}
	g_string_append(out, "  wall ");
	append_wall_time(out, wall_s);
	if (target_ns && sim_ns && sim_ns < target_ns) {
		g_string_append(out, "  eta ");
		append_wall_time(out, wall_s * (double)(target_ns - sim_ns) / (double)sim_ns);
	}
}

void progress_update(struct progress *p, uint64_t sim_ns, uint64_t target_ns, double wall_s)
{
	GString *line;
	size_t len;

	if (!p->tty || wall_s < 2 || (p->last_wall >= 0 && wall_s - p->last_wall < 0.25))
		return;
	line = g_string_new("\r");
	progress_format(line, sim_ns, target_ns, wall_s);
	len = line->len - 1;
	for (size_t i = len; i < p->last_len; i++)
		g_string_append_c(line, ' ');
	if (results_write_all(p->fd, line->str, line->len))
		p->tty = false;
	p->last_len = len;
	p->last_wall = wall_s;
	g_string_free(line, TRUE);
}

void progress_done(struct progress *p)
{
	if (p->last_len && results_write_all(p->fd, "\n", 1))
		p->tty = false;
	p->last_len = 0;
	p->last_wall = -1;
}
