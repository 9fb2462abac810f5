/* The `mmsim` Lua module. */
#ifndef MMSIM_LMMSIM_H
#define MMSIM_LMMSIM_H

#include <glib.h>
#include <lua.h>

int luaopen_mmsim(lua_State *L);
/* require("mmsim.expiry_heap") (lua/lheap.c), preloaded. */
int luaopen_expiry_heap(lua_State *L);
/* Run the invariant checker on every machine the script built that is
 * still alive; appends violations to report, returns how many were checked. */
int lmmsim_check_all(lua_State *L, GString *report);
/* The machine a run's results describe: the one that ran threads, else the
 * last one built; NULL if the script built none. */
struct lmachine *lmmsim_subject(lua_State *L);

#endif
