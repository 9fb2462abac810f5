# Sourced by the bench scripts: `need PROGRAM...` stops the benchmark, with
# the program named, when one is not built, rather than printing figures
# from a run that did not happen ("inf times the native rate").
need() {
	for prog in "$@"; do
		[ -x "$prog" ] && continue
		echo "$(basename "$0"): $prog is not built: run the benchmarks with 'make bench'" \
			"(or './run bench'), which builds what they need" >&2
		exit 1
	done
}
