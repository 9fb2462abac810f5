/* The `mmsim` Lua module. */
#ifndef MMSIM_LMMSIM_H
#define MMSIM_LMMSIM_H

#include <lua.h>

int luaopen_mmsim(lua_State *L);

#endif
