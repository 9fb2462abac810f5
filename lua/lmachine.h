/* What the parts of the mmsim Lua module share: the machine userdata and
 * how a binding finds the CPU it runs on. */
#ifndef MMSIM_LMACHINE_H
#define MMSIM_LMACHINE_H

#include "models/machine.h"
#include "models/mmzone.h"
#include "sim/engine.h"

#include <glib.h>
#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MACHINE_MT "mmsim.machine"
/* Registry field holding the run's seed (an integer), for machines to use. */
#define SEED_KEY "mmsim.seed"

/* Fields of the table on top of the stack. */
static inline void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static inline void set_num(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

static inline void set_str(lua_State *L, const char *k, const char *v)
{
	lua_pushstring(L, v);
	lua_setfield(L, -2, k);
}

/* Make the methods table at idx refuse unknown names: indexing it with a
 * name it lacks raises "file:line: <what> has no method 'x' (methods: ...)"
 * rather than Lua's "attempt to call a nil value". */
void strict_methods(lua_State *L, int idx, const char *what);

/* A userdata class: its metatable name with the methods (up to a NULL
 * name) and finalizer gc; unknown methods are errors naming the class. */
static inline void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
			     lua_CFunction gc)
{
	int n = 0;

	while (methods[n].name)
		n++;
	luaL_newmetatable(L, name);
	lua_createtable(L, 0, n);
	luaL_setfuncs(L, methods, 0);
	strict_methods(L, -1, name);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
}

/* An unsigned integer member of a C struct and its name in a Lua table. */
struct lfield {
	const char *name;
	size_t offset, size;
};
#define LFIELD_AS(name, type, member) \
	{ name, offsetof(type, member), sizeof(((type *)0)->member) }
#define LFIELD(type, member) LFIELD_AS(#member, type, member)

/* The n fields f of struct s into the table on top of the stack, in
 * order (pairs can see the order a table's keys were set in). */
static inline void set_fields(lua_State *L, const void *s, const struct lfield *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)s + f[i].offset;
		uint64_t v64;
		uint32_t v32;

		if (f[i].size == sizeof(v64)) {
			memcpy(&v64, p, sizeof(v64));
		} else {
			g_assert(f[i].size == sizeof(v32));
			memcpy(&v32, p, sizeof(v32));
			v64 = v32;
		}
		set_int(L, f[i].name, (lua_Integer)v64);
	}
}

/* Return the text built in s (freed) as a Lua string. */
static inline int push_gstring(lua_State *L, GString *s)
{
	lua_pushlstring(L, s->str, s->len);
	g_string_free(s, TRUE);
	return 1;
}

struct lmachine {
	struct machine *m;
	struct engine *e;            /* created by the first spawn or run */
	struct engine_opts eo;
	uint64_t sample_interval;    /* ns between timeseries.csv rows, 0: none */
	uint64_t memory_block_size;  /* hotplug unit (/sys/devices/system/memory/block_size_bytes) */
	bool gb_yield_attempt;       /* measure the 1 GiB yield at the end of the run */
	uint64_t warmup_ns;          /* the warm-up of the last m:run that had one */
	bool warmup_pending;         /* its phase "measure" has not begun yet */
	char *thread_error;          /* first error a simulated thread raised */
};

struct machine *check_machine(lua_State *L, int idx);
struct lmachine *check_lmachine(lua_State *L, int idx);

/* The simulated thread running this Lua code, or NULL in scenario code
 * outside threads (each thread's coroutine keeps its context in the
 * coroutine's extra space). */
static inline struct mm_ctx *lua_thread_ctx(lua_State *L)
{
	return *(struct mm_ctx **)lua_getextraspace(L);
}

/* A size: bytes, or a string with a K/M/G/T suffix. */
uint64_t check_size(lua_State *L, int idx, const char *what);
/* A time argument in ns: a number, or a string with a unit ("10ms"). */
uint64_t check_time(lua_State *L, int idx, const char *what);
struct per_cpu_pages;
/* {node =, zone =, count =, high =, high_min =, high_max =, batch =}: a
 * CPU's pageset pcp of zone z, as m:pagesets lists them. */
