#!/bin/sh
# mmsim.mass_exit (its processes in C) against the same steps written in
# Lua (tests/scenarios/mass_exit_cases.lua), with a life and without: the
# same pages, exit times, pagesets, exit figures, lock figures of every
# class, free pages and end time.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for live in 1ms 0; do
	for impl in c lua; do
		"$MMSIM" --out "$dir/out" "$MMSIM_SRCDIR/tests/scenarios/mass_exit_cases.lua" \
			-D impl=$impl -D live=$live > "$dir/$impl" 2> "$dir/err" || { cat "$dir/err"; exit 1; }
	done
	cat "$dir/c"
	cmp "$dir/c" "$dir/lua"
	grep -q "processes=6 touched=12288 pgtables=.* failed=0 " "$dir/c"
done
echo "ok: mass_exit in C gives its Lua steps' figures"
