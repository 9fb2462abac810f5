/* The results folder of a run: see results.h. */
#include "sim/results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct results {
	char *dir;
};

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

static void append_csv_field(GString *out, const char *s)
{
	size_t len = strlen(s);
	bool quote = strpbrk(s, ",\"\r\n") ||
		     (len && (s[0] == ' ' || s[len - 1] == ' '));

	if (!quote) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *s);
	}
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

struct results *results_open(const char *dir, char **err)
{
	struct results *r;

	if (g_mkdir_with_parents(dir, 0777)) {
		*err = g_strdup_printf("cannot create results folder %s: %s", dir,
				       g_strerror(errno));
		return NULL;
	}
	r = g_new0(struct results, 1);
	r->dir = g_strdup(dir);
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
	g_free(r->dir);
	g_free(r);
}

/* write(2) all of buf, through partial writes and signals. */
static int write_all(int fd, const char *buf, size_t len)
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

int results_write(const struct results *r, const char *name, const char *data, size_t len,
		  char **err)
{
	char *path = g_build_filename(r->dir, name, NULL);
	char *tmp = g_strconcat(path, ".tmp", NULL);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int rc = -1;

	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len)) {
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
};

static int ts_write_line(struct results_ts *ts, char **err)
{
	if (write_all(ts->fd, ts->line->str, ts->line->len)) {
		*err = g_strdup_printf("cannot write %s: %s", ts->path, g_strerror(errno));
		return -1;
	}
	return 0;
}

struct results_ts *results_ts_open(const struct results *r, const char *name,
				   const char *const *columns, char **err)
{
	struct results_ts *ts = g_new0(struct results_ts, 1);

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

enum jtype { J_OBJECT, J_INT, J_UINT, J_DOUBLE, J_STRING, J_BOOL };

struct jnode {
	char *name;
	enum jtype type;
	union {
		int64_t i;
		uint64_t u;
		double d;
		char *s;
		bool b;
		GPtrArray *members;     /* J_OBJECT: struct jnode *, in order */
	};
};

struct results_json {
	struct jnode root;
};

static void jnode_clear(struct jnode *n)
{
	if (n->type == J_OBJECT)
		g_ptr_array_free(n->members, TRUE);
	else if (n->type == J_STRING)
		g_free(n->s);
}

static void jnode_free(gpointer p)
{
	struct jnode *n = p;

	jnode_clear(n);
	g_free(n->name);
	g_free(n);
}

static void jnode_init_object(struct jnode *n)
{
	n->type = J_OBJECT;
	n->members = g_ptr_array_new_with_free_func(jnode_free);
}

struct results_json *results_json_new(void)
{
	struct results_json *j = g_new0(struct results_json, 1);

	jnode_init_object(&j->root);
	return j;
}

void results_json_free(struct results_json *j)
{
	if (!j)
		return;
	jnode_clear(&j->root);
	g_free(j);
}

static struct jnode *jnode_member(const struct jnode *obj, const char *name)
{
	for (guint i = 0; i < obj->members->len; i++) {
		struct jnode *m = g_ptr_array_index(obj->members, i);

		if (!strcmp(m->name, name))
			return m;
	}
	return NULL;
}

static struct jnode *jnode_add(struct jnode *obj, const char *name)
{
	struct jnode *m = g_new0(struct jnode, 1);

	m->name = g_strdup(name);
	g_ptr_array_add(obj->members, m);
	return m;
}

/* The value node for key, created or emptied for a new value; NULL if key
 * is invalid or conflicts with the tree.  Conflicts can only be met on
 * existing nodes, before anything is created, so a failure changes
 * nothing. */
static struct jnode *json_slot(struct results_json *j, const char *key)
{
	char **parts = g_strsplit(key, ".", -1);
	struct jnode *n = &j->root, *m = NULL;
	guint last = g_strv_length(parts) - 1;

	if (!parts[0])          /* g_strsplit("") is empty */
		goto fail;
	for (guint i = 0; parts[i]; i++)
		if (!parts[i][0])
			goto fail;
	for (guint i = 0; i <= last; i++) {
		m = jnode_member(n, parts[i]);
		if (!m) {
			m = jnode_add(n, parts[i]);
			if (i < last)
				jnode_init_object(m);
		} else if ((m->type == J_OBJECT) != (i < last)) {
			goto fail;
		} else if (i == last) {
			jnode_clear(m);
		}
		n = m;
	}
	g_strfreev(parts);
	return m;
fail:
	g_strfreev(parts);
	return NULL;
}

bool results_json_set_int(struct results_json *j, const char *key, int64_t v)
{
	struct jnode *n = json_slot(j, key);

	if (!n)
		return false;
	n->type = J_INT;
	n->i = v;
	return true;
}

bool results_json_set_uint(struct results_json *j, const char *key, uint64_t v)
{
	struct jnode *n = json_slot(j, key);

	if (!n)
		return false;
	n->type = J_UINT;
	n->u = v;
	return true;
}

bool results_json_set_double(struct results_json *j, const char *key, double v)
{
	struct jnode *n = json_slot(j, key);

	if (!n)
		return false;
	n->type = J_DOUBLE;
	n->d = v;
	return true;
}

bool results_json_set_string(struct results_json *j, const char *key, const char *v)
{
	struct jnode *n = json_slot(j, key);

	if (!n)
		return false;
	n->type = J_STRING;
	n->s = g_utf8_make_valid(v, -1);
	return true;
}

bool results_json_set_bool(struct results_json *j, const char *key, bool v)
{
	struct jnode *n = json_slot(j, key);

	if (!n)
		return false;
	n->type = J_BOOL;
	n->b = v;
	return true;
}

static void append_json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':  g_string_append(out, "\\\""); break;
		case '\\': g_string_append(out, "\\\\"); break;
		case '\n': g_string_append(out, "\\n"); break;
		case '\r': g_string_append(out, "\\r"); break;
		case '\t': g_string_append(out, "\\t"); break;
		case '\b': g_string_append(out, "\\b"); break;
		case '\f': g_string_append(out, "\\f"); break;
		default:
			if (c < 0x20)
				g_string_append_printf(out, "\\u%04x", c);
			else
				g_string_append_c(out, (char)c);
		}
	}
	g_string_append_c(out, '"');
}

