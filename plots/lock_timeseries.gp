# zone->lock over simulated time, from a run's timeseries.csv.
#   gnuplot -e "datafile='timeseries.csv'; outfile='lock_timeseries.png'; \
#               term='png'; plot_title='...'" plots/lock_timeseries.gp
# term is png (default), pdf or svg.  Columns read: time_ms,
# zone_lock_wait_share (share of CPU time spent waiting for zone->lock during
# the sample interval) and zone_lock_contentions (cumulative: the lower panel
# shows its increase over each interval, so no delta column is needed).
# phasefile, if set, is a run's phases.csv (phase,start_ms,end_ms, from
# m:phase): each phase is shaded in both panels, edged so that a phase
# too short for the time axis still shows, and named at the top.
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders

set key off
set xrange [0:*]
set autoscale xfixmax
set yrange [0:*]
# The same margins in both panels keep their time axes aligned.
set lmargin 14
set rmargin 4

load d[1:i] . "phases.gp"

set multiplot layout 2,1 title plot_title font ",22"

set tmargin 1
set bmargin 2
set ylabel "zone->lock wait\nshare (%)"
# Each sample closes its interval, hence fsteps (in both panels).
plot datafile using "time_ms":(100 * column("zone_lock_wait_share")) \
	with fsteps lw 2.5 lc rgb line_colour(1)

unset label
# Contentions in each sample interval: the cumulative count minus the
# previous row's.
set tmargin 1
set bmargin 3.5
set xlabel "simulated time (ms)"
set ylabel "zone->lock contentions\n(count per sample)"
prev = 0
plot datafile using "time_ms":(d = column("zone_lock_contentions") - prev, \
	prev = column("zone_lock_contentions"), d) \
	with fsteps lw 2.5 lc rgb line_colour(2)

unset multiplot
