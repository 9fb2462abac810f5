/* Trace readers for mmsim.replay (see trace.h).  zlib's gzgets reads a
 * gzip file and a plain one through the same calls, so the kmem CSV may be
 * given compressed as captured, with no subprocess (scenarios cannot start
 * one). */
#include "sim/trace.h"

#include "models/mm_space.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define NS_PER_S 1000000000ULL
#define DAY_NS (86400ULL * NS_PER_S)

void trace_counts_clear(struct trace_counts *counts)
{
	g_free(counts->first_bad);
	memset(counts, 0, sizeof(*counts));
}

/* One line into buf without its end of line; false at the end of the file. */
static bool read_line(gzFile f, GString *buf)
{
	char chunk[4096];

	g_string_truncate(buf, 0);
	while (gzgets(f, chunk, sizeof(chunk))) {
		size_t n = strlen(chunk);

		g_string_append_len(buf, chunk, (gssize)n);
		if (n && chunk[n - 1] == '\n') {
			g_string_truncate(buf, buf->len - 1);
			if (buf->len && buf->str[buf->len - 1] == '\r')
				g_string_truncate(buf, buf->len - 1);
			return true;
		}
	}
	return buf->len > 0;
}

/* A reader's walk through its file: the line number, and the verdict on a
 * malformed line (an error, or counted when skip_bad). */
struct reader {
	const char *path;
	gzFile f;
	GString *line;
	unsigned lineno;
	bool skip_bad;
	struct trace_counts *counts;
	char *err;
};

static bool reader_open(struct reader *r, const char *path, bool skip_bad,
			struct trace_counts *counts, char **err)
{
	memset(r, 0, sizeof(*r));
	memset(counts, 0, sizeof(*counts));
	r->path = path;
	r->skip_bad = skip_bad;
	r->counts = counts;
	r->f = gzopen(path, "rb");
	if (!r->f) {
		*err = g_strdup_printf("%s: %s", path, g_strerror(errno ? errno : ENOMEM));
		return false;
	}
	r->line = g_string_new(NULL);
	return true;
}

static bool reader_next(struct reader *r)
{
	if (!read_line(r->f, r->line))
		return false;
	r->lineno++;
	r->counts->lines++;
	return true;
}

/* A malformed line: false to stop (r->err set), true to go on (skipped). */
G_GNUC_PRINTF(2, 3)
static bool reader_bad(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	char *msg, *full;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	full = g_strdup_printf("%s:%u: %s", r->path, r->lineno, msg);
	g_free(msg);
	if (!r->skip_bad) {
		r->err = full;
		return false;
	}
	r->counts->bad_lines++;
	if (!r->counts->first_bad)
		r->counts->first_bad = full;
	else
		g_free(full);
	return true;
}

/* The file's read error, if reading stopped on one rather than at its end. */
static bool reader_close(struct reader *r)
{
	int zerr = Z_OK;
	const char *msg = r->err ? NULL : gzerror(r->f, &zerr);

	/* Z_BUF_ERROR: the gzip stream stopped short (a truncated file). */
	if (!r->err && zerr != Z_OK) {
		/* zlib's message starts with the path */
		if (g_str_has_prefix(msg, r->path) && !strncmp(msg + strlen(r->path), ": ", 2))
			msg += strlen(r->path) + 2;
		r->err = g_strdup_printf("%s:%u: read error: %s", r->path, r->lineno, msg);
	}
	gzclose(r->f);
	g_string_free(r->line, TRUE);
	return !r->err;
}

/* An unsigned number: decimal, 0x hex, or NULL (0); the whole token. */
static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!strcmp(s, "NULL")) {
		*v = 0;
		return true;
	}
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	while (*end == ' ')
		end++;
	return !errno && !*end;
}

/* Seconds with a fraction, "HH:MM:SS.frac" (strace -tt) or "SSSS.frac"
 * (strace -ttt, the kmem CSV), in ns. */
