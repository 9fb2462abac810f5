/* The cost model: simulated nanoseconds for each kind of work the model
 * charges (enum mm_cost) and for moving a cache line between CPUs.
 * Every figure has a name a scenario can override (costs_set). */
#ifndef MMSIM_COSTS_H
#define MMSIM_COSTS_H

#include "models/mm_env.h"

enum cost_param {
	/* Indices 0 .. NR_MM_COSTS-1 are enum mm_cost, in its order. */
	COST_CL_SAME_CPU = NR_MM_COSTS, /* line last written by this CPU */
	COST_CL_SAME_SOCKET,            /* line last written by another CPU of this socket */
	COST_CL_OTHER_SOCKET,           /* line last written on another socket */
	NR_COST_PARAMS
};

struct costs {
	double ns[NR_COST_PARAMS];
};

/* The documented defaults (see costs.c for their sources). */
void costs_default(struct costs *c);

/* Set the cost called name ("list_op", "cacheline_other_socket", ...).
 * Returns 0, -1 if no cost has that name, -2 if ns is negative or not
 * finite. */
int costs_set(struct costs *c, const char *name, double ns);
/* 0 and *ns, or -1 if no cost has that name. */
int costs_get(const struct costs *c, const char *name, double *ns);

/* Name and one-line description of cost i, NULL when i >= NR_COST_PARAMS. */
const char *costs_name(unsigned i);
const char *costs_help(unsigned i);
/* Every name, comma-separated, for error messages (g_free it). */
char *costs_names(void);

#endif
