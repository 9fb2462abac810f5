# Readable names for the keys of summary.csv and for swept parameters,
# sourced by sim/sweep.sh and sim/compare.sh:
#   key_label KEY [SCENARIO]
#                   prints "LABEL|SCALE": the axis or table label, unit
#                   included, and the factor that turns the key's value
#                   into that unit (a share into %, ns into ms).  A line
#                   "-- sweep-label: KEY LABEL" of SCENARIO gives LABEL
#                   instead of the words made from KEY (the scale stays:
#                   a share is still in %).
# zone_lock.wait_share -> "zone->lock wait share (%)|100",
# zone_lock.wait_ns_total -> "zone->lock wait, total (ms)|1e-06",
# results.exit.zone_lock.wait_ms_per_process -> "exit: zone->lock wait per
# process (ms)|1", throughput.objects_per_s -> "throughput objects (per
# simulated s)|1", cpus -> "CPUs (threads)|1".
# Both scripts draw with gnuplot, which needs UTF-8 for plots/style.gp
# whatever the caller's locale; C numbers keep CSVs and plots the same in
# every locale.
export LC_ALL=C.UTF-8

key_label() {
	declared=""
	[ -z "${2:-}" ] || declared=$(awk -v k="$1" '$1 == "--" && $2 == "sweep-label:" && $3 == k {
		sub(/^--[ \t]+sweep-label:[ \t]+[^ \t]+[ \t]+/, ""); print; exit }' "$2")
	printf '%s\n' "$1" | awk -v declared="$declared" '
	function words(s) {
		gsub(/zone_lock/, "zone->lock", s)
		gsub(/pcp_lock/, "pcp->lock", s)
		gsub(/gb_yield/, "1 GiB regions", s)
		gsub(/_/, " ", s)
		return s
	}
	{
		k = $0
		scale = 1
		unit = ""
		if (k == "cpus") { print "CPUs (threads)|1"; next }
		if (k ~ /^params\./) k = substr(k, 8)
		if (k ~ /^results\./) k = substr(k, 9)
		if (k ~ /share$/) { scale = 100; unit = "%" }
		else if (sub(/_ns_total$/, ", total", k)) { scale = 1e-6; unit = "ms" }
		else if (sub(/_ns_max$/, ", max", k)) { scale = 1e-3; unit = "µs" }
		else if (sub(/_ns$/, "", k)) { scale = 1e-6; unit = "ms" }
		else if (sub(/_ms_/, "_", k) || sub(/_ms$/, "", k)) unit = "ms"
		else if (sub(/_per_s$/, "", k)) unit = "per simulated s"
		else if (sub(/_s$/, "", k)) unit = "s"
		else if (sub(/_mib$/, "", k)) unit = "MiB"
		else if (k ~ /(acquisitions|contentions|bounces|pages|regions|free_now|movable_only|possible|obtained|spb_(empty|clean|tainted))$/) unit = "count"
		# "a.b.c": the first parts say whose, the last what.
		n = split(k, part, ".")
		label = words(part[n])
		if (n >= 2) label = words(part[n - 1]) " " label
		if (n >= 3) label = words(part[1]) ": " label
		if (declared != "") print declared "|" scale
		else print label (unit != "" ? " (" unit ")" : "") "|" scale
	}'
}