static bool parse_time(const char *s, uint64_t *ns)
{
	uint64_t secs = 0, part = 0, frac = 0, scale = NS_PER_S;
	int fields = 0, digits = 0;

	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			part = part * 10 + (uint64_t)(*s - '0');
			if (++digits > 12)
				return false;
			continue;
		}
		if (!digits)
			return false;
		secs = secs * (fields ? 60 : 1) + part;
		part = digits = 0;
		fields++;
		if (*s == ':' && fields < 3)
			continue;
		break;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (scale == 1)
				return false;
			scale /= 10;
			frac += (uint64_t)(*s - '0') * scale;
			digits++;
		}
		if (!digits)
			return false;
	}
	if (*s || (fields > 1 && fields != 3))
		return false;
	*ns = secs * NS_PER_S + frac;
	return true;
}

struct flag_name {
	const char *name;
	unsigned bits;
};

/* `A|B|0x10` as the bits of the names known; false for an unknown name. */
static bool parse_flags(const char *s, const struct flag_name *names, unsigned *bits)
{
	char **tok = g_strsplit(s, "|", -1);
	bool ok = tok[0] != NULL;

	*bits = 0;
	for (char **t = tok; *t && ok; t++) {
		const char *n = g_strstrip(*t);
		uint64_t v;
		unsigned i;

		if (parse_u64(n, &v))
			continue;       /* bits strace or ftrace could not name */
		for (i = 0; names[i].name && strcmp(names[i].name, n); i++)
			;
		if (names[i].name)
			*bits |= names[i].bits;
		else
			ok = false;
	}
	g_strfreev(tok);
	return ok;
}

static const struct flag_name prot_names[] = {
	{ "PROT_NONE", 0 }, { "PROT_READ", PROT_READ }, { "PROT_WRITE", PROT_READ | PROT_WRITE },
	{ "PROT_EXEC", 0 }, { "PROT_SEM", 0 }, { "PROT_GROWSDOWN", 0 }, { "PROT_GROWSUP", 0 },
	{ NULL, 0 },
};

static const struct flag_name map_names[] = {
	{ "MAP_SHARED", TRACE_MAP_SHARED }, { "MAP_SHARED_VALIDATE", TRACE_MAP_SHARED },
	{ "MAP_PRIVATE", 0 }, { "MAP_FIXED", TRACE_MAP_FIXED },
	{ "MAP_FIXED_NOREPLACE", TRACE_MAP_FIXED }, { "MAP_ANONYMOUS", TRACE_MAP_ANONYMOUS },
	{ "MAP_ANON", TRACE_MAP_ANONYMOUS }, { "MAP_STACK", TRACE_MAP_STACK },
	{ "MAP_NORESERVE", TRACE_MAP_NORESERVE }, { "MAP_POPULATE", TRACE_MAP_POPULATE },
	{ "MAP_DENYWRITE", 0 }, { "MAP_EXECUTABLE", 0 }, { "MAP_GROWSDOWN", 0 },
	{ "MAP_LOCKED", 0 }, { "MAP_NONBLOCK", 0 }, { "MAP_HUGETLB", 0 }, { "MAP_32BIT", 0 },
	{ "MAP_SYNC", 0 }, { "MAP_UNINITIALIZED", 0 }, { "MAP_DROPPABLE", 0 },
	{ "MAP_HUGE_2MB", 0 }, { "MAP_HUGE_1GB", 0 }, { "MAP_FILE", 0 },
	{ NULL, 0 },
};

static const struct flag_name mremap_names[] = {
	{ "MREMAP_MAYMOVE", TRACE_MREMAP_MAYMOVE }, { "MREMAP_FIXED", TRACE_MREMAP_FIXED },
	{ "MREMAP_DONTUNMAP", 0 }, { NULL, 0 },
};

