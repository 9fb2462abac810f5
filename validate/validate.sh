#!/bin/sh
# ./run validate [--quick] [--doc] [--out DIR] [CASE...]: each case's
# workload run natively on this machine (a program of validate/, between
# snapshots of /proc and /sys: validate/lib.sh) and in the model on the host
# preset with this machine's sysctls and THP knobs (validate/model.lua);
# a table of counter, real delta, background, model delta and ratio, in
# DIR/validation.csv and DIR/validation.md (DIR: results/validate-<UTC
# timestamp>), printed at the end.  --quick: cases page_fault1, mass_exit_thp,
# mass_exit and thp_madvise at small sizes.  --doc: the table into
# docs/VALIDATION.md as well.  Root only (it writes THP and vm knobs and
# reads /proc/pagetypeinfo); every knob a case changes is restored, also on
# an interrupt.  Exit status 1 when a case could not run or a file could
# not be read; never because of a ratio.
#
# Background: other work on the machine moves the system-wide counters.
# Before each case the harness snapshots an idle interval of the harness's
# own (BASELINE seconds) and subtracts that rate times the case's window
# from the real delta; the ratio is model / (real - background).  Figures
# a program counts for itself (its children's minor faults, its
# AnonHugePages) carry no background.
#
# Environment: MMSIM (./mmsim), MMSIM_SRCDIR (.), VALIDATE_BIN (the folder
# of the native programs: the build's validate/), VALIDATE_UID (the user id
# to check for root: id -u's by default).
set -eu
src=${MMSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
mmsim=${MMSIM:-./mmsim}
bin=${VALIDATE_BIN:-./validate}
. "$src/validate/lib.sh"
. "$src/sim/csv.sh"

die() { echo "validate: $*" >&2; exit 1; }

# The hook the native programs run at a checkpoint: a snapshot and its time.
if [ "${1:-}" = --snapshot ]; then
	snapshot "" "$2/$3"
	date +%s.%N > "$2/$3/time"
	exit 0
fi

quick=0 doc=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--doc) doc=1 ;;
	--out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift ;;
	--help|-h)
		sed -n '2,/^set -eu/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		exit 0 ;;
	-*) die "unknown option $1 (known: --quick, --doc, --out DIR)" ;;
	*) break ;;
	esac
	shift
done
all_cases="page_fault1 mass_exit_thp mass_exit thp_madvise compact gigantic files snapshot"
if [ $# -eq 0 ]; then
	if [ $quick = 1 ]; then
		set -- page_fault1 mass_exit_thp mass_exit thp_madvise
	else
		# shellcheck disable=SC2086
		set -- $all_cases
	fi
fi
for c in "$@"; do
	case " $all_cases " in
	*" $c "*) ;;
	*) die "unknown case '$c' (known: $all_cases)" ;;
	esac
done

uid=${VALIDATE_UID:-$(id -u)}
[ "$uid" = 0 ] || die "needs root: it reads /proc/pagetypeinfo and /proc/slabinfo (root's only)" \
	"and writes /sys/kernel/mm/transparent_hugepage/enabled, /proc/sys/vm/drop_caches," \
	"/proc/sys/vm/compact_memory and .../hugepages-1048576kB/nr_hugepages; run it as root" \
	"(sudo ./run validate)"
for f in /proc/vmstat /proc/buddyinfo /proc/pagetypeinfo /proc/zoneinfo /proc/meminfo; do
	[ -r "$f" ] || die "cannot read $f"
done
for p in page_fault1 mass_exit thp_madvise fragment files; do
	[ -x "$bin/$p" ] || die "no native program $bin/$p (build first: make)"
done
[ -x "$mmsim" ] || die "no mmsim at $mmsim (build first: make)"

