# 1GB yield over simulated time, from a run's timeseries.csv: 1 GiB regions
# free now and movable-only (models/gbyield.h).
#   gnuplot -e "datafile='timeseries.csv'; outfile='gb_yield.png'; \
#               term='png'; plot_title='...'" plots/gb_yield.gp
# term is png (default), pdf or svg.  Columns read: time_ms, gb_free_now,
# gb_movable_only and gb_possible, the regions no
# boot reservation holds at each sample (it grows with memory hotplug),
# drawn dashed: every figure is "N of possible".  phasefile, if set, is the run's phases.csv: each phase shaded
# and named (gigantic.lua's aging, then allocation), so that a fall at
# allocation reads as the pages taken.
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders
# Before any range is set: stats would drop the phases outside it.
load d[1:i] . "phases.gp"

stats datafile using "gb_possible" nooutput
total = STATS_max
set title plot_title
set xrange [0:*]
set autoscale xfixmax
# A machine without a whole 1 GiB region still gets a y range.
set yrange [0:(total > 0 ? 1.05 * total : 1)]
# Whole regions: a tic per region on small machines, gnuplot's own beyond.
if (total < 20) { set ytics 1 }
set xlabel "simulated time (ms)"
set ylabel "1 GiB regions"
set key outside right top vertical samplen 2
# A sample is the state from its time on, hence steps.  Equal figures
# are common (a machine with nothing movable has free = movable-only):
# the wide pale line stays visible under the narrower one.
plot datafile using "time_ms":"gb_possible" with steps dt 2 lw 1.5 lc rgb "#000000" \
		title sprintf("possible (%d at most)", int(total)), \
	datafile using "time_ms":"gb_movable_only" with steps lw 7 lc rgb "#99D8C9" \
		title "movable-only", \
	datafile using "time_ms":"gb_free_now" with steps lw 2.5 lc rgb line_colour(1) \
		title "free now"