/* The calls of strace's trace=memory the replay does not act on. */
static const char *const other_calls[] = {
	"mmap2", "old_mmap", "msync", "mincore", "mlock", "mlock2", "munlock", "mlockall",
	"munlockall", "remap_file_pages", "pkey_mprotect", "pkey_alloc", "pkey_free", "mbind",
	"set_mempolicy", "get_mempolicy", "set_mempolicy_home_node", "migrate_pages",
	"move_pages", "process_madvise", "process_mrelease", "mseal", "shmat", "shmdt",
	"map_shadow_stack", "userfaultfd", "memfd_secret", "cachestat", "subpage_prot",
	"swapon", "swapoff", "io_setup", "io_destroy", NULL,
};

/* The arguments between the call's parentheses, split at the top-level
 * commas (a comment strace adds, `0x14 /+ MADV_??? +/`, is dropped). */
static char **split_args(const char *s, size_t n)
{
	char *text = g_strndup(s, n), *c;
	char **args;

	while ((c = strstr(text, "/*"))) {
		char *e = strstr(c, "*/");

		if (!e)
			break;
		memmove(c, e + 2, strlen(e + 2) + 1);
	}
	args = g_strsplit(text, ",", -1);
	for (char **a = args; *a; a++)
		g_strstrip(*a);
	g_free(text);
	if (args[0] && !args[0][0] && !args[1]) {
		g_strfreev(args);
		args = g_new0(char *, 1);
	}
	return args;
}

/* Parse `name(args) = ret <dur>` into ev; returns NULL if ev is filled,
 * "" if the call is well formed but the replay ignores it, or a message. */
static const char *parse_call(const char *call, struct strace_event *ev, char **msg)
{
	static const char *const names[] = { "mmap", "munmap", "mremap", "madvise", "brk",
					     "mprotect", NULL };
	static const unsigned nargs[] = { 6, 2, 0, 3, 1, 3 };
	const char *open = strchr(call, '('), *close, *rest;
	char *name, **args;
	const char *res = NULL;
	uint64_t ret;
	unsigned n, i;
	int depth = 0;

	*msg = NULL;
	if (!open)
		return "no '(' after the call's name";
	for (close = open; *close; close++) {
		if (*close == '(')
			depth++;
		else if (*close == ')' && !--depth)
			break;
	}
	if (!*close)
		return "truncated: the call has no closing ')'";
	/* strace pads short calls with spaces before the '='. */
	for (rest = close + 1; *rest == ' '; rest++)
		;
	if (rest == close + 1 || strncmp(rest, "= ", 2))
		return "no ' = ' and return value after the call";
	rest += 2;
	name = g_strndup(call, (gsize)(open - call));
	for (i = 0; names[i] && strcmp(names[i], name); i++)
		;
	if (!names[i]) {
		bool known = false;

		for (const char *const *o = other_calls; *o; o++)
			known |= !strcmp(*o, name);
		if (!known)
			*msg = g_strdup_printf("unknown call '%s'", name);
		g_free(name);
		return *msg ? *msg : "";
	}
	g_free(name);
	/* The return value, then the time spent in the call: `0x7f... <0.000012>`. */
	{
		const char *sp = strchr(rest, ' ');
		char *tok = g_strndup(rest, sp ? (gsize)(sp - rest) : strlen(rest));

		if (tok[0] == '-' || tok[0] == '?') {
			g_free(tok);
			return "";          /* failed: nothing changed */
		}
		if (!parse_u64(tok, &ret)) {
			*msg = g_strdup_printf("return value '%s' is not a number", tok);
			g_free(tok);
			return *msg;
		}
		g_free(tok);
		if (sp && (sp[1] != '<' || sp[strlen(sp) - 1] != '>'))
			return "garbled text after the return value";
	}
	args = split_args(open + 1, (size_t)(close - open - 1));
	n = g_strv_length(args);
	ev->call = (enum strace_call)i;
	ev->ret = ret;
	ev->fd = -1;
	if ((ev->call == SC_MREMAP && n != 4 && n != 5) || (ev->call != SC_MREMAP && n != nargs[i])) {
		*msg = g_strdup_printf("%s has %u arguments", names[i], n);
		res = *msg;
		goto out;
	}
	if (ev->call == SC_BRK) {
		if (!parse_u64(args[0], &ev->addr))
			res = "brk's address is not a number";
		goto out;
	}
	if (!parse_u64(args[0], &ev->addr) || !parse_u64(args[1], &ev->len)) {
		res = "address or length is not a number";
		goto out;
	}
	switch (ev->call) {
	case SC_MMAP: {
		uint64_t fd;
		unsigned prot;

		if (!parse_flags(args[2], prot_names, &prot) ||
		    !parse_flags(args[3], map_names, &ev->flags))
			res = "unknown PROT_ or MAP_ flag";
		else if (!strcmp(args[4], "-1"))
			ev->fd = -1;
		else if (parse_u64(args[4], &fd) && fd < INT32_MAX)
			ev->fd = (int)fd;
		else
			res = "mmap's fd is not a number";
		ev->prot = (int)prot;
		break;
	}
	case SC_MPROTECT: {
		unsigned prot;

		if (!parse_flags(args[2], prot_names, &prot))
			res = "unknown PROT_ flag";
		ev->prot = (int)prot;
		break;
	}
	case SC_MADVISE: {
		const char *a = args[2];
		uint64_t v;

		if (!strncmp(a, "MADV_", 5) && a[5]) {
			g_strlcpy(ev->advice, a + 5, sizeof(ev->advice));
			for (char *c = ev->advice; *c; c++)
				*c = g_ascii_tolower(*c);
		} else if (parse_u64(a, &v)) {
			g_snprintf(ev->advice, sizeof(ev->advice), "%" G_GUINT64_FORMAT, v);
		} else {
			res = "madvise's advice is neither MADV_ nor a number";
		}
		break;
	}
	case SC_MREMAP:
		if (!parse_u64(args[2], &ev->new_len) ||
		    !parse_flags(args[3], mremap_names, &ev->flags))
			res = "mremap's length or flags are garbled";
		break;
	default:
		break;
	}
out:
	g_strfreev(args);
	return res;
}

