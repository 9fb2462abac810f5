/* Processes in Lua: m:process() and the address-space calls on it. */
#include "laux.h"
#include "lmmsimlib.h"

#include "models/khugepaged.h"
#include "models/mm_space.h"

#include <lauxlib.h>
#include <limits.h>
#include <string.h>


/* The process's uservalue is its machine's userdata: the machine lives as
 * long as the process object, and lm stays valid even when a finalizer
 * runs after the machine's own (at the end of the script, every object
 * is finalized, reachable or not). */
struct lprocess {
	struct lmachine *lm;
	struct machine *m;
	struct mm_struct *mm;       /* NULL once the process exited */
};

static struct lprocess *check_process(lua_State *L, int idx)
{
	struct lprocess *p = luaL_checkudata(L, idx, PROCESS_MT);

	if (!p->lm->m)
		luaL_error(L, "the process's machine has been destroyed");
	if (!p->mm)
		luaL_error(L, "process has exited");
	return p;
}

/* Errors a scenario can run into (no memory) come back as nil, "ENOMEM";
 * the others are mistakes in the script and raise. */
static int push_result(lua_State *L, int err, const char *what)
{
	switch (err) {
	case 0:
		lua_pushboolean(L, 1);
		return 1;
	case -MM_ENOMEM:
		lua_pushnil(L);
		lua_pushliteral(L, "ENOMEM");
		return 2;
	case -MM_EAGAIN:
		lua_pushnil(L);
		lua_pushliteral(L, "EAGAIN");
		return 2;
	case -MM_EFAULT:
		return luaL_error(L, "%s: address not mapped (EFAULT)", what);
	case -MM_EACCES:
		return luaL_error(L, "%s: access not allowed by the mapping's protection (EACCES)",
				  what);
	default:
		return luaL_error(L, "%s: invalid argument (EINVAL)", what);
	}
}

static int check_prot(lua_State *L, int idx)
{
	static const char *const names[] = { "none", "r", "rw", NULL };
	static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE };

	return prots[luaL_checkoption(L, idx, "rw", names)];
}

static uint64_t check_addr(lua_State *L, int idx)
{
	lua_Integer a = luaL_checkinteger(L, idx);

	if (a < 0)
		luaL_error(L, "address %I is negative", a);
	return (uint64_t)a;
}

/* A process object for mm (NULL: nil, "ENOMEM"), kept with the machine's
 * userdata, which is on the stack at machine_idx. */
static int push_process(lua_State *L, struct lmachine *lm, int machine_idx,
			struct mm_struct *mm)
{
	struct lprocess *p;

	if (!mm) {
		lua_pushnil(L);
		lua_pushliteral(L, "ENOMEM");
		return 2;
	}
	machine_idx = lua_absindex(L, machine_idx);
	p = lua_newuserdatauv(L, sizeof(*p), 1);
	p->lm = lm;
	p->m = lm->m;
	p->mm = mm;
	luaL_setmetatable(L, PROCESS_MT);
	/* Keep the machine alive as long as the process object. */
	lua_pushvalue(L, machine_idx);
	lua_setiuservalue(L, -2, 1);
	return 1;
}

/* m:process() -> a new process with an empty address space, or nil,
 * "ENOMEM" */
static int l_process(lua_State *L)
{
	struct lmachine *lm = check_lmachine(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, lm->m, 0, &buf);

	return push_process(L, lm, 1, mm_alloc(ctx, lm->m));
}

/* p:fork() -> the child process (its VMAs and pages shared copy-on-write),
 * or nil, "ENOMEM" */
static int l_fork(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx;
	struct mm_struct *child;

	if (lua_gettop(L) > 1)
		return luaL_error(L, "fork: takes no arguments (the child copies the whole "
				  "address space)");
	ctx = call_ctx(L, p->m, 0, &buf);
	mmget(p->mm);
	child = dup_mm(ctx, p->mm);
	mmput(p->mm);
	lua_getiuservalue(L, 1, 1);
	return push_process(L, p->lm, -1, child);
}

/* p:mmap(size [, prot [, addr]]) -> address, or nil, "ENOMEM"; with addr,
 * MAP_FIXED there */
