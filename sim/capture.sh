#!/bin/sh
# ./run capture OUT.tar.gz: this machine's physical memory as the kernel
# shows it (/proc/kpageflags, /proc/kpagecount, the zone and buddy files,
# node topology, THP, hugetlb and vm sysctls, page_owner when enabled), for
# mmsim.machine{snapshot = OUT.tar.gz} (docs/GUIDE.md, "Starting from a
# real machine").  The flags are compressed as they are read, so a
# terabyte machine needs gigabytes of neither memory nor disk.
#
# ./run capture --settings OUT.tar.gz: only the settings (THP, hugetlb, vm
# sysctls, the node and CPU files), which any user can read, for
# mmsim.machine{settings = OUT.tar.gz}.
set -eu
say() { echo "capture: $*" >&2; }
settings_only=no
[ "${1:-}" = --settings ] && { settings_only=yes; shift; }
[ $# -eq 1 ] || { echo "usage: ./run capture [--settings] OUT.tar.gz" >&2; exit 2; }
out=$1
case $out in *.tar.gz) ;; *) say "$out: the capture is a .tar.gz"; exit 2 ;; esac
if [ $settings_only = no ] && [ "$(id -u)" != 0 ]; then
	say "needs root: /proc/kpageflags and /proc/kpagecount are readable by root only"
	exit 1
fi
if [ $settings_only = no ]; then
	for f in /proc/kpageflags /proc/kpagecount /proc/zoneinfo /proc/buddyinfo /proc/pagetypeinfo; do
		[ -r "$f" ] || { say "$f cannot be read (a kernel without CONFIG_PROC_PAGE_MONITOR?)"; exit 1; }
	done
fi
outdir=$(cd "$(dirname "$out")" && pwd) || { say "$(dirname "$out"): no such directory"; exit 1; }
dir=$(mktemp -d "$outdir/.capture.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

# copy FILE...: each file under its own path in the capture; files the
# kernel does not have are left out.
copy() {
	for f; do
		[ -r "$f" ] || continue
		mkdir -p "$dir${f%/*}"
		cat "$f" > "$dir$f" 2>/dev/null || rm -f "$dir$f"
	done
}

buddy_pages() {
	awk '{ for (i = 5; i <= NF; i++) s += $i * 2 ^ (i - 5) } END { printf "%d\n", s }' \
		"$dir/proc/buddyinfo"
}
zone_pages() {
	awk '$1 == "pages" && $2 == "free" { s += $3 } END { printf "%d\n", s }' "$dir/proc/zoneinfo"
}

# The memory: the flags and counts of every frame and the free lists.
capture_memory() {
	# The free lists change while the flags are read: read buddyinfo before
	# and after, and read again (up to 5 times) until the two agree, so that
	# the flags describe the free lists that buddyinfo and pagetypeinfo give.
	tries=0
	consistent=no
	while [ $tries -lt 5 ]; do
		tries=$((tries + 1))
		before=$(cat /proc/buddyinfo)
		dd if=/proc/kpageflags bs=1M status=none | gzip -1 > "$dir/kpageflags.gz"
		# The three files are read one after the other: again until their
		# free page counts agree (buddyinfo's blocks, zoneinfo's pages free).
		# zoneinfo's count lags the free lists by the CPUs' unfolded vmstat
		# deltas until vmstat_update folds them (each second), so the reads
		# are spread over two seconds.
		n=0
		zone_consistent=no
		while [ $n -lt 40 ]; do
			n=$((n + 1))
			copy /proc/buddyinfo /proc/zoneinfo /proc/pagetypeinfo
			if [ "$(buddy_pages)" = "$(zone_pages)" ]; then
				zone_consistent=yes
				break
			fi
			sleep 0.05
		done
		if [ "$before" = "$(cat "$dir/proc/buddyinfo")" ]; then
			consistent=yes
			break
		fi
	done
	dd if=/proc/kpagecount bs=1M status=none | gzip -1 > "$dir/kpagecount.gz"
	if [ -r /sys/kernel/debug/page_owner ]; then
		gzip -1 < /sys/kernel/debug/page_owner > "$dir/page_owner.gz"
	fi
	frames=$(($(gzip -dc "$dir/kpageflags.gz" | wc -c) / 8))
}
[ $settings_only = yes ] || capture_memory
copy /proc/meminfo /proc/vmstat /proc/cmdline
copy /sys/devices/system/node/online /sys/devices/system/node/possible
for n in /sys/devices/system/node/node[0-9]*; do
	[ -d "$n" ] && copy "$n/meminfo" "$n/cpulist" "$n/distance"
done
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$c/topology" ] && copy "$c/topology/physical_package_id"
done
for f in /sys/kernel/mm/transparent_hugepage/*; do
	[ -f "$f" ] && copy "$f"
done
copy /sys/kernel/mm/transparent_hugepage/khugepaged/defrag \
	/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none \
	/sys/kernel/mm/transparent_hugepage/hugepages-1048576kB/enabled \
	/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled
for h in /sys/kernel/mm/hugepages/hugepages-*; do
	[ -d "$h" ] && copy "$h/nr_hugepages" "$h/free_hugepages"
done
for s in min_free_kbytes watermark_scale_factor watermark_boost_factor \
	percpu_pagelist_high_fraction compaction_proactiveness extfrag_threshold \
	lowmem_reserve_ratio numa_zonelist_order; do
	copy "/proc/sys/vm/$s"
done
copy /proc/sys/kernel/numa_balancing
cat > "$dir/manifest" <<MANIFEST
format mmsim-capture 1
kernel $(uname -r)
machine $(uname -m)
host $(uname -n)
captured $(date -u +%Y-%m-%dT%H:%M:%SZ)
page_size $(getconf PAGESIZE)
MANIFEST
if [ $settings_only = yes ]; then
	echo "settings_only yes" >> "$dir/manifest"
	tar -czf "$out.tmp" -C "$dir" .
	mv "$out.tmp" "$out"
	say "$out: settings only, kernel $(uname -r)"
	exit 0
fi
cat >> "$dir/manifest" <<MANIFEST
frames $frames
buddyinfo_consistent $consistent
zoneinfo_consistent $zone_consistent
reads $tries
page_owner $([ -e "$dir/page_owner.gz" ] && echo yes || echo no)
MANIFEST
tar -czf "$out.tmp" -C "$dir" .
mv "$out.tmp" "$out"
[ $zone_consistent = yes ] || say "warning: zoneinfo's free pages never matched buddyinfo's ($n reads): the import has buddyinfo's"
[ $consistent = yes ] || say "warning: the free lists kept changing while the flags were read ($tries reads): buddyinfo may differ from the flags; capture an idler machine for an exact import"
say "$out: $frames frames, kernel $(uname -r), $(du -h "$out" | cut -f1)"