/* An unfinished call waiting for its `<... NAME resumed>` line. */
struct pending {
	uint64_t ts;
	unsigned line;
	char *text;
};

static void pending_free(gpointer p)
{
	struct pending *u = p;

	g_free(u->text);
	g_free(u);
}

/* The timestamp relative to the first line's, across midnight for -tt. */
struct clock {
	bool started;
	uint64_t first, last, day;
};

static uint64_t clock_rel(struct clock *c, uint64_t abs, bool wraps)
{
	if (!c->started) {
		c->started = true;
		c->first = c->last = abs;
	}
	if (wraps && abs + DAY_NS / 2 < c->last)
		c->day += DAY_NS;
	c->last = abs;
	return abs + c->day >= c->first ? abs + c->day - c->first : 0;
}

/* One line of a capture: false to stop (r->err set). */
static bool strace_line(struct reader *r, GArray *out, GHashTable *pending, struct clock *clk)
{
	const char *s = r->line->str, *call;
	struct strace_event ev = { 0 };
	char *tstr, *joined = NULL, *msg = NULL;
	const char *why;
	uint64_t abs, tid = 0;
	bool ok = true;

	while (*s == ' ')
		s++;
	if (!*s) {
		r->counts->ignored++;
		return true;
	}
	if (!strncmp(s, "[pid", 4))
		s += 4;
	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return reader_bad(r, "no PID column (strace -f)");
	tid = strtoull(s, (char **)&s, 10);
	if (*s == ']')
		s++;
	if (*s != ' ' || tid > UINT32_MAX)
		return reader_bad(r, "garbled PID column");
	while (*s == ' ')
		s++;
	call = strchr(s, ' ');
	if (!call)
		return reader_bad(r, "truncated: nothing after the timestamp");
	tstr = g_strndup(s, (gsize)(call - s));
	if (!parse_time(tstr, &abs)) {
		ok = reader_bad(r, "timestamp '%s' is not HH:MM:SS.usec (strace -tt)", tstr);
		g_free(tstr);
		return ok;
	}
	g_free(tstr);
	call++;
	ev.ts_ns = clock_rel(clk, abs, true);
	r->counts->duration_ns = MAX(r->counts->duration_ns, ev.ts_ns);
	if (!strncmp(call, "---", 3) || !strncmp(call, "+++", 3)) {
		r->counts->ignored++;   /* a signal, or the thread's exit */
		return true;
	}
	ev.tid = (unsigned)tid;
	ev.line = r->lineno;
	if (g_str_has_suffix(call, "<unfinished ...>")) {
		struct pending *u = g_new(struct pending, 1);

		u->ts = ev.ts_ns;
		u->line = r->lineno;
		u->text = g_strndup(call, strlen(call) - strlen("<unfinished ...>"));
		g_hash_table_replace(pending, GUINT_TO_POINTER(ev.tid), u);
		return true;
	}
	if (!strncmp(call, "<... ", 5)) {
		const char *e = strstr(call, " resumed>");
		struct pending *u = g_hash_table_lookup(pending, GUINT_TO_POINTER(ev.tid));

		if (!e || !u)
			return reader_bad(r, "a resumed call with no unfinished start in thread %u",
					  ev.tid);
		joined = g_strconcat(g_strchomp(u->text), e + strlen(" resumed>"), NULL);
		ev.ts_ns = u->ts;       /* the call started when it was made */
		g_hash_table_remove(pending, GUINT_TO_POINTER(ev.tid));
		call = joined;
	}
	why = parse_call(call, &ev, &msg);
	if (!why)
		g_array_append_val(out, ev);
	else if (!*why)
		r->counts->ignored++;
	else
		ok = reader_bad(r, "%s", why);
	g_free(msg);
	g_free(joined);
	return ok;
}

