/* The host's topology: see host.h. */
#include "sim/host.h"

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
