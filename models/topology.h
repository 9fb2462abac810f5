/* The simulated machine's shape: sockets, NUMA nodes, CPUs and memory. */
#ifndef MMSIM_TOPOLOGY_H
#define MMSIM_TOPOLOGY_H

#include <stdint.h>

#define MAX_NUMNODES 64
#define MAX_CPUS 4096

/* A set of nodes, bit n for node n (the kernel's nodemask_t). */
typedef uint64_t nodemask_t;
#define NODE_MASK_NONE ((nodemask_t)0)

static inline nodemask_t nodemask_of_node(unsigned nid)
{
	return (nodemask_t)1 << nid;
}

static inline int node_isset(unsigned nid, nodemask_t mask)
{
	return nid < MAX_NUMNODES && (mask >> nid & 1);
}

static inline unsigned nodes_weight(nodemask_t mask)
{
	return (unsigned)__builtin_popcountll(mask);
}

/* The lowest node of a non-empty mask. */
static inline unsigned first_node(nodemask_t mask)
{
	return (unsigned)__builtin_ctzll(mask);
}

/* The model keeps at most this many bytes of metadata per 4 KiB frame. */
#define MEMMAP_BYTES_PER_FRAME 12

struct topology {
	char name[32];
	unsigned sockets;
	unsigned nodes_per_socket;       /* SNC / NPS domains */
	unsigned cpus_per_socket;
	unsigned nr_nodes;               /* sockets * nodes_per_socket */
	uint64_t node_mem[MAX_NUMNODES]; /* bytes of memory per node */
	uint64_t movable_mem[MAX_NUMNODES]; /* bytes at each node's top put in ZONE_MOVABLE */
};

/* Fill *t from a named preset; 0 on success, -1 if the name is unknown. */
int topology_preset(struct topology *t, const char *name);
/* A comma-separated list of the preset names, for messages. */
const char *topology_preset_names(void);
/* Uniform machine: sockets x nodes_per_socket nodes of mem_per_node bytes
 * (no node at all if the counts fail topology_check_shape: validation
 * then refuses it). */
void topology_uniform(struct topology *t, unsigned sockets, unsigned nodes_per_socket,
		      unsigned cpus_per_socket, uint64_t mem_per_node);

/* NULL if the counts give 1 to MAX_NUMNODES nodes and 1 to MAX_CPUS CPUs,
 * else a g_malloc'ed message with the numbers. */
char *topology_check_shape(unsigned sockets, unsigned nodes_per_socket, unsigned cpus_per_socket);
/* Refuse impossible machines before anything is allocated.  Returns NULL
 * when the topology is fine, else a g_malloc'ed message with the numbers. */
char *topology_validate(const struct topology *t, uint64_t host_bytes, const char *host_what);

unsigned topology_nr_cpus(const struct topology *t);
/* Inline, with one division for the usual node per socket: every page
 * allocation and fault asks. */
static inline unsigned topology_cpu_to_node(const struct topology *t, unsigned cpu)
{
	unsigned socket = cpu / t->cpus_per_socket;
	unsigned per_node;

	if (t->nodes_per_socket == 1)
		return socket;
	per_node = (t->cpus_per_socket + t->nodes_per_socket - 1) / t->nodes_per_socket;
	return socket * t->nodes_per_socket + (cpu % t->cpus_per_socket) / per_node;
}
unsigned topology_node_to_socket(const struct topology *t, unsigned nid);
/* node_distance(): 10 local, 12 same socket, 21 other socket (ACPI SLIT). */
unsigned topology_node_distance(const struct topology *t, unsigned a, unsigned b);
uint64_t topology_total_mem(const struct topology *t);

#endif