GArray *strace_read(const char *path, bool skip_bad, struct trace_counts *counts, char **err)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct strace_event));
	GHashTable *pending = g_hash_table_new_full(NULL, NULL, NULL, pending_free);
	struct clock clk = { 0 };
	struct reader r;

	if (!reader_open(&r, path, skip_bad, counts, err)) {
		g_array_free(out, TRUE);
		g_hash_table_destroy(pending);
		return NULL;
	}
	while (reader_next(&r))
		if (!strace_line(&r, out, pending, &clk))
			break;
	/* A call still unfinished when the capture stopped never returned. */
	counts->ignored += g_hash_table_size(pending);
	g_hash_table_destroy(pending);
	if (!reader_close(&r)) {
		*err = r.err;
		g_array_free(out, TRUE);
		trace_counts_clear(counts);
		return NULL;
	}
	return out;
}

bool gfp_parse(const char *s, gfp_t *gfp)
{
	static const struct flag_name names[] = {
		{ "GFP_KERNEL", GFP_KERNEL }, { "GFP_KERNEL_ACCOUNT", GFP_KERNEL },
		{ "GFP_NOWAIT", GFP_NOWAIT }, { "GFP_ATOMIC", GFP_ATOMIC },
		{ "GFP_NOIO", __GFP_RECLAIM }, { "GFP_NOFS", __GFP_RECLAIM },
		{ "GFP_USER", GFP_USER }, { "GFP_HIGHUSER", GFP_HIGHUSER },
		{ "GFP_HIGHUSER_MOVABLE", GFP_HIGHUSER_MOVABLE },
		{ "GFP_TRANSHUGE_LIGHT", (GFP_HIGHUSER_MOVABLE | __GFP_NOMEMALLOC | __GFP_NOWARN) &
		  ~__GFP_RECLAIM },
		{ "GFP_TRANSHUGE", ((GFP_HIGHUSER_MOVABLE | __GFP_NOMEMALLOC | __GFP_NOWARN) &
				    ~__GFP_RECLAIM) | __GFP_DIRECT_RECLAIM },
		{ "GFP_DMA", __GFP_DMA }, { "GFP_DMA32", __GFP_DMA32 },
		{ "__GFP_DMA", __GFP_DMA }, { "__GFP_DMA32", __GFP_DMA32 },
		{ "__GFP_HIGHMEM", __GFP_HIGHMEM }, { "__GFP_MOVABLE", __GFP_MOVABLE },
		{ "__GFP_RECLAIMABLE", __GFP_RECLAIMABLE }, { "__GFP_HIGH", __GFP_HIGH },
		{ "__GFP_KSWAPD_RECLAIM", __GFP_KSWAPD_RECLAIM },
		{ "__GFP_DIRECT_RECLAIM", __GFP_DIRECT_RECLAIM }, { "__GFP_RECLAIM", __GFP_RECLAIM },
		{ "__GFP_NORETRY", __GFP_NORETRY }, { "__GFP_NOWARN", __GFP_NOWARN },
		{ "__GFP_NOMEMALLOC", __GFP_NOMEMALLOC }, { "__GFP_ZERO", __GFP_ZERO },
		{ "__GFP_RETRY_MAYFAIL", __GFP_RETRY_MAYFAIL },
		{ "__GFP_IO", 0 }, { "__GFP_FS", 0 }, { "__GFP_COMP", 0 }, { "__GFP_ACCOUNT", 0 },
		{ "__GFP_HARDWALL", 0 }, { "__GFP_THISNODE", 0 }, { "__GFP_WRITE", 0 },
		{ "__GFP_NOFAIL", 0 }, { "__GFP_MEMALLOC", 0 }, { "__GFP_NOLOCKDEP", 0 },
		{ "__GFP_ZEROTAGS", 0 }, { "__GFP_SKIP_ZERO", 0 }, { "__GFP_SKIP_KASAN", 0 },
		{ "__GFP_NO_OBJ_EXT", 0 }, { NULL, 0 },
	};
	unsigned bits;

	if (!parse_flags(s, names, &bits))
		return false;
	*gfp = bits;
	return true;
}

