#!/bin/sh
# tests/scenarios/spawn_orphan_run.lua under valgrind: a thread_exit that
# reached through its spawner's freed coroutine (fixed in 8a15b62) passes
# the scenario's asserts, and only valgrind sees its invalid reads.  The
# sanitizer build's ASan does not: the reads are inside the system's Lua
# library, which is not instrumented (and valgrind cannot run an ASan
# binary), so there, and where valgrind is missing, the asserts alone run.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
checker=
if grep -q __asan_init "$MMSIM"; then
	echo "ASan build: the scenario's asserts only"
elif command -v valgrind > /dev/null; then
	checker="valgrind -q --error-exitcode=99"
else
	echo "no valgrind (deps/debian.txt): the scenario's asserts only"
fi
$checker "$MMSIM" --out "$dir/r" "$MMSIM_SRCDIR/tests/scenarios/spawn_orphan_run.lua"
