#!/bin/sh
# Mutation testing: do the tests catch a wrong model decision?  Each line of
# tests/mutations.txt is one single change to a model file; it is applied to
# a scratch copy of the tree, the copy is rebuilt, and the unit tests plus
# the line's own tests run (each under a timeout).  A mutation the tests
# catch (a failure, a hang past the timeout, or a build error) is "caught";
# one they all pass is "survived": a decision no test pins.
#
#   sh tests/mutate.sh [PATTERN]     (make mutate MUTATE=PATTERN; PATTERN, an
#                                    extended regex, picks lines by file)
#
# Line format, fields split by " | ":
#   FILE | TEXT | REPLACEMENT | TESTS | WHY
# TEXT must occur exactly once in FILE (else the line is an error: the list
# has gone stale).  TESTS are scenario tests or goldens run with make check
# beside every unit test ("-" for none).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
list=$src/tests/mutations.txt
pattern=${1:-}
timeout_s=${MUTATE_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "mutate: building a scratch copy in $tmp"
mkdir "$tmp/src"
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$tmp/src") || exit 1
cd "$tmp/src" || exit 1
units=$(ls tests/unit/test_*.c | sed 's/\.c$//')
(autoreconf -fi && ./configure -q && make -s -j"$(nproc)" && make -s -j"$(nproc)" $units) \
	> "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; echo "mutate: the tree does not build"; exit 1; }

caught=0 survived=0 equivalent=0 stale=0 n=0
printf '%-32s %-9s %s\n' "file:line" "result" "mutation"
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	file=$(printf '%s' "$line" | awk -F ' \\| ' '{print $1}')
	old=$(printf '%s' "$line" | awk -F ' \\| ' '{print $2}')
	new=$(printf '%s' "$line" | awk -F ' \\| ' '{print $3}')
	tests=$(printf '%s' "$line" | awk -F ' \\| ' '{print $4}')
	why=$(printf '%s' "$line" | awk -F ' \\| ' '{print $5}')
	printf '%s\n' "$file" | grep -Eq -- "$pattern" || continue
	count=$(grep -cF -- "$old" "$file")
	if [ "$count" -ne 1 ]; then
		stale=$((stale + 1))
		printf '%-32s %-9s %s (occurs %d times, want 1: update the list)\n' "$file" stale "$old" "$count"
		continue
	fi
	at=$(grep -nF -- "$old" "$file" | cut -d: -f1)
	n=$((n + 1))
	cp "$file" "$tmp/orig"
	OLD=$old NEW=$new perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$file"
	result=survived
	if ! make -s -j"$(nproc)" > "$tmp/log" 2>&1 ||
	   ! make -s -j"$(nproc)" $units > "$tmp/log" 2>&1; then
		result="caught(build)"
	else
		for u in $units; do
			timeout "$timeout_s" "./$u" > "$tmp/log" 2>&1 || { result="caught($(basename "$u"))"; break; }
		done
		if [ "$result" = survived ] && [ "$tests" != - ]; then
			timeout "$timeout_s" make -s check TESTS="$tests" > "$tmp/log" 2>&1 ||
				result="caught(tests)"
		fi
	fi
	cp "$tmp/orig" "$file"
	case $result/$why in
	survived/equivalent*) result=equivalent; equivalent=$((equivalent + 1)) ;;
	survived/*) survived=$((survived + 1)) ;;
	*) caught=$((caught + 1)) ;;
	esac
	printf '%-32s %-9s %s -> %s\n' "$file:$at" "$result" "$old" "$new"
done < "$list"
make -s -j"$(nproc)" > /dev/null 2>&1
echo "mutate: $n mutations, $caught caught, $survived survived, $equivalent equivalent, $stale stale"
[ "$stale" -eq 0 ]
