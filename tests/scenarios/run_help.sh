#!/bin/sh
# ./run --help documents every command of ./run (its case labels), every
# option sim/sweep.sh and sim/compare.sh parse, the sweep's --seeds and
# --plot's logx/logy, and mmsim's own options (the lines of mmsim --help,
# without its usage line: ./run's is the only one).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

sh "$MMSIM_SRCDIR/run" --help > "$dir/help" || fail "./run --help"
cat "$dir/help"
[ "$(grep -ci '^usage:' "$dir/help")" -eq 1 ] || fail "not one usage line"
grep -q 'mmsim \[OPTION' "$dir/help" && fail "mmsim's usage line"
cmp -s "$dir/help" "$(sh "$MMSIM_SRCDIR/run" -h > "$dir/h"; echo "$dir/h")" || fail "-h"

# ./run's commands: the words of its case labels.
for c in $(sed -n 's/^\([a-z][a-z]*\))$/\1/p' "$MMSIM_SRCDIR/run"); do
	grep -Eq "^  $c( |$)" "$dir/help" || fail "command $c"
done
# The options the scripts parse (case labels such as "	--sweep|--plot|-j)"),
# each at the start of a line of its own.
for script in sweep compare; do
	for o in $(sed -n 's/^	\(-[-a-zA-Z|=*]*\)).*$/\1/p' "$MMSIM_SRCDIR/sim/$script.sh" |
		tr '|' '\n' | sed 's/=\*$//; s/^-D.*/-D/' | grep -v '[*]' | sort -u); do
		grep -Eq -- "^  (-[a-zA-Z], )?$o([ =,]|$)" "$dir/help" || fail "$script option $o"
	done
done
for w in '--seeds N' 'logx' 'logy' '--hosts FILE' '--slurm' '-D plot_format='; do
	grep -qF -- "$w" "$dir/help" || fail "$w"
done
# mmsim's options, each line of its own help.
"$MMSIM" --help | grep '^  -' > "$dir/mmsim"
[ -s "$dir/mmsim" ] || fail "mmsim --help lists no option"
while IFS= read -r line; do
	grep -qxF -- "$line" "$dir/help" || fail "mmsim's $line"
done < "$dir/mmsim"
echo "ok: ./run --help"
