#!/bin/sh
# ./run validate as another user than root: an error naming what needs
# root, before anything is run or changed.  As root, the harness runs as
# user nobody (setpriv); without setpriv, VALIDATE_UID says another user.
set -eu
src=${MMSIM_SRCDIR:-.}
dir=$(mktemp -d)
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { VALIDATE_UID=65534 "$@"; }
fi
s=0
as_user sh "$src/validate/validate.sh" --quick --out "$dir/out" > "$dir/stdout" 2> "$dir/err" || s=$?
[ "$s" = 1 ] || { cat "$dir/err"; fail "exit status $s, not 1"; }
grep -q "^validate: needs root: it reads /proc/pagetypeinfo and /proc/slabinfo (root's only) and writes /sys/kernel/mm/transparent_hugepage/enabled, /proc/sys/vm/drop_caches, /proc/sys/vm/compact_memory" "$dir/err" ||
	{ cat "$dir/err"; fail "the message"; }
[ ! -e "$dir/out" ] || fail "a results folder made before the check"
# An unknown case is named, with the known ones.
s=0
sh "$src/validate/validate.sh" no_such_case 2> "$dir/err" || s=$?
[ "$s" = 1 ] && grep -q "^validate: unknown case 'no_such_case' (known: page_fault1 mass_exit_thp mass_exit" "$dir/err" ||
	{ cat "$dir/err"; fail "unknown case"; }
echo "validate names what needs root"
