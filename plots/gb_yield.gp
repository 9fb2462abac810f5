# 1GB yield over simulated time, from a run's timeseries.csv: 1 GiB regions
# free now, movable-only and obtainable by migration (models/gbyield.h).
#   gnuplot -e "datafile='timeseries.csv'; outfile='gb_yield.png'; \
#               term='png'; plot_title='...'; total_regions='7'" plots/gb_yield.gp
# term is png (default), pdf or svg.  Columns read: time_ms, gb_free_now,
# gb_movable_only, gb_movable_obtainable.  total_regions (optional) is
# drawn as a dashed line and sets the y range.
if (!exists("term")) term = "png"
if (!exists("plot_title")) plot_title = ""
if (!exists("total_regions")) total_regions = ""
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

total = total_regions ne "" ? real(total_regions) : 0
set title plot_title font ",16"
set border 3 lw 1.5
set tics nomirror
set grid ytics lt 1 lc rgb "#e4e4e4" lw 1
set xrange [0:*]
set autoscale xfixmax
# Headroom for the key above the total.
if (total > 0) { set yrange [0:1.2 * total] } else { set yrange [0:*] }
# Whole regions: a tic per region on small machines, gnuplot's own beyond.
if (total < 20) { set ytics 1 }
set xlabel "simulated time (ms)"
set ylabel "1 GiB regions"
set key top right horizontal maxrows 1 samplen 2.5
# Each sample closes its interval, hence steps.  Equal figures are common
# (a machine without unmovable spread has obtainable = movable-only): the
# wide pale line stays visible under the narrower ones.
plot (total > 0 ? total : NaN) with lines dt 2 lw 1.5 lc rgb "#000000" \
		title sprintf("all regions (%d)", int(total)), \
	datafile using "time_ms":"gb_movable_only" with steps lw 7 lc rgb "#99D8C9" \
		title "movable-only", \
	datafile using "time_ms":"gb_movable_obtainable" with steps lw 2.5 dt 2 \
		lc rgb "#D55E00" title "obtainable by migration", \
	datafile using "time_ms":"gb_free_now" with steps lw 2.5 lc rgb "#0072B2" \
		title "free now"
