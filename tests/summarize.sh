#!/bin/sh
# Count the results of a `make check` run in build directory $1: every
# g_test case (its TAP "ok" / "not ok" lines) and every scenario test.
# Prints "N passed, N failed", then ", N skipped" when a test was skipped
# (exit 77: what it needs is not installed), each skip's reason (the first
# line of its .log) on stderr.
dir=${1:-.}
passed=0
failed=0
skipped=0
for log in $(find "$dir/tests" -name '*.log' ! -name test-suite.log | sort); do
	trs=${log%.log}.trs
	[ -f "$trs" ] || continue
	ok=$(grep -c '^ok ' "$log" || true)
	notok=$(grep -c '^not ok ' "$log" || true)
	if [ "$ok" -eq 0 ] && [ "$notok" -eq 0 ]; then
		if grep -q ':test-result: PASS' "$trs"; then ok=1
		elif grep -q ':test-result: SKIP' "$trs"; then
			skipped=$((skipped + 1))
			echo "skipped: ${log%.log}: $(grep -m 1 . "$log")" >&2
		else notok=1; fi
	elif ! grep -q ':test-result: PASS' "$trs" && [ "$notok" -eq 0 ]; then
		notok=1     # the program died after its last "ok"
	fi
	passed=$((passed + ok))
	failed=$((failed + notok))
done
echo "$passed passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
