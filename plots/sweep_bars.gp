# A sweep over a categorical parameter (policy): one bar per value of it,
# clustered, one bar of each cluster per value of another parameter.
#   gnuplot -e "datafile='sweep-bars.dat'; outfile='sweep.png'; term='png'; \
#               plot_title='...'; xlabel='policy'; ylabel='...'; yscale=100; \
#               serieslabel='CPUs'; nseries=4" plots/sweep_bars.gp
# datafile is the table sim/sweep.sh writes: a header row (the parameter,
# then the series' values), then one row per category with the mean of
# each series (NaN for none); nseries is the number of series columns.  yscale (default 1) multiplies the values.
if (!exists("serieslabel")) serieslabel = ""
if (!exists("yscale")) yscale = 1
if (!exists("xlabel")) xlabel = ""
if (!exists("ylabel")) ylabel = ""
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile columnheaders

ncols = nseries + 1
set title plot_title
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set xtics scale 0
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.9 noborder
set boxwidth 0.9
# One series: the bars say it all.
if (ncols > 2) { set key outside right top vertical title serieslabel } else { set key off }
plot for [c = 2:ncols] datafile using (yscale * column(c)):xtic(1) \
	lc rgb line_colour(c - 1) title columnhead(c)
