#include "topology.h"
#include "mmtypes.h"

#include <glib.h>
#include <string.h>

#define GiB (1ULL << 30)

struct preset {
	const char *name;
	unsigned sockets, nodes_per_socket, cpus_per_socket;
	uint64_t mem_per_node;
};

/* "test" is small enough for unit tests; the others are the machines the
 * project is about (a dual-socket 1 TiB and a quad-socket 4 TiB server). */
static const struct preset presets[] = {
	{ "test", 1, 1, 4, 8 * GiB },
	{ "test-numa", 2, 1, 4, 4 * GiB },
	{ "2s-1t", 2, 1, 64, 512 * GiB },
	{ "4s-4t", 4, 1, 96, 1024 * GiB },
};

void topology_uniform(struct topology *t, unsigned sockets, unsigned nodes_per_socket,
		      unsigned cpus_per_socket, uint64_t mem_per_node)
{
	memset(t, 0, sizeof(*t));
	g_strlcpy(t->name, "custom", sizeof(t->name));
	t->sockets = sockets;
	t->nodes_per_socket = nodes_per_socket;
	t->cpus_per_socket = cpus_per_socket;
	uint64_t nodes = (uint64_t)sockets * nodes_per_socket;

	t->nr_nodes = nodes <= MAX_NUMNODES ? (unsigned)nodes : 0;
	for (unsigned n = 0; n < t->nr_nodes && n < MAX_NUMNODES; n++)
		t->node_mem[n] = mem_per_node;
}

int topology_preset(struct topology *t, const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(presets); i++) {
		const struct preset *p = &presets[i];

		if (strcmp(p->name, name))
			continue;
		topology_uniform(t, p->sockets, p->nodes_per_socket, p->cpus_per_socket,
				 p->mem_per_node);
		g_strlcpy(t->name, p->name, sizeof(t->name));
		return 0;
	}
	return -1;
}

const char *topology_preset_names(void)
{
	return "test, test-numa, 2s-1t, 4s-4t";
}

uint64_t topology_total_mem(const struct topology *t)
{
	uint64_t sum = 0;

	for (unsigned n = 0; n < t->nr_nodes && n < MAX_NUMNODES; n++)
		sum += t->node_mem[n];
	return sum;
}

char *topology_check_shape(unsigned sockets, unsigned nodes_per_socket, unsigned cpus_per_socket)
{
	/* In 64 bits: the products of huge counts must not wrap. */
	uint64_t nodes = (uint64_t)sockets * nodes_per_socket;
	uint64_t cpus = (uint64_t)sockets * cpus_per_socket;

	if (sockets == 0 || nodes_per_socket == 0 || cpus_per_socket == 0)
		return g_strdup_printf("machine needs at least one socket, node and CPU "
				       "(sockets=%u nodes_per_socket=%u cpus_per_socket=%u)",
				       sockets, nodes_per_socket, cpus_per_socket);
	if (nodes > MAX_NUMNODES)
		return g_strdup_printf("%" G_GUINT64_FORMAT " NUMA nodes requested (sockets x "
				       "nodes_per_socket); 1 to %d are supported", nodes, MAX_NUMNODES);
	if (cpus > MAX_CPUS)
		return g_strdup_printf("%" G_GUINT64_FORMAT " CPUs requested (sockets x "
				       "cpus_per_socket); 1 to %d are supported", cpus, MAX_CPUS);
	return NULL;
}

char *topology_validate(const struct topology *t, uint64_t host_bytes, const char *host_what)
{
	char *err = topology_check_shape(t->sockets, t->nodes_per_socket, t->cpus_per_socket);

	if (err)
		return err;
	for (unsigned n = 0; n < t->nr_nodes; n++) {
		if (t->node_mem[n] == 0 || t->node_mem[n] % SECTION_SIZE_BYTES)
			return g_strdup_printf("node %u memory is %" G_GUINT64_FORMAT
					       " bytes (%" G_GUINT64_FORMAT " MiB): it must be a "
					       "non-zero multiple of the 128 MiB section size",
					       n, t->node_mem[n], t->node_mem[n] >> 20);
		if (t->movable_mem[n] % SECTION_SIZE_BYTES || t->movable_mem[n] >= t->node_mem[n])
			return g_strdup_printf("node %u ZONE_MOVABLE size %" G_GUINT64_FORMAT
					       " MiB must be a multiple of 128 MiB and smaller "
					       "than the node's %" G_GUINT64_FORMAT " MiB",
					       n, t->movable_mem[n] >> 20, t->node_mem[n] >> 20);
	}
	uint64_t total = topology_total_mem(t);
	uint64_t frames = total >> PAGE_SHIFT;
	if (frames >= PFN_NONE)
		return g_strdup_printf("%" G_GUINT64_FORMAT " GiB of memory is %" G_GUINT64_FORMAT
				       " frames; frame numbers are 32-bit, so at most %u frames "
				       "(16 TiB) can be simulated",
				       total >> 30, frames, PFN_NONE - 1);
	uint64_t need = frames * MEMMAP_BYTES_PER_FRAME;
	if (need > host_bytes)
		return g_strdup_printf("%" G_GUINT64_FORMAT " GiB of simulated memory is %"
				       G_GUINT64_FORMAT " frames; at %d bytes per frame that needs %"
				       G_GUINT64_FORMAT " MiB, but this host has %" G_GUINT64_FORMAT
				       " MiB%s%s%s", total >> 30, frames, MEMMAP_BYTES_PER_FRAME,
				       need >> 20, host_bytes >> 20, host_what ? " (" : "",
				       host_what ? host_what : "", host_what ? ")" : "");
	return NULL;
}

unsigned topology_nr_cpus(const struct topology *t)
{
	return t->sockets * t->cpus_per_socket;
}

unsigned topology_node_to_socket(const struct topology *t, unsigned nid)
{
	return nid / t->nodes_per_socket;
}

unsigned topology_node_distance(const struct topology *t, unsigned a, unsigned b)
{
	if (a == b)
		return 10;
	if (topology_node_to_socket(t, a) == topology_node_to_socket(t, b))
		return 12;
	return 21;
}
