#include "snapshot_read.h"

#include "host.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <zlib.h>

/* root/rel as text, or NULL (*err set, naming the capture's file). */
static char *read_text(const char *root, const char *rel, bool needed, char **err)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL) && needed)
		*err = g_strdup_printf("the capture has no %s", rel);
	return text;
}

static long read_number(const char *root, const char *rel, long fallback)
{
	char *err = NULL;
	g_autofree char *text = read_text(root, rel, false, &err);
	char *end;
	long v;

	if (!text)
		return fallback;
	v = strtol(text, &end, 10);
	return end == text ? fallback : v;
}

/* The bracketed choice of a THP knob ("always [madvise] never"). */
static int read_choice(const char *root, const char *rel, const char *const *names, int nr,
		       int fallback)
{
	char *err = NULL;
	g_autofree char *text = read_text(root, rel, false, &err);
	const char *open = text ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return fallback;
	for (int i = 0; i < nr; i++)
		if ((size_t)(close - open - 1) == strlen(names[i]) &&
		    !strncmp(open + 1, names[i], strlen(names[i])))
			return i;
	return fallback;
}

static int read_flags(const char *root, struct snapshot *s, char **err)
{
	g_autofree char *path = g_build_filename(root, "kpageflags.gz", NULL);
	gzFile f = gzopen(path, "rb");
	enum { CHUNK = 1 << 17 };
	uint64_t *buf;
	guint64 bytes = 0, want = (guint64)s->nr_frames * 8;
	size_t have = 0;    /* bytes of buf filled: a read may end inside a word */
	int n, code = Z_OK;

	if (!f) {
		*err = g_strdup("the capture has no kpageflags.gz");
		return -1;
	}
	buf = g_new(uint64_t, CHUNK);
	while ((n = gzread(f, (char *)buf + have, (unsigned)(CHUNK * sizeof(*buf) - have))) > 0) {
		have += (size_t)n;
		bytes += (guint64)n;
		if (bytes > want) {
			*err = g_strdup_printf("kpageflags.gz: more than the manifest's %" G_GUINT64_FORMAT
					       " frames", (guint64)s->nr_frames);
			break;
		}
		snapshot_feed_flags(s, buf, have / 8);
		memmove(buf, buf + have / 8, have % 8);
		have %= 8;
	}
	if (!*err) {
		const char *what = gzerror(f, &code);

		/* zlib puts the (temporary) path before its message. */
		if (strrchr(what, ':'))
			what = strrchr(what, ':') + 2;
		if (code != Z_OK && code != Z_STREAM_END)
			*err = g_strdup_printf("kpageflags.gz: %s at byte offset %" G_GUINT64_FORMAT
					       " of the flags (frame %" G_GUINT64_FORMAT ")", what,
					       bytes, bytes / 8);
		else if (bytes != want)
			*err = g_strdup_printf("kpageflags.gz: truncated: %" G_GUINT64_FORMAT " bytes, "
					       "the manifest's %" G_GUINT64_FORMAT " frames need %"
					       G_GUINT64_FORMAT, bytes, (guint64)s->nr_frames, want);
	}
	g_free(buf);
	gzclose(f);
	return *err ? -1 : 0;
}

/* The capture's THP and vm settings the model has, over p's. */
static void read_settings(const char *root, struct machine_params *p)
{
	p->thp = (enum thp_enabled)read_choice(root, "sys/kernel/mm/transparent_hugepage/enabled",
					       thp_enabled_names, NR_THP_ENABLED, p->thp);
	p->thp_opts.defrag = (enum thp_defrag)read_choice(
		root, "sys/kernel/mm/transparent_hugepage/defrag", thp_defrag_names, NR_THP_DEFRAG,
		p->thp_opts.defrag);
	p->min_free_kbytes = (int)read_number(root, "proc/sys/vm/min_free_kbytes",
					      p->min_free_kbytes);
	p->watermark_scale_factor = (int)read_number(root, "proc/sys/vm/watermark_scale_factor",
						     p->watermark_scale_factor);
	p->watermark_boost_factor = (int)read_number(root, "proc/sys/vm/watermark_boost_factor",
						     p->watermark_boost_factor);
	p->percpu_pagelist_high_fraction = (int)read_number(
		root, "proc/sys/vm/percpu_pagelist_high_fraction", p->percpu_pagelist_high_fraction);
	p->compaction_proactiveness = (int)read_number(root, "proc/sys/vm/compaction_proactiveness",
						       p->compaction_proactiveness);
}

/* The manifest's text, or NULL (*err set) if it is not a capture's. */
static char *read_manifest(const char *root, char **err)
{
	char *manifest = read_text(root, "manifest", true, err);

	if (manifest && !g_str_has_prefix(manifest, "format mmsim-capture 1\n")) {
		*err = g_strdup("manifest: not \"format mmsim-capture 1\"");
		g_clear_pointer(&manifest, g_free);
	}
	return manifest;
}

