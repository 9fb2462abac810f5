#!/bin/sh
# A SIGINT that comes once the script has ended (here while the plots are
# drawn: a gnuplot that signals mmsim before it draws) says so, and the
# results are whole; it used to exit 130 without a word.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

real=$(command -v gnuplot) || fail "no gnuplot"
mkdir "$dir/bin"
cat > "$dir/bin/gnuplot" <<SH
#!/bin/sh
kill -INT \$PPID
exec "$real" "\$@"
SH
chmod +x "$dir/bin/gnuplot"
cat > "$dir/s.lua" <<'LUA'
local m = mmsim.machine{ preset = "test" }
m:spawn{ cpu = 0, fn = function()
  for i = 1, 100 do m:free(m:alloc{ order = 0 }) end
end }
m:run()
LUA
"$MMSIM" --out "$dir/plain" "$dir/s.lua" > /dev/null 2>&1 || fail "plain run"
PATH=$dir/bin:$PATH "$MMSIM" --out "$dir/res" "$dir/s.lua" > /dev/null 2> "$dir/err"
status=$?
[ $status -eq 130 ] || { cat "$dir/err"; fail "exit status $status, wanted 130"; }
grep -q "mmsim: interrupted by SIGINT after the simulation ended, its results written whole" \
	"$dir/err" || { cat "$dir/err"; fail "no message"; }
grep -q '"interrupted"' "$dir/res/summary.json" && fail "the summary says interrupted: the run was not"
for f in $(ls "$dir/plain"); do
	[ -e "$dir/res/$f" ] || fail "$f missing from the signalled run"
done
echo "ok: a SIGINT after the simulation is reported, results whole"
