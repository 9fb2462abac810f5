#!/bin/sh
# scenarios/aging.lua at real pace ages in fast-forward at a 4 ms horizon
# (its kmem replay runs each wake-up's 4 ms of events early, the threads
# run up to 4 ms apart); the engine's default 100 us is the reference.
# Aged 20 s on the default machine, seeds 1 and 2, the means: the kernel's
# pages, the page cache and jemalloc's objects within 1%; the unmovable
# pageblocks within 5%; the 1 GiB regions free and movable-only within
# 10%.  (A 10 ms horizon left 16% fewer unmovable pageblocks aged 60 s.)
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for seed in 1 2; do
	for h in 0 100us; do
		"$MMSIM" --seed "$seed" --out "$dir/r" "$MMSIM_SRCDIR/scenarios/aging.lua" \
			-D pace=real -D age=20s -D age_horizon="$h" -D duration=1ms \
			-D gb_yield_attempt=false > "$dir/out" 2> "$dir/err" ||
			{ cat "$dir/err"; exit 1; }
		rm -rf "$dir/r"
		awk -v h="$h" '
			/^aged / { sub(/.*regions, /, ""); free = $1; movable = $3 }
			/^unmovable: / { blocks = $5 }
			/^page cache / { cache = $3; objects = $6 }
			/^real pace: / { kmem = $9 }
			END { printf "h=%s free=%s movable=%s blocks=%s cache=%s objects=%s kmem=%s\n",
				h, free, movable, blocks, cache, objects, kmem }' "$dir/out" >> "$dir/all"
	done
done
cat "$dir/all"
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); s[$1, kv[1]] += kv[2] } }
	END {
		lim["cache"] = lim["objects"] = lim["kmem"] = 1; lim["blocks"] = 5
		lim["free"] = lim["movable"] = 10
		bad = 0
		for (key in lim) {
			a = s["h=0", key]; b = s["h=100us", key]; d = a - b; if (d < 0) d = -d
			printf "%s: 4 ms %s, 100 us %s (sums of 2 seeds), allowed %d%%\n", key, a, b, lim[key]
			if (!(b > 0) || d > b * lim[key] / 100) { print "FAIL: " key; bad = 1 }
		}
		exit bad
	}' "$dir/all"
