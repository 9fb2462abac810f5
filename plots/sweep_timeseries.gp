# A figure over simulated time with a line per run or per combination of a
# sweep (sim/sweep.sh), e.g. 1 GiB regions movable-only per policy, from
# either of:
#   gnuplot -e "files='a/timeseries.csv b/timeseries.csv'; titles='upstream spb'; \
#               ycol='gb_movable_only'; ylabel='...'; outfile='x.png'; term='png'; \
#               plot_title='...'" plots/sweep_timeseries.gp
#     a column of each run's timeseries.csv (./run compare uses it, a line
#     per results folder); files and titles are space-separated lists of
#     the same length; yscale (default 1) multiplies ycol (100 for a share
#     in %); steps is "steps" (default: a sample is the state from its
#     time on) or "fsteps" (a sample closes its interval, as
#     zone_lock_wait_share).
#   gnuplot -e "datafile='sweep-gb_yield.dat'; nlines=2; titles='upstream spb'; \
#               band=1; ..." plots/sweep_timeseries.gp
#     the blocks sim/sweep.sh writes, one per line: time_ms mean min max
#     runs, already in steps; band=1 shades each line's min to max.
# Both take subtitle (a second title line), keytitle (the key's title) and
# phases ("name start_ms name start_ms ..."): each phase is named at the
# top of the plot from its start, a dashed line marking a start after 0.
if (!exists("ylabel")) ylabel = ycol
if (!exists("yscale")) yscale = 1
if (!exists("steps")) steps = "steps"
if (!exists("subtitle")) subtitle = ""
# seedline: what the points and bars are over seeds, a title line of its own;
# endline: what each line's runs held at the end, title lines of their own
# split at "|".
if (!exists("seedline")) seedline = ""
if (!exists("endline")) endline = ""
if (!exists("keytitle")) keytitle = ""
if (!exists("phases")) phases = ""
if (!exists("band")) band = 0
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
endtitle = ""
e = endline
while (strstrt(e, "|") > 0) { k = strstrt(e, "|"); endtitle = endtitle . "\n" . e[1:k - 1]; e = e[k + 1:] }
if (e ne "") { endtitle = endtitle . "\n" . e }
set title plot_title . (subtitle ne "" ? "\n" . subtitle : "") . \
	(seedline ne "" ? "\n" . seedline : "") . endtitle
set xrange [0:*]
set autoscale xfixmax
set yrange [0:*]
set xlabel "simulated time (ms)"
set ylabel ylabel
set key outside right top vertical Left reverse spacing 1.2 title keytitle
# Room above the lines for the phases' names.
if (phases ne "") { set offsets 0, 0, graph 0.12, 0 }
do for [p = 1:words(phases) / 2] {
	at = real(word(phases, 2 * p))
	if (at > 0) {
		set arrow from at, graph 0 to at, graph 1 nohead dt 2 lw 2 lc rgb "#555555" back
	}
	set label word(phases, 2 * p - 1) at at, graph 0.97 left offset 0.4, 0 \
		textcolor rgb "#333333" front
}
if (exists("datafile")) {
	plot for [i = 1:(band ? nlines : 0)] datafile index (i - 1) using 1:3:4 \
			with filledcurves fs transparent solid 0.2 noborder lc rgb line_colour(i) notitle, \
		for [i = 1:nlines] datafile index (i - 1) using 1:2 with lines lw line_width(i) \
			lc rgb line_colour(i) dt line_dash(i) title word(titles, i)
} else {
	set datafile separator ","
	set datafile columnheaders
	plot for [i = 1:words(files)] word(files, i) using "time_ms":(yscale * column(ycol)) \
		with @steps lw line_width(i) lc rgb line_colour(i) dt line_dash(i) title word(titles, i)
}
