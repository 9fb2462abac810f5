/* The invariant checker: buddy structure, free lists, per-CPU lists,
 * counters, and every process's address space. */
#ifndef MMSIM_INVARIANTS_H
#define MMSIM_INVARIANTS_H

#include "mmzone.h"

/* NULL if every invariant holds, else a g_malloc'ed report of the first
 * violations found. */
char *check_invariants(struct machine *m);

#endif
