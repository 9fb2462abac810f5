#!/bin/sh
# A test's log is named after it without its suffix, and make builds it
# from the first suffix rule whose source exists (.lua before .sh): a
# tests/scenarios/X.sh beside an X.lua would run X.lua in its place.
set -u
status=0
for sh in "$MMSIM_SRCDIR"/tests/scenarios/*.sh; do
	lua=${sh%.sh}.lua
	if [ -e "$lua" ]; then
		echo "FAIL: $lua shadows $sh (name one of them otherwise, e.g. ${lua##*/} -> $(basename "${sh%.sh}")_run.lua)"
		status=1
	fi
done
[ $status -eq 0 ] && echo "ok: no scenario test shadowed"
exit $status
