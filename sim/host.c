/* The host's topology: see host.h. */
#include "sim/host.h"

#include "models/machine.h"
#include "models/mmtypes.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* CPUs in a cpulist ("0-3,8,10-11"). */
static unsigned count_cpulist(const char *list)
{
	char **parts = g_strsplit(list, ",", -1);
	unsigned n = 0;

	for (char **p = parts; *p; p++) {
		char *end;
		unsigned long a = strtoul(*p, &end, 10), b = a;

		if (end == *p)
			continue;
		if (*end == '-')
			b = strtoul(end + 1, NULL, 10);
		if (b >= a)
			n += (unsigned)(b - a + 1);
	}
	g_strfreev(parts);
	return n;
}

/* The kB after "MemTotal:" in a meminfo file (the per-node ones start
 * each line with "Node N "), in bytes; 0 if absent. */
static uint64_t memtotal(const char *path)
{
	char *text = NULL, *at;
	uint64_t kb = 0;

	if (g_file_get_contents(path, &text, NULL, NULL) && (at = strstr(text, "MemTotal:")))
		kb = g_ascii_strtoull(at + strlen("MemTotal:"), NULL, 10);
	g_free(text);
	return kb << 10;
}

/* The lowest limit in file name of dir and its parents up to base (the
 * cgroup mount), UINT64_MAX if none; *at the folder that set it. */
static uint64_t cgroup_walk(const char *base, const char *path, const char *name, char **at)
{
	uint64_t lowest = UINT64_MAX;
	char *rel = g_strdup(path);

	for (;;) {
		char *file = g_strdup_printf("%s%s/%s", base, rel, name), *text = NULL;

		/* v2's "max" is no limit (v1 says a huge number). */
		if (g_file_get_contents(file, &text, NULL, NULL) && g_ascii_isdigit(text[0])) {
			uint64_t v = g_ascii_strtoull(text, NULL, 10);

			if (v < lowest) {
				lowest = v;
				g_free(*at);
				*at = g_strdup_printf("%s%s", base, rel);
			}
		}
		g_free(text);
		g_free(file);
		if (!rel[0])
			break;
		*strrchr(rel, '/') = '\0';
	}
	g_free(rel);
	return lowest;
}

uint64_t host_memory(const char *root, char **what)
{
	char *path = g_strdup_printf("%s/proc/meminfo", root), *text = NULL, *at = NULL;
	uint64_t phys = root[0] ? memtotal(path) : host_memory_bytes();
	uint64_t limit = UINT64_MAX;

	g_free(path);
	path = g_strdup_printf("%s/proc/self/cgroup", root);
	/* Lines "0::/path" (v2) and "N:a,memory,b:/path" (v1). */
	if (g_file_get_contents(path, &text, NULL, NULL)) {
		char **lines = g_strsplit(text, "\n", -1);

		for (char **l = lines; *l; l++) {
			char **f = g_strsplit(*l, ":", 3);
			char *base = NULL;
			const char *file = NULL;

			if (g_strv_length(f) == 3 && !f[1][0] && !strcmp(f[0], "0")) {
				base = g_strdup_printf("%s/sys/fs/cgroup", root);
				file = "memory.max";
			} else if (g_strv_length(f) == 3) {
				char **c = g_strsplit(f[1], ",", -1);

				if (g_strv_contains((const char *const *)c, "memory")) {
					base = g_strdup_printf("%s/sys/fs/cgroup/memory", root);
					file = "memory.limit_in_bytes";
				}
				g_strfreev(c);
			}
			if (base) {
				/* "/" is the mount itself: the walk reads base's file. */
				const char *p = strcmp(f[2], "/") ? f[2] : "";
				uint64_t v = cgroup_walk(base, p, file, &at);

				limit = MIN(limit, v);
			}
			g_free(base);
			g_strfreev(f);
		}
		g_strfreev(lines);
	}
	g_free(text);
	g_free(path);
	if (at && limit < phys) {
		*what = g_strdup_printf("the limit of its memory cgroup, %s", at);
		phys = limit;
	} else {
		*what = g_strdup("its physical memory");
	}
	g_free(at);
	return phys;
}

static int node_number(const char *name)
{
	const char *d = name + 4;

	if (strncmp(name, "node", 4) || !*d || strspn(d, "0123456789") != strlen(d))
		return -1;
	return atoi(d);
}

static gint by_number(gconstpointer a, gconstpointer b)
{
	return *(const int *)a - *(const int *)b;
}

int host_topology(struct topology *t, const char *root, char **err)
{
	char *dir = g_strdup_printf("%s/sys/devices/system/node", root);
	GDir *d = g_dir_open(dir, 0, NULL);
	uint64_t mem[MAX_NUMNODES];
	unsigned nodes = 0, cpus = 0;

	if (d) {
		GArray *ids = g_array_new(FALSE, FALSE, sizeof(int));
		const char *name;

		while ((name = g_dir_read_name(d)))
			if (node_number(name) >= 0) {
				int id = node_number(name);

				g_array_append_val(ids, id);
			}
		g_dir_close(d);
		g_array_sort(ids, by_number);
		for (guint i = 0; i < ids->len && nodes < MAX_NUMNODES; i++) {
			int id = g_array_index(ids, int, i);
			char *path = g_strdup_printf("%s/node%d/meminfo", dir, id);
			uint64_t bytes = memtotal(path) / SECTION_SIZE_BYTES * SECTION_SIZE_BYTES;
			char *list = NULL;

			g_free(path);
			path = g_strdup_printf("%s/node%d/cpulist", dir, id);
			if (g_file_get_contents(path, &list, NULL, NULL))
				cpus += count_cpulist(list);
			g_free(list);
			g_free(path);
			/* A node without memory (CPUs only) has no zones to model. */
			if (bytes)
				mem[nodes++] = bytes;
		}
		g_array_free(ids, TRUE);
	}
	if (!nodes) {
		char *path = g_strdup_printf("%s/proc/meminfo", root);
		uint64_t bytes = memtotal(path) / SECTION_SIZE_BYTES * SECTION_SIZE_BYTES;

		if (!bytes) {
			*err = g_strdup_printf("preset 'host': cannot read this machine's memory: no "
					       "node with memory in %s, no MemTotal in %s", dir, path);
			g_free(path);
			g_free(dir);
			return -1;
		}
		g_free(path);
		mem[nodes++] = bytes;
		cpus = 0;
	}
	if (!cpus) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		cpus = online > 0 ? (unsigned)online : 1;
	}
	g_free(dir);
	cpus = MIN(cpus, MAX_CPUS);
	topology_uniform(t, nodes, 1, MAX(cpus / nodes, 1u), 0);
	for (unsigned n = 0; n < nodes; n++)
		t->node_mem[n] = mem[n];
	g_strlcpy(t->name, "host", sizeof(t->name));
	return 0;
}
