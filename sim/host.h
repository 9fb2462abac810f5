/* The machine mmsim runs on, as a topology (mmsim.machine{preset = "host"}),
 * read from Linux's sysfs and procfs: the model takes numbers, never files. */
#ifndef MMSIM_HOST_H
#define MMSIM_HOST_H

#include "models/topology.h"

/* Fill *t (named "host") from root/sys/devices/system/node: a node per
 * nodeN directory with memory, in the order of N (numbered from 0 in the
 * model), its memory from its meminfo's MemTotal rounded down to the 128
 * MiB section; the CPUs of all nodes' cpulist shared evenly (the model
 * gives every node as many; at least one each).  Each node is a socket of
 * its own.  Without that directory (no NUMA in the kernel, a container
 * hiding it): one node of root/proc/meminfo's MemTotal and the CPUs online
 * (sysconf).  root is "" for the real files.  0, or -1 and a g_malloc'ed
 * *err saying what could not be read. */
int host_topology(struct topology *t, const char *root, char **err);

/* The memory mmsim may use on this host, for the size check: physical
 * memory (root/proc/meminfo's MemTotal, sysconf for the real files), or
 * less if the memory cgroup the process runs in, or one above it, has a
 * lower limit (cgroup v2's memory.max, v1's memory.limit_in_bytes, as
 * Slurm or a container sets; root/proc/self/cgroup names the path).
 * *what says which, g_malloc'ed. */
uint64_t host_memory(const char *root, char **what);

#endif
