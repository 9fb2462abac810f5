#!/bin/sh
# docs/API.md's table of mmsim.machine{}'s options is the one the binary
# reads its options from (lua/lmachine_opts.c, printed by
# `mmsim --machine-options`).  With --fix, the table in the file is
# replaced by the binary's.
set -eu
src=${MMSIM_SRCDIR:-.}
mmsim=${MMSIM:-./mmsim}
api=$src/docs/API.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mmsim" --machine-options > "$tmp/table"
# The table after "Options valid with either form", up to its blank line.
awk -v table="$tmp/table" -v out="$tmp/api" -v doc="$tmp/doc" '
	/^Options valid with either form/ { seen = 1 }
	seen == 1 && /^\| field \| default \| meaning \|/ { seen = 2 }
	seen == 2 && /^$/ { while ((getline l < table) > 0) print l > out; seen = 3 }
	seen == 2 { print > doc; next }
	{ print > out }' "$api"
[ -s "$tmp/doc" ] || { echo "FAIL: no options table after 'Options valid with either form' in $api"; exit 1; }
if [ "${1:-}" = --fix ]; then
	cp "$tmp/api" "$api"
	exit 0
fi
diff -u "$tmp/doc" "$tmp/table" || {
	echo "FAIL: docs/API.md's machine options differ from mmsim --machine-options" \
		"(sh tests/machine_options.sh --fix rewrites the table)"
	exit 1
}
echo "ok: docs/API.md's machine options are the binary's"
