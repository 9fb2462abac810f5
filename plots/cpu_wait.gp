# Time each CPU's threads spent waiting for zone->lock and pcp->lock, from a
# run's cpu_wait.csv (columns cpu, zone_wait_ns, pcp_wait_ns; one row per
# CPU that ran a thread of the workload or waited).
#   gnuplot -e "datafile='cpu_wait.csv'; outfile='cpu_wait.png'; \
#               term='png'; plot_title='...'" plots/cpu_wait.gp
# term is png (default), pdf or svg.  Times are shown in µs, or in ms once
# the largest reaches 1 ms.
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders

stats datafile using "zone_wait_ns" nooutput
top = STATS_max
ncpus = STATS_records
stats datafile using "pcp_wait_ns" nooutput
top = STATS_max > top ? STATS_max : top
if (top >= 1e6) { scale = 1e6; unit = "ms" } else { scale = 1e3; unit = "µs" }
# Label every step-th bar: at most 16 labels, step a power of two.
step = 1
while (ncpus > 16 * step) { step = 2 * step }

set title plot_title
set xtics scale 0
set key outside right top vertical
set xlabel "CPU"
set ylabel sprintf("time waiting (%s)", unit)
# All zero (no contention) would be an empty range: the run leaves
# such a plot out, this keeps a direct call quiet.
if (top > 0) { set yrange [0:*] } else { set yrange [0:1] }
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 noborder
plot datafile using (column("zone_wait_ns") / scale):xtic(int($0) % step == 0 ? \
	strcol("cpu") : "") title "zone->lock" lc rgb line_colour(2), \
	'' using (column("pcp_wait_ns") / scale) title "pcp->lock" lc rgb line_colour(1)
