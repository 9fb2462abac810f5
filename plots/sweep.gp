# One figure of a sweep against one swept parameter, a line per value of
# another, from a sweep's sweep.csv (a header row of column names, one row
# per run).
#   gnuplot -e "datafile='sweep.csv'; outfile='sweep.png'; term='png'; \
#               plot_title='...'; xcol='cpus'; ycol='zone_lock.wait_share'; \
#               seriescol='policy'" plots/sweep.gp
# term is png (default), pdf or svg; seriescol may be '' (one line);
# xlabel, ylabel and serieslabel default to the column names.  x must be numeric.  Runs
# with the same x and series value (other parameters, seeds) are averaged.
# yscale (default 1) multiplies y (100 for a share in %).  The x axis is
# log2 when x is positive and spans 4x or more (CPU counts 8, 16, ...,
# 64), linear otherwise.
if (!exists("seriescol")) seriescol = ""
if (!exists("serieslabel")) serieslabel = seriescol
if (!exists("xlabel")) xlabel = xcol
if (!exists("ylabel")) ylabel = ycol
if (!exists("yscale")) yscale = 1
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders

# The series values, in their order of first appearance ("" plots every
# row as one line).
series = ""
if (seriescol ne "") {
	stats datafile using (s = " " . strcol(seriescol) . " ", \
		strstrt(series, s) ? 0 : (series = series . s), 0) nooutput
}
nseries = words(series)
in_series(i) = nseries == 0 || strcol(seriescol) eq word(series, i)

# Copy each series' (x, y) points into a block of $points.  Plotting the
# file with the other series' points made undefined would break the lines
# at every one of them.
$points << EOD
EOD
do for [i = 1:(nseries > 0 ? nseries : 1)] {
	set table $points append
	plot datafile using (column(xcol)):(yscale * column(ycol)) with table if (in_series(i))
	unset table
	set print $points append
	print ""
	print ""
	unset print
}
set datafile separator whitespace
set datafile nocolumnheaders

stats $points using 1 nooutput
if (STATS_min > 0 && STATS_max >= 4 * STATS_min) { set logscale x 2 }

set title plot_title
set grid xtics ytics lt 1 lc rgb "#e4e4e4" lw 1
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set key outside right top vertical Left reverse title serieslabel

plot for [i = 1:(nseries > 0 ? nseries : 1)] $points index (i - 1) \
	smooth unique with linespoints lw 3 pt line_marker(i) ps marker \
	lc rgb line_colour(i) dt line_dash(i) title (nseries > 0 ? word(series, i) : "")
