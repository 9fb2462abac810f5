# Time each CPU's threads spent waiting for zone->lock and pcp->lock, from a
# run's cpu_wait.csv (columns cpu, zone_wait_ns, pcp_wait_ns).
#   gnuplot -e "datafile='cpu_wait.csv'; outfile='cpu_wait.png'; \
#               term='png'; plot_title='...'" plots/cpu_wait.gp
# term is png (default), pdf or svg.  Times are shown in µs, or in ms once
# the largest reaches 1 ms.
if (!exists("term")) term = "png"
if (!exists("plot_title")) plot_title = ""
if (term eq "pdf") {
	set terminal pdfcairo noenhanced size 8in,4.5in font "DejaVu Sans,10"
} else {
	if (term eq "svg") {
		set terminal svg noenhanced size 1280,720 font "DejaVu Sans,14" background "white"
	} else {
		set terminal pngcairo noenhanced size 1280,720 font "DejaVu Sans,14"
	}
}
set encoding utf8
set output outfile
set datafile separator ","
set datafile columnheaders

stats datafile using "zone_wait_ns" nooutput
top = STATS_max
ncpus = STATS_records
stats datafile using "pcp_wait_ns" nooutput
top = STATS_max > top ? STATS_max : top
if (top >= 1e6) { scale = 1e6; unit = "ms" } else { scale = 1e3; unit = "µs" }
# Label every step-th CPU: at most 16 labels, step a power of two.
step = 1
while (ncpus > 16 * step) { step = 2 * step }

set title plot_title font ",16"
set border 3 lw 1.5
set tics nomirror
set xtics scale 0
set grid ytics lt 1 lc rgb "#e4e4e4" lw 1
set key top right horizontal
set xlabel "CPU"
set ylabel sprintf("time waiting (%s)", unit)
# Headroom for the key above the tallest bar; all zero (no contention)
# would otherwise be an empty range, an error.
if (top > 0) { set yrange [0:1.15 * top / scale] } else { set yrange [0:1] }
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 noborder
plot datafile using (column("zone_wait_ns") / scale):xtic(int(column("cpu")) % step == 0 ? \
	strcol("cpu") : "") title "zone->lock" lc rgb "#D55E00", \
	'' using (column("pcp_wait_ns") / scale) title "pcp->lock" lc rgb "#0072B2"
