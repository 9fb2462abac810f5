#!/bin/sh
# `make install` gives a program that works with its source tree gone: a
# copy of the tree is built into a temporary prefix, the copy is removed,
# and the installed mmsim runs an installed scenario, its workload library
# and its plots.  Run by .ci/run (a whole build: too long for make check).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: install: $*"; exit 1; }

mkdir "$tmp/src" "$tmp/build"
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$tmp/src") || fail "cannot copy the tree"
(cd "$tmp/src" && autoreconf -fi > /dev/null 2>&1) || fail "autoreconf"
(cd "$tmp/build" && "$tmp/src/configure" -q --prefix="$tmp/inst" > /dev/null &&
	make -s -j"$(nproc)" > /dev/null 2>&1 && make -s install > /dev/null) || fail "build or install"
rm -rf "$tmp/src" "$tmp/build"
share=$tmp/inst/share/mmsim
[ -f "$share/lua/mmsim/jemalloc_churn.lua" ] || fail "no workload library in $share"
[ -f "$share/plots/style.gp" ] || fail "no plot scripts in $share"
cd "$tmp" && "$tmp/inst/bin/mmsim" --out "$tmp/out" "$share/scenarios/jemalloc-churn.lua" \
	-D duration=2ms -D warmup=1ms -D cpus=2 > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "the installed mmsim failed"; }
[ -s "$tmp/out/summary.json" ] || fail "no summary.json"
ls "$tmp/out"/*.png > /dev/null 2>&1 || fail "no plots: the installed plot scripts were not found"
echo "ok: make install works without the source tree"