static int l_mmap(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	uint64_t len = check_size(L, 2, "mmap"), addr;
	int prot = check_prot(L, 3), err = 0;

	bool fixed = !lua_isnoneornil(L, 4);

	addr = fixed ? check_addr(L, 4) : 0;
	mmget(p->mm);
	if (fixed)
		err = vm_mmap_fixed(ctx, p->mm, addr, len, prot);
	else
		addr = vm_mmap(ctx, p->mm, len, prot, &err);
	mmput(p->mm);
	if (fixed && err == -MM_EEXIST)
		return luaL_error(L, "mmap: another thread mapped part of [%I, %I) meanwhile "
				  "(EEXIST)", (lua_Integer)addr, (lua_Integer)(addr + len));
	if (fixed && err == -MM_ENOMEM && (addr < MMAP_MIN_ADDR || addr > TASK_SIZE ||
					   len > TASK_SIZE - addr))
		return luaL_error(L, "mmap: [%I, +%I) is outside the address space [%I, %I)",
				  (lua_Integer)addr, (lua_Integer)len, (lua_Integer)MMAP_MIN_ADDR,
				  (lua_Integer)TASK_SIZE);
	if (err)
		return push_result(L, err, "mmap");
	lua_pushinteger(L, (lua_Integer)addr);
	return 1;
}

static int l_munmap(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	uint64_t addr = check_addr(L, 2), len = check_size(L, 3, "munmap");
	int err;

	mmget(p->mm);
	err = do_munmap(ctx, p->mm, addr, len);
	mmput(p->mm);
	return push_result(L, err, "munmap");
}

/* p:madvise(addr, size, "dontneed" | "free" | "hugepage" | "nohugepage" |
 * "collapse") */
static int l_madvise(lua_State *L)
{
	static const char *const names[] = { "dontneed", "free", "hugepage", "nohugepage",
					     "collapse", NULL };
	static const int advice[] = { MADV_DONTNEED, MADV_FREE, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
				      MADV_COLLAPSE };
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	uint64_t addr = check_addr(L, 2), len = check_size(L, 3, "madvise");
	int adv = advice[luaL_checkoption(L, 4, NULL, names)], err;

	mmget(p->mm);
	err = do_madvise(ctx, p->mm, addr, len, adv);
	mmput(p->mm);
	return push_result(L, err, "madvise");
}

/* p:mprotect(addr, size, "none" | "r" | "rw") */
static int l_mprotect(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	uint64_t addr = check_addr(L, 2), len = check_size(L, 3, "mprotect");
	int prot = check_prot(L, 4), err;

	mmget(p->mm);
	err = do_mprotect(ctx, p->mm, addr, len, prot);
	mmput(p->mm);
	return push_result(L, err, "mprotect");
}

/* p:touch(addr, size) -> pages faulted in, or nil, "ENOMEM", pages */
static int l_touch(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	uint64_t addr = check_addr(L, 2), len = check_size(L, 3, "touch"), faulted = 0;
	int err;

	mmget(p->mm);
	err = touch_range(ctx, p->mm, addr, len, &faulted);
	mmput(p->mm);
	if (err == -MM_ENOMEM) {
		lua_pushnil(L);
		lua_pushliteral(L, "ENOMEM");
		lua_pushinteger(L, (lua_Integer)faulted);
		return 3;
	}
	if (err)
		return push_result(L, err, "touch");
	lua_pushinteger(L, (lua_Integer)faulted);
	return 1;
}

/* p:exit(): exit_mmap(), every page freed; refused while another thread
 * is inside a call on the process or a workload's threads work in it. */
static int l_exit(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);

	if (mm_users(p->mm))
		return luaL_error(L, "exit: %d thread(s) still work in the process (another "
				  "thread inside p:touch, p:madvise or the like, or a running "
				  "workload such as m:start_jemalloc_churn's: let it reach its end, "
				  "or w:stop() it where it has one)", (int)mm_users(p->mm));

	exit_mmap(ctx, p->mm);
	p->mm = NULL;
	return 0;
}

/* p:clone() -> the new thread's tid, or nil, "ENOMEM" */
static int l_clone(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	unsigned tid;
	int err = mm_clone_thread(ctx, p->mm, &tid);

	if (err)
		return push_result(L, err, "clone");
	lua_pushinteger(L, tid);
	return 1;
}

/* p:exit_thread(tid): a thread p:clone() made exits */
static int l_exit_thread(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	struct mm_ctx buf, *ctx = call_ctx(L, p->m, 0, &buf);
	lua_Integer tid = luaL_checkinteger(L, 2);

	if (tid < 1 || tid > UINT_MAX || mm_exit_thread(ctx, p->mm, (unsigned)tid))
		return luaL_error(L, "exit_thread: the process has no thread %I (p:clone's, from 1; "
				  "p:exit ends the first)", tid);
	return 0;
}

/* p:follow_page(addr) -> the pfn mapped at addr, or nil */
static int l_follow_page(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	pfn_t pfn = follow_page(p->mm, check_addr(L, 2));

	if (pfn == PFN_NONE)
		lua_pushnil(L);
	else
		lua_pushinteger(L, pfn);
	return 1;
}

