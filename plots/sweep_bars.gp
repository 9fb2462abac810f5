# A sweep over a categorical parameter (policy): a cluster of bars per value
# of it, a bar of each cluster per value of another parameter, the value
# printed above each bar.
#   gnuplot -e "datafile='sweep.dat'; outfile='sweep.png'; term='png'; \
#               plot_title='...'; subtitle='...'; nseries=2; titles='8 64'; \
#               nx=3; xtics='\"upstream\" 1, \"pcp_buddy\" 2, \"spb\" 3'; \
#               xlabel='policy'; ylabel='...'; serieslabel='CPUs'; errors=1; \
#               logy=0; ylow=1" plots/sweep_bars.gp
# datafile is the sweep.dat sim/sweep.sh writes: a block per series, rows
# x_index x mean min max runs; x_index numbers the clusters 1 to nx, whose
# names xtics gives.  errors=1 draws bars from min to max on each bar (the
# value is then printed above max); logy=1 a log y axis from ylow.
if (!exists("subtitle")) subtitle = ""
# seedline: what the points and bars are over seeds, a title line of its own.
if (!exists("seedline")) seedline = ""
if (!exists("serieslabel")) serieslabel = ""
if (!exists("errors")) errors = 0
if (!exists("logy")) logy = 0
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"

# The clusters fill 80% of their slot, their bars side by side.
w = 0.8 / nseries
pos(xi, j) = xi + (j - (nseries + 1) / 2.0) * w
set boxwidth 0.92 * w absolute
set style fill solid 0.9 noborder
set xrange [0.4:nx + 0.6]
eval "set xtics (" . xtics . ")"
set xtics scale 0
if (logy) {
	set logscale y 10
	set yrange [ylow:*]
	set autoscale yfixmax   # not up to the next power of 10
} else {
	set yrange [0:*]
}
set offsets 0, 0, graph 0.12, 0
set title plot_title . (subtitle ne "" ? "\n" . subtitle : "") . \
	(seedline ne "" ? "\n" . seedline : "")
set xlabel xlabel
set ylabel ylabel
set bars 1.5
# The values, upright while a bar is wide enough for one, else turned.
upright = nx * nseries <= 12
bar_value(v) = v == int(v) || abs(v) >= 100 ? sprintf("%.0f", v) : abs(v) >= 10 ? sprintf("%.1f", v) \
	: sprintf("%.3g", v)
# One series: the bars say it all.
if (nseries > 1 && serieslabel ne "") {
	set key outside right top vertical Left reverse title serieslabel spacing 1.3
} else {
	set key off
}
plot for [j = 1:nseries] datafile index (j - 1) using (pos($1, j)):3 with boxes \
		lc rgb line_colour(j) title word(titles, j), \
	for [j = 1:(errors ? nseries : 0)] datafile index (j - 1) \
		using (pos($1, j)):3:4:5 with yerrorbars lw 2 pt 0 ps 0 lc rgb "#333333" notitle, \
	for [j = 1:(upright ? nseries : 0)] datafile index (j - 1) \
		using (pos($1, j)):(errors ? $5 : $3):(bar_value($3)) with labels center offset 0, 0.9 \
		notitle, \
	for [j = 1:(upright ? 0 : nseries)] datafile index (j - 1) \
		using (pos($1, j)):(errors ? $5 : $3):(bar_value($3)) with labels left rotate by 90 \
		offset 0, 0.5 font sprintf(",%g", 0.8 * font_size) notitle
