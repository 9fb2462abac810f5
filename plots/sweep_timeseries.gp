# One column of every run's timeseries.csv over simulated time, one line per
# run of a sweep (sim/sweep.sh), e.g. 1 GiB regions movable-only per policy.
#   gnuplot -e "files='a/timeseries.csv b/timeseries.csv'; titles='upstream spb'; \
#               ycol='gb_movable_only'; ylabel='...'; outfile='x.png'; term='png'; \
#               plot_title='...'" plots/sweep_timeseries.gp
# files and titles are space-separated lists of the same length; yscale
# (default 1) multiplies ycol (100 for a share in %); steps is "steps"
# (default: a sample is the state from its time on) or "fsteps" (a sample
# closes its interval, as zone_lock_wait_share).  ./run compare uses
# it too, one line per results folder.
if (!exists("ylabel")) ylabel = ycol
if (!exists("yscale")) yscale = 1
if (!exists("steps")) steps = "steps"
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders
set title plot_title
set xrange [0:*]
set autoscale xfixmax
set yrange [0:*]
set xlabel "simulated time (ms)"
set ylabel ylabel
set key outside right top vertical spacing 1.2
plot for [i = 1:words(files)] word(files, i) using "time_ms":(yscale * column(ycol)) \
	with @steps lw 3 lc rgb line_colour(i) dt line_dash(i) title word(titles, i)