/* p:stats() -> {pid =, threads =, rss =, pgtable_pages =, lazyfree_pages =,
 * AnonHugePages = (kB), thp_pmd =, thp_pud =, Anonymous =, Shared_Dirty =,
 * Private_Dirty = (kB)} */
static int l_stats(lua_State *L)
{
	struct lprocess *p = check_process(L, 1);
	unsigned long pmd = mm_thp_mappings(p->mm, THP_PMD), pud = mm_thp_mappings(p->mm, THP_PUD);
	unsigned long shared = mm_shared_pages(p->mm);

	lua_createtable(L, 0, 11);
	set_int(L, "pid", mm_pid(p->mm));
	set_int(L, "threads", mm_threads(p->mm));
	set_int(L, "rss", (lua_Integer)mm_rss(p->mm));
	set_int(L, "pgtable_pages", (lua_Integer)mm_pgtable_pages(p->mm));
	set_int(L, "lazyfree_pages", (lua_Integer)mm_lazyfree_pages(p->mm));
	/* smaps_rollup's AnonHugePages: memory mapped by huge entries, in kB. */
	set_int(L, "AnonHugePages", (lua_Integer)(pmd * 2048 + pud * 1048576));
	set_int(L, "thp_pmd", (lua_Integer)pmd);
	set_int(L, "thp_pud", (lua_Integer)pud);
	/* smaps_rollup's, in kB: every anonymous page counts as dirty. */
	set_int(L, "Anonymous", (lua_Integer)mm_rss(p->mm) * 4);
	set_int(L, "Shared_Dirty", (lua_Integer)shared * 4);
	set_int(L, "Private_Dirty", (lua_Integer)(mm_rss(p->mm) - shared) * 4);
	return 1;
}

/* m:khugepaged_scan([{pages =, max_ptes_none =, cpu =}]) -> {scanned =,
 * collapsed =, failed =}: one pass of khugepaged */
static int l_khugepaged_scan(lua_State *L)
{
	static const char *const keys[] = { "pages", "max_ptes_none", "cpu", NULL };
	static const struct lfield f[] = {
		LFIELD(struct khugepaged_result, scanned),
		LFIELD(struct khugepaged_result, collapsed),
		LFIELD(struct khugepaged_result, failed),
	};
	struct machine *m = check_machine(L, 1);
	int opts = lua_isnoneornil(L, 2) ? 0 : 2;
	lua_Integer pages = KHUGEPAGED_PAGES_TO_SCAN, none = KHUGEPAGED_MAX_PTES_NONE;
	struct khugepaged_result r = { 0 };
	struct mm_ctx buf, *ctx;

	if (opts) {
		luaL_checktype(L, opts, LUA_TTABLE);
		check_known_keys(L, opts, keys, "khugepaged_scan");
		pages = opt_range_field(L, opts, "pages", pages, 1, INT32_MAX);
		none = opt_range_field(L, opts, "max_ptes_none", none, 0, 511);
	}
	ctx = call_ctx(L, m, opts, &buf);
	khugepaged_do_scan(ctx, m, (unsigned long)pages, (unsigned)none, &r);
	lua_createtable(L, 0, G_N_ELEMENTS(f));
	set_fields(L, &r, f, G_N_ELEMENTS(f));
	return 1;
}

void lproc_open(lua_State *L, int methods)
{
	static const luaL_Reg process_methods[] = {
		{ "mmap", l_mmap },
		{ "munmap", l_munmap },
		{ "madvise", l_madvise },
		{ "mprotect", l_mprotect },
		{ "touch", l_touch },
		{ "exit", l_exit },
		{ "clone", l_clone },
		{ "fork", l_fork },
		{ "exit_thread", l_exit_thread },
		{ "stats", l_stats },
		{ "follow_page", l_follow_page },
		{ NULL, NULL },
	};

	methods = lua_absindex(L, methods);
	lua_pushcfunction(L, l_process);
	lua_setfield(L, methods, "process");
	lua_pushcfunction(L, l_khugepaged_scan);
	lua_setfield(L, methods, "khugepaged_scan");
	luaL_newmetatable(L, PROCESS_MT);
	luaL_newlib(L, process_methods);
	strict_methods(L, -1, PROCESS_MT);
	lua_setfield(L, -2, "__index");
	lua_pop(L, 1);
}

struct mm_struct *lproc_check(lua_State *L, int idx, struct machine **m)
{
	struct lprocess *p = check_process(L, idx);

	*m = p->m;
	return p->mm;
}
