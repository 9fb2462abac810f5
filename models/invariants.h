/* The invariant checker: buddy structure, free lists, per-CPU lists,
 * counters, and, through their own checkers, superpageblocks and every
 * process's address space. */
#ifndef MMSIM_INVARIANTS_H
#define MMSIM_INVARIANTS_H

#include "mmzone.h"

/* NULL if every invariant holds, else a g_malloc'ed report of the first
 * violations found. */
char *check_invariants(struct machine *m);

/* For the subsystems' checkers that check_invariants() calls: records one
 * violation in r (past the first few, only counts it). */
struct invariant_report;
__attribute__((format(printf, 2, 3)))
void invariant_fail(struct invariant_report *r, const char *fmt, ...);

#endif
