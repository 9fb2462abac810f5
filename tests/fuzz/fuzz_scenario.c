/* libFuzzer target: the scenario loader with the mmsim API.  The input is
 * a scenario script, run as mmsim runs one (sandbox, results folder,
 * errors reported); anything but a crash, a sanitizer report or a leak is
 * fine.  The prelude keeps inputs to the fuzzer's budget: machines of at
 * most 16 GiB.  An input gets 5 s before a SIGINT stops it, as a user's
 * would (libFuzzer's own timer is SIGALRM's, so a POSIX timer sends it):
 * an endless Lua loop ends there, and an input that still times out in
 * libFuzzer is a loop that ignores the signal, a finding of
 * tests/fuzz/run.sh.  gnuplot is kept off PATH (plots fail fast), and
 * SimGrid runs one engine per process, so only the first input of a
 * process that runs threads gets them. */
#include "lua/scenario.h"

#include <glib.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char prelude[] =
	"local machine, size = mmsim.machine, mmsim.size\n"
	"local budget = 0\n"
	"mmsim.machine = function(t)\n"
	"  if type(t) == 'table' then\n"
	"    local p = rawget(t, 'preset')\n"
	"    if p ~= nil and p ~= 'test' and p ~= 'test-numa' then error('fuzz: small presets only') end\n"
	"    local ok, mem = pcall(size, rawget(t, 'mem_per_node') or 0)\n"
	"    local n = (tonumber(rawget(t, 'sockets')) or 1) * (tonumber(rawget(t, 'nodes_per_socket')) or 1)\n"
	"    if not ok or mem * n > 16 << 30 or rawget(t, 'node_mem') or rawget(t, 'hotplug_reserve') then\n"
	"      error('fuzz: at most 16 GiB')\n"
	"    end\n"
	"  end\n"
	"  return machine(t)\n"
	"end\n";

static char *input, *out;
static timer_t stop_timer;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *dir = g_dir_make_tmp("mmsim-fuzz-XXXXXX", NULL);

	(void)argc, (void)argv;
	setenv("PATH", "/nonexistent", 1);
	/* The scripts' output is noise here. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	if (timer_create(CLOCK_MONOTONIC, &(struct sigevent){ .sigev_notify = SIGEV_SIGNAL,
							      .sigev_signo = SIGINT }, &stop_timer))
		abort();
	input = g_build_filename(dir, "input.lua", NULL);
	out = g_build_filename(dir, "results", NULL);
	g_free(dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GString *script = g_string_new(prelude);
	char *argv[] = { NULL };
	struct scenario_opts o = { .path = input, .seed = 1, .out = out, .argv = argv };

	g_string_append_len(script, (const char *)data, (gssize)size);
	if (g_file_set_contents(input, script->str, (gssize)script->len, NULL)) {
		timer_settime(stop_timer, 0, &(struct itimerspec){ .it_value.tv_sec = 5 }, NULL);
		scenario_run(&o);
		timer_settime(stop_timer, 0, &(struct itimerspec){ 0 }, NULL);
	}
	g_string_free(script, TRUE);
	return 0;
}
