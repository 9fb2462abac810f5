#!/bin/sh
# The figures README.md and BENCHMARKS.md quote from scenario runs are the
# goldens' (tests/golden/fill-docs.sh names each one that differs).
set -eu
sh "$MMSIM_SRCDIR/tests/golden/fill-docs.sh" --check "$MMSIM_SRCDIR"
