# The validation harness's reading of the kernel's files (validate/validate.sh,
# tests/scenarios/validate_parse.sh).  Sourced:
#   . validate/lib.sh
# snapshot ROOT DIR: ROOT's /proc and /sys files the cases compare (ROOT ""
#   for this machine's) copied into DIR, the THP and hugetlb trees of /sys
#   folded into one file each in the layout the model writes them
#   (`transparent_hugepage`, `hugepages`: "PATH VALUE" a line).
# flatten DIR OUT: a snapshot (the host's, or one a scenario wrote in the
#   same files) as "KEY VALUE" lines in OUT, sorted (the keys: below); a
#   line it cannot read is an error naming the file and line (status 1).
# delta BEFORE AFTER: two flattened files as "KEY AFTER-BEFORE" lines for
#   every key of either (a key one lacks counts 0 there).
# table_row: a row of validate.sh's table (below).
# The kernel's formats are mm/vmstat.c's (vmstat, buddyinfo, pagetypeinfo,
# zoneinfo), fs/proc/meminfo.c's and mm/slub.c's (slabinfo 2.1).

validate_files="vmstat buddyinfo pagetypeinfo zoneinfo meminfo slabinfo"

snapshot() {
	_root=$1 _dir=$2
	mkdir -p "$_dir"
	for _f in $validate_files; do
		# slabinfo is root's only; the harness checks root before.
		[ -r "$_root/proc/$_f" ] && cat "$_root/proc/$_f" > "$_dir/$_f"
	done
	_thp=$_root/sys/kernel/mm/transparent_hugepage
	if [ -d "$_thp" ]; then
		for _s in "$_thp"/hugepages-*kB; do
			[ -d "$_s/stats" ] || continue
			for _c in "$_s"/stats/*; do
				echo "${_s##*/}/stats/${_c##*/} $(cat "$_c")"
			done
		done > "$_dir/transparent_hugepage"
	fi
	_htlb=$_root/sys/kernel/mm/hugepages
	if [ -d "$_htlb" ]; then
		for _s in "$_htlb"/hugepages-*kB; do
			[ -d "$_s" ] || continue
			for _c in nr_hugepages free_hugepages; do
				echo "${_s##*/}/$_c $(cat "$_s/$_c")"
			done
		done > "$_dir/hugepages"
	fi
}

# Keys: vmstat's counters under their own names, and pgalloc_all (every
# zone's pgalloc_*); buddyinfo.order_N (free blocks of order N, every zone);
# pageblocks.TYPE (pagetypeinfo's "Number of blocks type" table, every
# zone); zoneinfo.free_pages ("pages free", every zone) and pcp.count (the
# pagesets' "count:" lines: the pages on per-CPU lists); meminfo.NAME (kB
# or pages, as meminfo says); thp.PATH and hugetlb.PATH; slab.CACHE.pages
# (num_slabs x pagesperslab) and slab.total_pages; proc.NAME (a native
# program's or the model's own figures, "proc" file).
flatten() {
	_dir=$1 _out=$2
	: > "$_out.tmp"
	for _f in vmstat buddyinfo pagetypeinfo zoneinfo meminfo transparent_hugepage \
		hugepages slabinfo proc pagesets; do
		[ -f "$_dir/$_f" ] || continue
		awk -v file="$_f" '
		function bad(why) {
			printf "validate: %s:%d: %s: %s\n", FILENAME, FNR, why, $0 > "/dev/stderr"
			failed = 1
			exit 1
		}
		function num(s) { if (s !~ /^[0-9]+$/) bad("not a count"); return s + 0 }
		file == "vmstat" {
			if (NF != 2) bad("not \"name value\"")
			v[$1] += num($2)
			if ($1 ~ /^pgalloc_/) v["pgalloc_all"] += $2
			next
		}
		file == "buddyinfo" {
			if ($1 != "Node" || $3 != "zone") bad("not a zone line")
			for (i = 5; i <= NF; i++) v["buddyinfo.order_" (i - 5)] += num($i)
			next
		}
		file == "pagetypeinfo" && /^Number of blocks type/ {
			for (i = 5; i <= NF; i++) type[i] = $i
			ntypes = NF
			blocks = 1
			next
		}
		file == "pagetypeinfo" && blocks && /^Node/ {
			if (NF != ntypes) bad("not as many columns as types")
			for (i = 5; i <= NF; i++) v["pageblocks." type[i]] += num($i)
			next
		}
		file == "pagetypeinfo" && blocks && NF { blocks = 0 }
		(file == "zoneinfo" || file == "pagesets") && $1 == "count:" {
			v["pcp.count"] += num($2)
			next
		}
		file == "zoneinfo" && $1 == "pages" && $2 == "free" {
			v["zoneinfo.free_pages"] += num($3)
			next
		}
		file == "meminfo" {
			if ($1 !~ /:$/) bad("not \"Name: value\"")
			v["meminfo." substr($1, 1, length($1) - 1)] = num($2)
			next
		}
		file == "transparent_hugepage" && $1 ~ /^hugepages-[0-9]+kB\/stats\// {
			if (NF != 2) bad("not \"path value\"")
			v["thp." $1] = num($2)
			next
		}
		file == "hugepages" {
			if (NF != 2) bad("not \"path value\"")
			v["hugetlb." $1] = num($2)
			next
		}
		file == "slabinfo" && /^#|^slabinfo/ { next }
		file == "slabinfo" {
			if ($7 != ":" || $13 != "slabdata") bad("not a slabinfo 2.1 line")
			v["slab." $1 ".pages"] = num($15) * num($6)
			v["slab." $1 ".objs"] = num($2)
			v["slab.total_pages"] += $15 * $6
			next
		}
		file == "proc" {
			if (NF != 2) bad("not \"name value\"")
			v["proc." $1] = num($2)
			next
		}
		END {
			if (failed) exit 1
			for (k in v) print k, v[k]
		}' "$_dir/$_f" >> "$_out.tmp" || { rm -f "$_out.tmp"; return 1; }
	done
	LC_ALL=C sort "$_out.tmp" > "$_out" && rm -f "$_out.tmp"
}

