#!/bin/sh
# docs/COSTS.md has a row for every default cost of sim/costs.c, with the
# same value.
set -eu
src=${MMSIM_SRCDIR:-.}
costs=$(sed -n 's/.*\[COST_[A-Z_]*\] = { "\([a-z_]*\)", \([0-9.]*\),.*/\1 \2/p' "$src/sim/costs.c")
[ -n "$costs" ] || { echo "no costs found in sim/costs.c"; exit 1; }
status=0
echo "$costs" | while read -r name ns; do
	if ! grep -q "^| \`$name\` | $ns |" "$src/docs/COSTS.md"; then
		echo "docs/COSTS.md: no row for $name = $ns"
		exit 1
	fi
done || status=1
n=$(grep -c '^| `[a-z_]*` | [0-9.]* |' "$src/docs/COSTS.md")
[ "$n" = "$(echo "$costs" | wc -l)" ] || { echo "docs/COSTS.md lists $n costs, sim/costs.c $(echo "$costs" | wc -l)"; status=1; }
exit $status
