/* The mmsim module (docs/API.md): luaopen_mmsim opens its libraries in
 * turn, as Lua's linit.c opens Lua's; each library adds its functions to
 * the module table or its methods to the machine's. */
#include "lmmsim.h"
#include "lmmsimlib.h"
#include "lparams.h"
#include "lresults.h"

#include <lauxlib.h>

int luaopen_mmsim(lua_State *L)
{
	static const luaL_Reg results_funcs[] = {
		{ "time_compressed", lresults_time_compressed },
		{ "headline_phase", lresults_headline_phase },
		{ "params", lparams_declare },
		{ "result", lresults_record },
		{ "count_objects", lresults_count_objects },
		{ "write_result_file", lresults_write_file },
		{ NULL, NULL },
	};

	luaL_newlib(L, results_funcs);
	lmachine_open(L, -1);
	luaL_getmetatable(L, MACHINE_MT);
	lua_getfield(L, -1, "__index");
	lsim_open(L, -3, -1);
	lproc_open(L, -1);
	lnuma_open(L);
	lkernel_open(L, -1);
	lslab_open(L, -1);
	lworkload_open(L, -1);
	lresults_open(L, -1);  /* m:gb_yield, m:memory_map, m:snapshot_memory_map */
	lreplay_open(L, -3);
	lua_pop(L, 2);
	return 1;
}