/* A scalar as JSON (json) or as a CSV field. */
static void append_scalar(GString *out, const struct jnode *n, bool json)
{
	switch (n->type) {
	case J_INT:
		g_string_append_printf(out, "%" G_GINT64_FORMAT, n->i);
		break;
	case J_UINT:
		g_string_append_printf(out, "%" G_GUINT64_FORMAT, n->u);
		break;
	case J_DOUBLE:
		if (isfinite(n->d))
			append_double(out, n->d);
		else if (json)
			g_string_append(out, "null");
		break;
	case J_STRING:
		if (json)
			append_json_string(out, n->s);
		else
			append_csv_field(out, n->s);
		break;
	case J_BOOL:
		g_string_append(out, n->b ? "true" : "false");
		break;
	case J_OBJECT:
		g_assert_not_reached();
	}
}

static void print_node(const struct jnode *n, GString *out, unsigned depth)
{
	if (n->type != J_OBJECT) {
		append_scalar(out, n, true);
		return;
	}
	if (!n->members->len) {
		g_string_append(out, "{}");
		return;
	}
	g_string_append(out, "{\n");
	for (guint i = 0; i < n->members->len; i++) {
		const struct jnode *m = g_ptr_array_index(n->members, i);

		g_string_append_printf(out, "%*s", (int)(depth + 1) * 2, "");
		append_json_string(out, m->name);
		g_string_append(out, ": ");
		print_node(m, out, depth + 1);
		g_string_append(out, i + 1 < n->members->len ? ",\n" : "\n");
	}
	g_string_append_printf(out, "%*s}", (int)depth * 2, "");
}

void results_json_print(const struct results_json *j, GString *out)
{
	print_node(&j->root, out, 0);
	g_string_append_c(out, '\n');
}

