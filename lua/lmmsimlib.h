/* The libraries of the mmsim module (one file each), as Lua's lualib.h:
 * each one's opener, called by luaopen_mmsim (linit.c), and the few
 * entry points one library offers another. */
#ifndef MMSIM_LMMSIMLIB_H
#define MMSIM_LMMSIMLIB_H

#include "lmachine.h"

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
