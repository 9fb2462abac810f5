# One figure of a sweep against one swept parameter, a line per value of
# another, from a sweep's sweep.csv (a header row of column names, one row
# per run).
#   gnuplot -e "datafile='sweep.csv'; outfile='sweep.png'; term='png'; \
#               plot_title='...'; xcol='cpus'; ycol='zone_lock.wait_share'; \
#               seriescol='policy'" plots/sweep.gp
# term is png (default), pdf or svg; seriescol may be '' (one line);
# xlabel and ylabel default to the column names.  x must be numeric.  Runs
# with the same x and series value (other parameters, seeds) are averaged.
# The x axis is log2 when x is positive and spans more than 8x (CPU counts
# 8, 16, ..., 256), linear otherwise.
if (!exists("term")) term = "png"
if (!exists("plot_title")) plot_title = ""
if (!exists("seriescol")) seriescol = ""
if (!exists("xlabel")) xlabel = xcol
if (!exists("ylabel")) ylabel = ycol
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
	plot datafile using (column(xcol)):(column(ycol)) with table if (in_series(i))
	unset table
	set print $points append
	print ""
	print ""
	unset print
}
set datafile separator whitespace
set datafile nocolumnheaders

stats $points using 1 nooutput
if (STATS_min > 0 && STATS_max > 8 * STATS_min) { set logscale x 2 }

set title plot_title font ",16"
set border 3 lw 1.5
set tics nomirror
set grid xtics ytics lt 1 lc rgb "#e4e4e4" lw 1
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set key top left Left reverse title seriescol

# Okabe-Ito colours, distinguishable with colour blindness and in print.
array colours[8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	"#56B4E9", "#000000", "#F0E442"]

plot for [i = 1:(nseries > 0 ? nseries : 1)] $points index (i - 1) \
	smooth unique with linespoints lw 3 pt 7 ps 1.4 \
	lc rgb colours[(i - 1) % 8 + 1] title (nseries > 0 ? word(series, i) : "")