[ -n "$out" ] || out=results/validate-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Knobs changed, "path value-before" a line: put back on any exit.
restore_list=$out/.restore
: > "$restore_list"
native_pid=""
restore() {
	[ -n "$native_pid" ] && kill "$native_pid" 2> /dev/null || :
	tac "$restore_list" 2> /dev/null | while read -r path value; do
		echo "$value" > "$path" || echo "validate: could not restore $path to $value" >&2
	done
	rm -f "$restore_list"
}
trap 'restore' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set_knob() {
	echo "$1 $(knob "$1")" >> "$restore_list"
	echo "$2" > "$1"
}
# A knob's value: the bracketed choice of a THP file, else the file.
knob() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }

thp=/sys/kernel/mm/transparent_hugepage
sysctl() { cat "/proc/sys/vm/$1"; }
mem_avail_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
quarter=$((mem_avail_mib / 4))

# What the model is given of this machine, and what it lacks: "name value
# note" rows of the settings table, and the -D options for the model.
settings=$out/settings
model_opts=""
setting() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$settings"; }
read_settings() {
	: > "$settings"
	for s in min_free_kbytes watermark_scale_factor watermark_boost_factor \
		percpu_pagelist_high_fraction compaction_proactiveness extfrag_threshold; do
		v=$(sysctl $s)
		setting "vm.$s" "$v" "given to the model"
		model_opts="$model_opts -D $s=$v"
	done
	thp_2m=$(knob $thp/enabled)
	[ -f $thp/hugepages-2048kB/enabled ] && [ "$(knob $thp/hugepages-2048kB/enabled)" != inherit ] &&
		thp_2m=$(knob $thp/hugepages-2048kB/enabled)
	setting "THP enabled (2 MiB)" "$thp_2m" "given to the model"
	setting "THP defrag" "$(knob $thp/defrag)" "given to the model"
	model_opts="$model_opts -D thp_defrag=$(knob $thp/defrag)"
	other=""
	for f in $thp/hugepages-*kB/enabled; do
		case $f in *hugepages-2048kB*) continue ;; esac
		[ -f "$f" ] || continue
		v=$(knob "$f")
		[ "$v" = never ] || other="$other ${f#$thp/hugepages-}"
	done
	setting "mTHP sizes other than 2 MiB" "${other:-none enabled}" \
		"the model has 2 MiB and 1 GiB THPs only"
	[ -f $thp/shrink_underused ] && setting "THP shrink_underused" "$(cat $thp/shrink_underused)" \
		"the model's deferred split queue holds partly unmapped THPs only, not underused ones"
	setting "khugepaged" "runs with THP enabled" "the model runs it only when a scenario starts it; no case does"
	setting "swap" "$(awk '/^SwapTotal:/ { print $2 " kB" }' /proc/meminfo)" "the model has no swap of anonymous memory"
	setting "vm.zone_reclaim_mode" "$(sysctl zone_reclaim_mode)" "not modelled"
	po=/sys/module/page_reporting/parameters/page_reporting_order
	if [ -f $po ]; then
		setting "free page reporting" "order $(cat $po)" \
			"not modelled: a balloon driver takes free blocks of that order and above for a moment"
	else
		setting "free page reporting" "absent" "not modelled"
	fi
	[ -d /sys/bus/virtio/drivers/virtio_mem ] &&
		setting "virtio_mem" "driver present" "not modelled (memory hot(un)plug by the hypervisor)"
	tiers=$(ls -d /sys/devices/virtual/memory_tiering/memory_tier* 2> /dev/null | wc -l)
	setting "memory tiers" "$tiers" "not modelled (one tier is no difference)"
	cfg=""
	[ -r /proc/config.gz ] && cfg=$(zcat /proc/config.gz 2> /dev/null || :)
	for o in DEFERRED_STRUCT_PAGE_INIT SHUFFLE_PAGE_ALLOCATOR; do
		v=$(printf '%s\n' "$cfg" | sed -n "s/^CONFIG_$o=//p")
		[ -n "$cfg" ] || v="unknown (no /proc/config.gz)"
		case $o in
		DEFERRED*) n="not modelled: the model's memmap is whole at boot (no difference after boot)" ;;
		*) n="not modelled: with page_alloc.shuffle the free lists are randomised" ;;
		esac
		setting "CONFIG_$o" "${v:-not set}" "$n"
	done
	cg=$(awk -F: '$2 == "memory" || $2 == "" { print $3; exit }' /proc/self/cgroup)
	lim=""
	for f in "/sys/fs/cgroup$cg/memory.max" "/sys/fs/cgroup/memory$cg/memory.limit_in_bytes"; do
		[ -r "$f" ] && lim=$(cat "$f") && break
	done
	setting "memory cgroup limit" "${lim:-none found} ($cg)" "not modelled"
}

