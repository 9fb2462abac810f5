/* Scenario parameters: mmsim.params{...} declares them with defaults, and
 * -D KEY=VALUE on the command line overrides them. */
#ifndef MMSIM_LPARAMS_H
#define MMSIM_LPARAMS_H

#include <lua.h>
#include <stdbool.h>

/* Record the -D overrides (NULL-terminated "KEY=VALUE" strings, or NULL).
 * LUA_OK, or an error message on the stack. */
int lparams_set_defines(lua_State *L, const char *const *defines);
/* After the script: overrides given to a script that declared no
 * parameters are an error.  LUA_OK, or an error message on the stack. */
int lparams_check_used(lua_State *L, const char *script);
/* mmsim.params{name = default, ...} -> the resolved table */
int lparams_declare(lua_State *L);
/* The -D value of key, or NULL.  Keys the runner itself reads
 * (plot_format) need no declaration. */
const char *lparams_define(lua_State *L, const char *key);
/* mmsim --params: mmsim.params prints the resolved parameters on stdout,
 * "KEY=VALUE" sorted by key, and stops the script there (an error
 * lparams_listed then recognises). */
void lparams_set_list_only(lua_State *L);
bool lparams_listed(lua_State *L);
/* Push the resolved parameters (a table), or nil before mmsim.params. */
void lparams_push_resolved(lua_State *L);

#endif