/* Append the leaves under obj: their dotted keys (header) or values. */
static void csv_leaves(const struct jnode *obj, GString *prefix, GString *out, bool header,
		       bool *first)
{
	for (guint i = 0; i < obj->members->len; i++) {
		const struct jnode *m = g_ptr_array_index(obj->members, i);
		gsize plen = prefix->len;

		if (plen)
			g_string_append_c(prefix, '.');
		g_string_append(prefix, m->name);
		if (m->type == J_OBJECT) {
			csv_leaves(m, prefix, out, header, first);
		} else {
			if (!*first)
				g_string_append_c(out, ',');
			*first = false;
			if (header)
				append_csv_field(out, prefix->str);
			else
				append_scalar(out, m, false);
		}
		g_string_truncate(prefix, plen);
	}
}

void results_json_print_csv(const struct results_json *j, GString *out)
{
	GString *prefix = g_string_new(NULL);

	for (int header = 1; header >= 0; header--) {
		bool first = true;

		csv_leaves(&j->root, prefix, out, header, &first);
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

const char *results_plots_dir(void)
{
	const char *dir = g_getenv("MMSIM_PLOTSDIR");

	return dir && *dir ? dir : MMSIM_PLOTSDIR;
}

bool results_plot_format_valid(const char *format)
{
	return !strcmp(format, "png") || !strcmp(format, "pdf") || !strcmp(format, "svg");
}

/* name='value'; as a gnuplot -e setting.  Single-quoted gnuplot strings
 * take no backslash escapes; a quote is doubled.  Control characters
 * would end the command: they become spaces. */
static void append_setting(GString *out, const char *name, const char *value)
{
	g_string_append_printf(out, "%s='", name);
	for (; *value; value++) {
		if (*value == '\'')
			g_string_append(out, "''");
		else if ((unsigned char)*value < 0x20)
			g_string_append_c(out, ' ');
		else
			g_string_append_c(out, *value);
	}
	g_string_append(out, "'; ");
}

static void plot_warning(const char *script, const char *what, const char *messages)
{
	fflush(stdout);
	fprintf(stderr, "mmsim: warning: plot %s: %s\n", script, what);
	if (messages && *messages)
		fprintf(stderr, "%s%s", messages,
			g_str_has_suffix(messages, "\n") ? "" : "\n");
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
	outfile = g_build_filename(r->dir, outname, NULL);
	if (!results_plot_format_valid(format)) {
		char *what = g_strdup_printf("unknown format '%s' (png, pdf or svg)", format);

		plot_warning(script, what, NULL);
		g_free(what);
		goto out;
	}
	append_setting(settings, "datafile", data);
	append_setting(settings, "outfile", outfile);
	append_setting(settings, "term", format);
	append_setting(settings, "plot_title", title ? title : "");
	for (; extra && extra[0] && extra[1]; extra += 2)
		append_setting(settings, extra[0], extra[1]);

	char *argv[] = { "gnuplot", "-e", settings->str, script_path, NULL };

	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
			  NULL, NULL, NULL, &errout, &status, &error)) {
		plot_warning(script, error->message, NULL);
		g_error_free(error);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		plot_warning(script, "gnuplot failed:", errout);
	} else if (stat(outfile, &st) || !st.st_size) {
		plot_warning(script, "gnuplot wrote no plot:", errout);
	} else {
		/* Warnings such as "Skipping data file with no valid points". */
		if (errout && *errout)
			plot_warning(script, "gnuplot says:", errout);
		ok = true;
	}
out:
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

void progress_init(struct progress *p)
{
	p->tty = isatty(STDERR_FILENO);
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

	if (!p->tty || wall_s < 2 || (p->last_wall >= 0 && wall_s - p->last_wall < 0.25))
		return;
	line = g_string_new(NULL);
	progress_format(line, sim_ns, target_ns, wall_s);
	fprintf(stderr, "\r%s%*s", line->str,
		(int)(p->last_len > line->len ? p->last_len - line->len : 0), "");
	p->last_len = line->len;
	p->last_wall = wall_s;
	g_string_free(line, TRUE);
}

void progress_done(struct progress *p)
{
	if (p->last_len)
		fputc('\n', stderr);
	p->last_len = 0;
	p->last_wall = -1;
}