# Row specification: case, key, kind (d: delta over the window; a: value
# after it; p: the program's own figure), and the note.
rows() {
	cat <<'ROWS'
page_fault1	pgfault	d	every page fault, system-wide
page_fault1	proc.minflt	p	the tasks' own minor faults (wait4); the model's pages faulted
page_fault1	pgalloc_all	d	pgalloc_* of every zone
page_fault1	pgfree	d
page_fault1	pcp.count	a	pages on per-CPU lists after (zoneinfo pagesets), every zone and CPU
mass_exit	pgfree	d	the exit alone
mass_exit	pcp.count	a	pages left on per-CPU lists after the exit
mass_exit_thp	pgfree	d	the exit alone
mass_exit_thp	thp.hugepages-2048kB/stats/nr_anon	d	THPs mapped: minus the order-9 frees
mass_exit_thp	pcp.count	a	pages left on per-CPU lists after the exit
thp_madvise	thp_fault_alloc	d
thp_madvise	thp_fault_fallback	d
thp_madvise	thp_split_pmd	d	a PMD mapping split: every cut, and the munmap at the end
thp_madvise	thp_deferred_split_page	d	THPs queued for the deferred split
thp_madvise	thp_split_page	d	THPs split (by the shrinker)
thp_madvise	proc.anon_huge_kb_touched	p	AnonHugePages (kB) after the touch
thp_madvise	proc.anon_huge_kb_cut	p	after the cuts
thp_madvise	proc.anon_huge_kb_shrunk	p	after drop_slab (2 to drop_caches)
compact	compact_migrate_scanned	d
compact	compact_free_scanned	d
compact	compact_isolated	d
compact	pgmigrate_success	d
compact	compact_success	d
compact	buddyinfo.order_9	d	free order-9 blocks gained
compact	buddyinfo.order_10	d	free order-10 blocks gained
gigantic	proc.gigantic_obtained	p	1 GiB pages obtained of those asked
files	slab.dentry.objs	d	dentries made (active objects)
files	slab.ext4_inode_cache.objs	d	inodes made
files	slab.dentry.pages	d	the dentry cache's slab pages
files	slab.ext4_inode_cache.pages	d	the inode cache's slab pages
files	pageblocks.Reclaimable	d	Reclaimable pageblocks gained (both caches are SLAB_RECLAIM_ACCOUNT)
files	pageblocks.Unmovable	d
ROWS
}

