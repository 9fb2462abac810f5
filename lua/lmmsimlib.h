/* The libraries of the mmsim module (one file each), as Lua's lualib.h:
 * each one's opener, called by luaopen_mmsim (linit.c), and the few
 * entry points one library offers another. */
#ifndef MMSIM_LMMSIMLIB_H
#define MMSIM_LMMSIMLIB_H

#include "lmachine.h"

#include <glib.h>
#include <lua.h>

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

#define PROCESS_MT "mmsim.process"

/* What mmsim.machine{}'s options set (lmachine_opts.c): the model's
 * parameters, the engine's and the run's. */
struct machine_args {
	struct machine_params p;
	uint64_t quantum_ns, horizon_ns;    /* engine_opts' */
	bool engine_hints;
	uint64_t sample_interval, memory_block_size;
	bool gb_yield_attempt;
};

enum machine_option_kind {
	OPT_SYSCTL,     /* a vm sysctl, with m:sysctl's range */
	OPT_INT,        /* an integer from min (or option min_of's value) to max */
	OPT_NUMBER,     /* a number from min to max */
	OPT_BOOL,
	OPT_SIZE,       /* check_size */
	OPT_TIME,       /* check_time */
	OPT_CHOICE,     /* one of choices: its index (or a bool for two) */
	OPT_OWN,        /* read by its own code */
};

/* One option of mmsim.machine{}: where it goes (an offset in struct
 * machine_args), what it takes, and its row of docs/API.md's table (none
 * without doc). */
struct machine_option {
	const char *name;
	enum machine_option_kind kind;
	size_t offset, size;
	double min, max;
	const char *min_of;
	const char *const *choices;
	int nr_choices;
	const char *def, *doc;
};

/* The options, up to one with a NULL name. */
const struct machine_option *machine_options(void);
/* Refuse a field of the table at t that is no option. */
void machine_options_check_known(lua_State *L, int t);
/* Read every option the table at t gives, but OPT_OWN ones, into a. */
void machine_options_read(lua_State *L, int t, struct machine_args *a);
/* A choice option's value at idx: its index in the n names, or an error
 * naming field what and listing them. */
int check_option_choice(lua_State *L, int idx, const char *what, const char *const *names,
			int n);
/* docs/API.md's table of the options, as markdown. */
void machine_options_doc(GString *out);

/* mmsim.machine{}, mmsim.check_options, mmsim.version and mmsim.size in the
 * module table at index module, and the machine class (MACHINE_MT). */
void lmachine_open(lua_State *L, int module);

/* Register m:process() in the machine method table at index methods. */
void lproc_open(lua_State *L, int methods);
/* The process at idx (an error if it exited) and its machine. */
struct mm_struct *lproc_check(lua_State *L, int idx, struct machine **m);
/* Add the NUMA calls (mbind, set_mempolicy, move_pages, migrate_pages) to
 * the process class's methods (after lproc_open). */
void lnuma_open(lua_State *L);

/* Register the simulation methods (spawn, run, lock statistics) in the
 * machine method table at stack index methods, and the module functions
 * (sleep, now, cpu) in the module table at index module. */
void lsim_open(lua_State *L, int module, int methods);
/* Make coroutine.resume and coroutine.wrap run a coroutine on the
 * simulated thread that resumes it. */
void lsim_coroutines(lua_State *L);
/* The cost overrides of the machine{} table at t (`costs`) into eo. */
void lsim_machine_costs(lua_State *L, int t, struct engine_opts *eo);
/* The machine's engine, started (with its kernel threads) on first use. */
struct engine *lmachine_engine(lua_State *L, struct lmachine *lm);
/* Register the workload engines written in C (m:start_jemalloc_churn ...)
 * in the machine method table at index methods. */
void lworkload_open(lua_State *L, int methods);
/* Drop the engine of a machine being collected. */
void lsim_machine_gc(struct lmachine *lm);

#endif
