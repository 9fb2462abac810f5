#!/bin/sh
# Every ```lua example of the docs runs, so none can go stale: each block is
# run on its own after a prelude giving it what the API reference says the
# examples assume (m, a test-numa machine, and p, a process on it).  A block
# whose first line is "-- scenario" is a whole script and runs as written.
# Run from the source tree: examples name data/ and scenarios/ by path.
set -u
top=${MMSIM_SRCDIR:-.}
mmsim=${MMSIM:-./mmsim}
case $mmsim in /*) ;; *) mmsim=$PWD/$mmsim ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prelude='local m = mmsim.machine{ preset = "test-numa" } local p = m:process() '

failed=0 total=0
for doc in "$top/README.md" "$top"/docs/*.md; do
	[ -f "$doc" ] || continue
	rm -f "$dir"/block-*.lua
	# Each block to its own file, named by the line its fence is on.
	awk -v out="$dir" -v prelude="$prelude" '
		/^```lua[ \t]*$/ { f = sprintf("%s/block-%05d.lua", out, NR); inb = 1; first = 1; next }
		/^```/ && inb { inb = 0; close(f); next }
		inb {
			if (first && $0 !~ /^-- scenario/) printf "%s", prelude > f
			first = 0
			print > f
		}' "$doc"
	for b in "$dir"/block-*.lua; do
		[ -f "$b" ] || continue
		total=$((total + 1))
		line=$(basename "$b" .lua | sed 's/block-0*//')
		# LeakSanitizer's exit-time tracer crashes (signal 11) on some of
		# these runs in the sanitizer build; leaks are the other tests'
		# concern, this one's is that the examples run.
		if ! (cd "$top" && ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			"$mmsim" --out "$dir/out" "$b") > "$dir/log" 2>&1; then
			failed=$((failed + 1))
			echo "FAIL: ${doc#$top/}:$line: the example fails:"
			sed 's/^/  /' "$dir/log" | head -8
		fi
		rm -rf "$dir/out"
	done
done
[ "$total" -gt 50 ] || { echo "FAIL: only $total examples found"; exit 1; }
[ "$failed" -eq 0 ] || { echo "FAIL: $failed of $total examples fail"; exit 1; }
echo "ok: $total examples in the docs run"
