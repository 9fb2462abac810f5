# One figure of a sweep against a numeric swept parameter, a line per value
# of another, from the sweep.dat sim/sweep.sh writes (a block per series:
# x_index x mean min max runs, x ascending).
#   gnuplot -e "datafile='sweep.dat'; outfile='sweep.png'; term='png'; \
#               plot_title='...'; subtitle='...'; nseries=3; \
#               titles='upstream pcp_buddy spb'; xlabel='...'; ylabel='...'; \
#               serieslabel='policy'; errors=1; logx=2; xmin=8; xmax=128; \
#               logy=0; ylow=1" plots/sweep.gp
# term is png (default), pdf or svg.  errors=1 draws bars from min to max
# at each mean.  logx is 0 (linear) or the base of a log x axis; xmin and
# xmax are x's range.  logy=1 draws y on a log axis from ylow.  Series i
# is drawn 2% of the axis' width right of series i - 1 (around the
# true x, on a log axis in proportion), so that points and bars of equal
# values stay apart.  serieslabel '' leaves the key out.
if (!exists("subtitle")) subtitle = ""
# seedline: what the points and bars are over seeds, a title line of its own.
if (!exists("seedline")) seedline = ""
if (!exists("serieslabel")) serieslabel = ""
if (!exists("errors")) errors = 0
if (!exists("logx")) logx = 0
if (!exists("logy")) logy = 0
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"

dodge(i) = 0.02 * (i - (nseries + 1) / 2.0)
if (logx > 0) {
	set logscale x logx
	xpos(x, i) = x * (xmax > xmin ? xmax / xmin : 2) ** dodge(i)
} else {
	xpos(x, i) = x + (xmax > xmin ? xmax - xmin : 1) * dodge(i)
}
if (logy) {
	set logscale y 10
	set yrange [ylow:*]
	set autoscale yfixmax   # not up to the next power of 10
} else {
	set yrange [0:*]
}

set title plot_title . (subtitle ne "" ? "\n" . subtitle : "") . \
	(seedline ne "" ? "\n" . seedline : "")
set grid xtics ytics lt 1 lc rgb "#e4e4e4" lw 1
set autoscale xfix
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set xlabel xlabel
set ylabel ylabel
set bars 2
if (serieslabel ne "") {
	set key outside right top vertical Left reverse title serieslabel spacing 1.3 width 2
} else {
	set key off
}

plot for [i = 1:(errors ? nseries : 0)] datafile index (i - 1) \
		using (xpos($2, i)):3:4:5 with yerrorbars lw 2 pt 0 ps 0 lc rgb line_colour(i) notitle, \
	for [i = 1:nseries] datafile index (i - 1) using (xpos($2, i)):3 \
		with linespoints lw line_width(i) pt line_marker(i) ps marker_size(i) \
		lc rgb line_colour(i) dt line_dash(i) title word(titles, i)