static int read_capture(const char *root, struct snapshot *s, struct topology *t,
			struct machine_params *p, char **err)
{
	g_autofree char *manifest = read_manifest(root, err);
	g_autofree char *zoneinfo = NULL, *buddyinfo = NULL, *pagetypeinfo = NULL;
	const char *frames_line;
	guint64 frames;

	if (!manifest)
		return -1;
	if (strstr(manifest, "\nsettings_only yes\n")) {
		*err = g_strdup("a settings-only capture (./run capture --settings) holds no memory to "
				"import: give it as 'settings'");
		return -1;
	}
	if (!strstr(manifest, "\npage_size 4096\n")) {
		*err = g_strdup("manifest: the model has 4 KiB pages only");
		return -1;
	}
	frames_line = strstr(manifest, "\nframes ");
	frames = frames_line ? g_ascii_strtoull(frames_line + 8, NULL, 10) : 0;
	if (!frames || frames > PFN_NONE) {
		*err = g_strdup("manifest: no frame count, or more frames than the model's 32-bit "
				"pfns hold");
		return -1;
	}
	*err = snapshot_init(s, (pfn_t)frames);
	if (*err)
		return -1;
	if (!(zoneinfo = read_text(root, "proc/zoneinfo", true, err)) ||
	    !(buddyinfo = read_text(root, "proc/buddyinfo", true, err)) ||
	    !(pagetypeinfo = read_text(root, "proc/pagetypeinfo", true, err)))
		return -1;
	if ((*err = snapshot_parse_zoneinfo(s, zoneinfo)) ||
	    (*err = snapshot_parse_buddyinfo(s, buddyinfo)) ||
	    (*err = snapshot_parse_pagetypeinfo(s, pagetypeinfo)))
		return -1;
	if (host_topology(t, root, err))
		return -1;
	g_strlcpy(t->name, "snapshot", sizeof(t->name));
	if ((*err = snapshot_topology(s, t)))
		return -1;
	read_settings(root, p);
	return read_flags(root, s, err);
}

/* The capture at path unpacked to a temporary directory for read(root,
 * arg, err), which is then removed: read's result, or -1 with *err naming
 * the file and what is wrong. */
static int with_capture(const char *path, int (*read)(const char *root, void *arg, char **err),
			void *arg, char **err)
{
	g_autofree char *dir = g_dir_make_tmp("mmsim-capture-XXXXXX", NULL);
	g_autofree char *out = NULL, *errout = NULL;
	int status = 0, ret;
	const char *tar[] = { "tar", "-xzf", path, "-C", dir, NULL };
	const char *rm[] = { "rm", "-rf", dir, NULL };

	*err = NULL;
	if (!dir) {
		*err = g_strdup("cannot make a temporary directory to unpack the capture");
		return -1;
	}
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		*err = g_strdup_printf("%s: no such capture file", path);
		ret = -1;
	} else if (!g_spawn_sync(NULL, (char **)tar, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
				 &errout, &status, NULL) || !g_spawn_check_wait_status(status, NULL)) {
		/* tar's first line says why. */
		if (errout && strchr(g_strstrip(errout), '\n'))
			*strchr(errout, '\n') = '\0';
		*err = g_strdup_printf("%s: not a capture of ./run capture (%s)", path,
				       errout && *errout ? errout : "tar failed");
		ret = -1;
	} else {
		ret = read(dir, arg, err);
		if (ret) {
			char *e = g_strdup_printf("%s: %s", path, *err);

			g_free(*err);
			*err = e;
		}
	}
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
		     NULL);
	return ret;
}

struct snapshot_args {
	struct snapshot *s;
	struct topology *t;
	struct machine_params *p;
};

static int read_snapshot(const char *root, void *arg, char **err)
{
	struct snapshot_args *a = arg;

	return read_capture(root, a->s, a->t, a->p, err);
}

int snapshot_read(const char *path, struct snapshot *s, struct topology *t,
		  struct machine_params *p, char **err)
{
	struct snapshot_args a = { s, t, p };
	int ret;

	memset(s, 0, sizeof(*s));
	ret = with_capture(path, read_snapshot, &a, err);
	if (ret)
		snapshot_destroy(s);
	return ret;
}

static int read_settings_only(const char *root, void *arg, char **err)
{
	g_autofree char *manifest = read_manifest(root, err);

	if (!manifest)
		return -1;
	read_settings(root, arg);
	return 0;
}

int snapshot_read_settings(const char *path, struct machine_params *p, char **err)
{
	return with_capture(path, read_settings_only, p, err);
}
