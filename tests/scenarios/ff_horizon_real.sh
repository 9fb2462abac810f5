#!/bin/sh
# scenarios/aging.lua at real pace ages in fast-forward at a 4 ms horizon
# (its kmem replay runs each wake-up's 4 ms of events early, the threads
# run up to 4 ms apart); the engine's default 100 us is the reference.
# Aged 20 s on the default machine, seeds 1 and 2, the means: the kernel's
# pages, the page cache and jemalloc's objects within 1%; the unmovable
# pageblocks within 5%; the 1 GiB regions free and movable-only within
# 10%.  (A 10 ms horizon left 16% fewer unmovable pageblocks aged 60 s.)
set -eu
. "$MMSIM_SRCDIR/tests/lib.sh"
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
# Means over the seeds, the 4 ms horizon's (h=0: aging.lua's) against 100 us.
within "$dir/all" h=100us h=0 1 cache objects kmem
within "$dir/all" h=100us h=0 5 blocks
within "$dir/all" h=100us h=0 10 free movable