# Run case $1: the native program (its arguments after $2 ...), with the
# model's -D options in $model_case_opts; the flattened files in $dir.
run_case() {
	name=$1 dir=$out/$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	# The background: an idle interval of the same snapshots.
	sh "$0" --snapshot "$dir" idle0 || die "$name: cannot snapshot"
	sleep "$baseline"
	sh "$0" --snapshot "$dir" idle1 || die "$name: cannot snapshot"
	if [ "$1" = - ]; then
		echo "validate: $name: $2" >&2
		echo "$2" > "$dir/real-missing"
	else
		[ "${self_checkpoints:-0}" = 1 ] || sh "$0" --snapshot "$dir" before
		VALIDATE_HOOK="sh $0 --snapshot $dir" "$@" > "$dir/proc.real" 2> "$dir/stderr.real" &
		native_pid=$!
		wait "$native_pid" || { cat "$dir/stderr.real" >&2; die "$name: the native program failed"; }
		native_pid=""
		[ "${self_checkpoints:-0}" = 1 ] || sh "$0" --snapshot "$dir" after
		cp "$dir/proc.real" "$dir/after/proc"
	fi
	# shellcheck disable=SC2086
	"$mmsim" --out "$dir/model" "$src/validate/model.lua" -D case="$model_case" $model_opts \
		$model_case_opts > "$dir/model.log" 2>&1 ||
		{ tail -5 "$dir/model.log" >&2; die "$name: the model run failed ($dir/model.log)"; }
	for w in before after; do
		mkdir -p "$dir/model-$w"
		for f in "$dir/model/$w".*; do cp "$f" "$dir/model-$w/${f##*/$w.}"; done
	done
	for s in idle0 idle1 before after model-before model-after; do
		[ -d "$dir/$s" ] || continue
		flatten "$dir/$s" "$dir/$s.flat" || die "$name: cannot read a file of $dir/$s"
	done
	delta "$dir/idle0.flat" "$dir/idle1.flat" > "$dir/idle.delta"
	[ -f "$dir/real-missing" ] || delta "$dir/before.flat" "$dir/after.flat" > "$dir/real.delta"
	delta "$dir/model-before.flat" "$dir/model-after.flat" > "$dir/model.delta"
	rows | awk -F'\t' -v c="$name" '$1 == c' | while IFS="$(printf '\t')" read -r _ key kind note; do
		table_row "$name" "$dir" "$key" "$kind" "$note"
	done >> "$out/rows"
}

baseline=1
[ $quick = 1 ] && baseline=0.5
: > "$out/rows"
read_settings
ncpu=$(getconf _NPROCESSORS_ONLN)
for c in "$@"; do
	echo "validate: case $c" >&2
	model_case=$c model_case_opts="" self_checkpoints=0
	case $c in
	page_fault1)
		mib=128 loops=8
		[ $quick = 1 ] && mib=32 loops=2
		[ $((mib * ncpu)) -le "$quarter" ] || mib=$((quarter / ncpu))
		model_case_opts="-D tasks=$ncpu -D mib=$mib -D loops=$loops -D thp=$thp_2m"
		run_case $c "$bin/page_fault1" "$ncpu" "$mib" "$loops"
		;;
	mass_exit|mass_exit_thp)
		mode=never model_case=mass_exit
		[ $c = mass_exit_thp ] && mode=always
		n=64 mib=64
		[ $quick = 1 ] && n=16 mib=16
		[ $((n * mib)) -le "$quarter" ] || n=$((quarter / mib))
		set_knob $thp/enabled $mode
		[ -f $thp/hugepages-2048kB/enabled ] && set_knob $thp/hugepages-2048kB/enabled inherit
		model_case_opts="-D children=$n -D mib=$mib -D thp=$mode"
		self_checkpoints=1
		run_case $c "$bin/mass_exit" "$n" "$mib"
		restore
		: > "$restore_list"
		;;
	thp_madvise)
		mib=192
		[ $quick = 1 ] && mib=48
		mode=$thp_2m
		if [ "$mode" = never ]; then
			mode=madvise
			set_knob $thp/enabled madvise
			setting "THP enabled for thp_madvise" madvise "the host's never set to madvise for the case"
		fi
		model_case_opts="-D mib=$mib -D thp=$mode"
		run_case $c "$bin/thp_madvise" -d "$mib"
		restore
		: > "$restore_list"
		;;
	files)
		n=100000
		self_checkpoints=1
		model_case_opts="-D files=$n"
		tmp=${TMPDIR:-/var/tmp}
		setting "files: folder" "$tmp ($(stat -f -c %T "$tmp"): ext2/ext3 is ext4's magic too)" \
			"the model's inodes are ext4_inode_cache objects"
		run_case $c "$bin/files" "$tmp" "$n"
		;;
	snapshot)
		# The machine as it is: captured, then asked for every 1 GiB page
		# it gives (given back at once); the model asks the import the same.
		echo "validate: snapshot: capturing this machine" >&2
		sh "$src/sim/capture.sh" "$out/snapshot.tar.gz" 2> "$out/snapshot.log" ||
			die "snapshot: the capture failed ($out/snapshot.log)"
		gdir=/sys/kernel/mm/hugepages/hugepages-1048576kB
		if [ -d $gdir ]; then
			was=$(cat $gdir/nr_hugepages)
			echo "$gdir/nr_hugepages $was" >> "$restore_list"
			echo 1048576 > $gdir/nr_hugepages 2> /dev/null || :
			real=$(($(cat $gdir/nr_hugepages) - was))
			echo "$was" > $gdir/nr_hugepages
			note="every 1 GiB hugetlb page nr_hugepages gave, right after the capture"
		else
			real=n/a
			note="the host has no 1 GiB hugetlb pages ($gdir absent: the CPU lacks pdpe1gb or the kernel hugetlb); the model's alone"
		fi
		"$mmsim" --out "$out/snapshot-model" "$src/validate/snapshot.lua" \
			-D capture="$out/snapshot.tar.gz" > "$out/snapshot-model.log" 2>&1 ||
			die "snapshot: the model run failed ($out/snapshot-model.log)"
		model=$(sed -n 's/^gigantic //p' "$out/snapshot-model.log")
		ratio=$(awk -v r="$real" -v m="$model" 'BEGIN { if (r == "n/a") print "n/a";
			else if (r == 0) print (m == 0 ? "1.00" : "inf"); else printf "%.2f\n", m / r }')
		printf 'snapshot\t%s\t%s\t0\t%s\t%s\t%s\n' gigantic_pages_obtained "$real" "$model" \
			"$ratio" "$note" >> "$out/rows"
		;;
	compact|gigantic)
		mib=1024
		[ "$mib" -le "$quarter" ] || mib=$((quarter / 4 * 4))
		self_checkpoints=1
		model_case_opts="-D mib=$mib -D thp=$thp_2m"
		tmp=${TMPDIR:-/var/tmp}
		if [ $c = compact ]; then
			run_case $c "$bin/fragment" "$tmp" "$mib"
		else
			g=2
			model_case_opts="$model_case_opts -D gigantic=$g"
			gdir=/sys/kernel/mm/hugepages/hugepages-1048576kB
			if [ -d $gdir ]; then
				echo "$gdir/nr_hugepages $(cat $gdir/nr_hugepages)" >> "$restore_list"
				run_case $c "$bin/fragment" -g $g "$tmp" "$mib"
			else
				run_case $c - "the host has no 1 GiB hugetlb pages ($gdir absent: the CPU lacks pdpe1gb or the kernel hugetlb); the model's alone"
			fi
		fi
		;;
	esac