/* The fields of a CSV line (no quoting: comm and the rest hold no commas,
 * extra's pairs are separated by ';'). */
#define KMEM_COLUMNS 10
static const char kmem_header[] = "ts,cpu,pid,comm,event,pfn,order,migratetype,gfp,extra";

/* A capture holds a few distinct gfp strings in hundreds of thousands of
 * lines: each is parsed once.  Values are the gfp + 1 (0: not known). */
static bool kmem_gfp(GHashTable *seen, const char *s, gfp_t *gfp)
{
	gpointer v = g_hash_table_lookup(seen, s);

	if (!v) {
		if (!gfp_parse(s, gfp))
			return false;
		g_hash_table_insert(seen, g_strdup(s), GSIZE_TO_POINTER((gsize)*gfp + 1));
		return true;
	}
	*gfp = (gfp_t)(GPOINTER_TO_SIZE(v) - 1);
	return true;
}

/* The line's fields, cut in place at its commas: the reader reads the
 * capture's hundreds of thousands of lines at every run's start. */
static unsigned kmem_fields(char *s, char *f[KMEM_COLUMNS])
{
	unsigned n = 0;

	if (!*s)
		return 0;       /* as g_strsplit counts an empty line */
	for (;;) {
		char *c = strchr(s, ',');

		if (n < KMEM_COLUMNS)
			f[n] = s;
		n++;
		if (!c)
			return n;
		*c = '\0';
		s = c + 1;
	}
}

