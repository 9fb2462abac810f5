#!/bin/sh
# docs/GUIDE.md's Layout lists every scenario of scenarios/ (and no other).
set -eu
top=${MMSIM_SRCDIR:-.}
listed=$(awk '/^scenarios\/  runnable experiments/ { on = 1 }
	on { print } on && /\)$/ { exit }' "$top/docs/GUIDE.md" |
	sed 's/.*NAME\.lua)://; s/(tests.*//' | tr ',' '\n' | tr -d ' ' | grep . | sort)
have=$(ls "$top"/scenarios/*.lua | sed 's|.*/||; s|\.lua$||' | sort)
if [ "$listed" != "$have" ]; then
	echo "docs/GUIDE.md's Layout and scenarios/ differ:"
	printf '%s\n' "$listed" > /tmp/layout.$$.a
	printf '%s\n' "$have" > /tmp/layout.$$.b
	diff /tmp/layout.$$.a /tmp/layout.$$.b || :
	rm -f /tmp/layout.$$.a /tmp/layout.$$.b
	exit 1
fi
echo "ok: the Layout lists the $(printf '%s\n' "$have" | wc -l) scenarios"