void push_pageset(lua_State *L, const struct zone *z, const struct per_cpu_pages *pcp);
/* Raise an error naming the fields of the table at t not in keys (NULL-ended). */
void check_known_keys(lua_State *L, int t, const char *const *keys, const char *what);
/* An optional integer field of the table at t. */
lua_Integer opt_int_field(lua_State *L, int t, const char *k, lua_Integer def);
/* The same, refused outside min-max with the range in the message. */
lua_Integer opt_range_field(lua_State *L, int t, const char *k, lua_Integer def,
			    lua_Integer min, lua_Integer max);
/* The CPU a call runs on: a simulated thread's own, or for scenario code
 * outside threads the `cpu` field of the table at t (0 for no table),
 * taking no time; buf holds the latter. */
struct mm_ctx *call_ctx(lua_State *L, struct machine *m, int t, struct mm_ctx *buf);
/* A node number of m, or an error naming the machine's nodes. */
int check_node(lua_State *L, struct machine *m, lua_Integer node);
/* A Lua list of node numbers at idx as a mask; errors name what. */
nodemask_t check_node_list(lua_State *L, struct machine *m, int idx, const char *what);
/* The `node` field of the table at t (0: no table), checked; by default
 * the node of ctx's CPU, as the kernel's default memory policy. */
int opt_node_field(lua_State *L, struct machine *m, int t, const struct mm_ctx *ctx);

/* The machine a run's results describe: the one that ran threads, else the
 * last one built; NULL if the script built none. */
struct lmachine *lmmsim_subject(lua_State *L);

/* The vm sysctl `field` of the table at t (the name without "vm."),
 * default def, refused outside the kernel's range as m:sysctl refuses it. */
int sysctl_field(lua_State *L, int t, const char *field, int def);

/* Register m:kvmalloc, m:kvfree, m:superpageblocks, m:spb_stats,
 * m:sysctl... in the machine method table at index methods. */
void lkernel_open(lua_State *L, int methods);

/* Register the slab model's methods (kmem_cache_*, kmalloc, open_file,
 * slabinfo) in the machine method table at index methods. */
void lslab_open(lua_State *L, int methods);
/* What holds pages of owner word owner in the slab model (slab pages,
 * kernel stacks, network buffer blocks), for m:free's refusal; NULL for
 * none of them. */
const char *kernel_object_owner(struct machine *m, uint32_t owner);

/* Register mmsim.read_strace and mmsim.read_kmem (the trace readers of
 * mmsim.replay) in the module table at index module. */
void lreplay_open(lua_State *L, int module);
/* The owner word of the pages a kmem trace replay holds. */
uint32_t kmem_replay_owner(void);

/* Register m:process() in the machine method table at index methods. */
void lproc_open(lua_State *L, int methods);
/* The process at idx (an error if it exited) and its machine. */
struct mm_struct *lproc_check(lua_State *L, int idx, struct machine **m);
/* Add the NUMA calls (mbind, set_mempolicy, move_pages, migrate_pages) to
 * the process method table at index methods. */
void lnuma_process_methods(lua_State *L, int methods);

/* Register the simulation methods (spawn, run, lock statistics) in the
 * machine method table at stack index methods, and the module functions
 * (sleep, now, cpu) in the module table at index module. */
void lsim_open(lua_State *L, int module, int methods);
/* Make coroutine.resume and coroutine.wrap run a coroutine on the
 * simulated thread that resumes it. */
void lsim_coroutines(lua_State *L);
/* Parse machine{} fields for the engine (quantum_ns, costs, ...) into lm,
 * and the kernel threads' intervals into p. */
void lsim_machine_opts(lua_State *L, int t, struct lmachine *lm, struct machine_params *p);
/* The machine's engine, started (with its kernel threads) on first use. */
struct engine *lmachine_engine(lua_State *L, struct lmachine *lm);
/* Register the workload engines written in C (m:start_jemalloc_churn ...)
 * in the machine method table at index methods. */
void lworkload_open(lua_State *L, int methods);
/* Drop the engine of a machine being collected. */
void lsim_machine_gc(struct lmachine *lm);

#endif