static bool kmem_line(struct reader *r, GArray *out, struct clock *clk, GHashTable *gfps)
{
	char *f[KMEM_COLUMNS];
	unsigned nf = kmem_fields(r->line->str, f);
	struct kmem_event ev = { 0 };
	uint64_t abs, v;
	bool alloc;

	if (nf != KMEM_COLUMNS)
		return reader_bad(r, "%u fields, not the %d of '%s'", nf, KMEM_COLUMNS,
				  kmem_header);
	if (!parse_time(f[0], &abs))
		return reader_bad(r, "timestamp '%s' is not seconds", f[0]);
	if (!parse_u64(f[1], &v) || v > UINT16_MAX)
		return reader_bad(r, "cpu '%s' is not a CPU number", f[1]);
	ev.cpu = (uint16_t)v;
	ev.line = r->lineno;
	ev.ts_ns = clock_rel(clk, abs, false);
	r->counts->duration_ns = MAX(r->counts->duration_ns, ev.ts_ns);
	alloc = !strcmp(f[4], "mm_page_alloc");
	if (!alloc && strcmp(f[4], "mm_page_free") && strcmp(f[4], "mm_page_free_batched")) {
		if (!g_str_has_prefix(f[4], "mm_"))
			return reader_bad(r, "event '%s' is not a kmem tracepoint", f[4]);
		r->counts->ignored++;
		return true;
	}
	ev.kind = alloc ? KMEM_ALLOC : KMEM_FREE;
	if (!parse_u64(f[5], &ev.pfn))
		return reader_bad(r, "pfn '%s' is not a number", f[5]);
	if (!parse_u64(f[6], &v) || v > MAX_PAGE_ORDER)
		return reader_bad(r, "order '%s' is not 0-%d", f[6], MAX_PAGE_ORDER);
	ev.order = (uint8_t)v;
	if (alloc && (!parse_u64(f[7], &v) || v >= MIGRATE_TYPES))
		return reader_bad(r, "migratetype '%s' is not 0-%d", f[7], MIGRATE_TYPES - 1);
	if (alloc && !kmem_gfp(gfps, f[8], &ev.gfp))
		return reader_bad(r, "gfp '%s' has a flag the reader does not know", f[8]);
	g_array_append_val(out, ev);
	return true;
}

/* Each free's allocation, by pfn, in file order. */
static void kmem_pair(GArray *events)
{
	GHashTable *live = g_hash_table_new(g_int64_hash, g_int64_equal);

	for (guint i = 0; i < events->len; i++) {
		struct kmem_event *ev = &g_array_index(events, struct kmem_event, i);
		gpointer idx;

		if (ev->kind == KMEM_ALLOC) {
			ev->pair = -1;
			g_hash_table_replace(live, &ev->pfn, GINT_TO_POINTER((gint)i + 1));
		} else if (g_hash_table_steal_extended(live, &ev->pfn, NULL, &idx)) {
			ev->pair = GPOINTER_TO_INT(idx) - 1;
		} else {
			ev->pair = -1;
		}
	}
	g_hash_table_destroy(live);
}

GArray *kmem_read(const char *path, bool skip_bad, struct trace_counts *counts, char **err)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct kmem_event));
	struct clock clk = { 0 };
	struct reader r;

	if (!reader_open(&r, path, skip_bad, counts, err)) {
		g_array_free(out, TRUE);
		return NULL;
	}
	if (!reader_next(&r) || strcmp(r.line->str, kmem_header)) {
		r.skip_bad = false;
		reader_bad(&r, "not a kmem CSV: the first line must be '%s'", kmem_header);
	} else {
		GHashTable *gfps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

		while (reader_next(&r))
			if (!kmem_line(&r, out, &clk, gfps))
				break;
		g_hash_table_destroy(gfps);
	}
	if (out->len > INT32_MAX)
		reader_bad(&r, "more than %d events", INT32_MAX);
	if (!reader_close(&r)) {
		*err = r.err;
		g_array_free(out, TRUE);
		trace_counts_clear(counts);
		return NULL;
	}
	kmem_pair(out);
	return out;
}