delta() {
	awk 'NR == FNR { b[$1] = $2; next }
	{ a[$1] = $2 }
	END {
		for (k in b) if (!(k in a)) a[k] = 0
		for (k in a) print k, a[k] - b[k]
	}' "$1" "$2" | LC_ALL=C sort
}

# table_row CASE DIR KEY KIND NOTE: a row of the table (tab-separated:
#   case, counter, real, background, model, ratio, note) from a case's
#   folder DIR: real.delta, model.delta, idle.delta (deltas), after.flat,
#   model-after.flat (flattened), the times of its idle0, idle1, before and
#   after snapshots (DIR/NAME/time), and real-missing (why the host could
#   not run it, if so).  KIND d: KEY's delta, less the background (the idle
#   delta times the window over the idle interval, rounded), the ratio
#   model / (real - background); a or p: KEY after, no background.
table_row() {
	awk -F' ' -v name="$1" -v key="$3" -v kind="$4" -v note="$5" -v dir="$2" \
		-v missing="$(cat "$2/real-missing" 2> /dev/null || :)" '
	function get(file, k,    line, f, v) {
		v = ""
		while ((getline line < file) > 0) { split(line, f, " "); if (f[1] == k) v = f[2] }
		close(file)
		return v
	}
	function t(file,    line) { line = ""; getline line < file; close(file); return line + 0 }
	BEGIN {
		model = get(dir "/" (kind == "d" ? "model.delta" : "model-after.flat"), key)
		bg = "-"
		if (missing != "") { real = "n/a"; ratio = "n/a"; note = note (note ? "; " : "") missing }
		else {
			real = get(dir "/" (kind == "d" ? "real.delta" : "after.flat"), key)
			if (real == "") { real = "n/a"; ratio = "n/a"; note = note (note ? "; " : "") "the host kernel has no " key }
			else {
				corr = real
				if (kind == "d") {
					window = t(dir "/after/time") - t(dir "/before/time")
					idle = t(dir "/idle1/time") - t(dir "/idle0/time")
					b = get(dir "/idle.delta", key) + 0
					bg = idle > 0 ? int(b * window / idle + 0.5) : 0
					corr = real - bg
				}
				if (model == "") model = 0
				# A count that falls (nr_anon) gives a ratio of like signs.
				if (corr == 0) ratio = model == 0 ? "1.00" : "inf"
				else ratio = sprintf("%.2f", model / corr)
			}
		}
		if (model == "") model = "n/a"
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, key, real, bg, model, ratio, note
	}'
}