done

# The table: CSV and Markdown.
kernel=$(uname -r)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
machine="Linux $kernel, ${cpu:-unknown CPU}, $ncpu CPUs, $mem"
{
	echo "case,counter,real,background,model,ratio,note"
	awk -F'\t' "$csv_awk"'{ s = ""; for (i = 1; i <= NF; i++) s = s (i > 1 ? "," : "") csv_field($i); print s }' "$out/rows"
} > "$out/validation.csv"
{
	echo "Measured on $machine, $(date -u +%Y-%m-%d)$([ $quick = 1 ] && echo ', --quick sizes')."
	echo
	echo "| case | counter | real | background | model | model / (real - background) | note |"
	echo "|---|---|---:|---:|---:|---:|---|"
	awk -F'\t' '{ printf "| %s | `%s` | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$out/rows"
	echo
	echo "The host's settings:"
	echo
	echo "| setting | value | in the model |"
	echo "|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$settings"
} > "$out/validation.md"
cat "$out/validation.md"
if [ $doc = 1 ]; then
	d=$src/docs/VALIDATION.md
	[ -f "$d" ] || die "no $d to fill"
	awk -v table="$out/validation.md" '
	/^<!-- validate:begin -->$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- validate:end -->$/ { skip = 0 }
	!skip' "$d" > "$d.tmp" && mv "$d.tmp" "$d"
	echo "validate: the table is in $d" >&2
fi
echo "validate: $out/validation.csv, $out/validation.md" >&2
