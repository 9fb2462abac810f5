# One column of every run's timeseries.csv over simulated time, one line per
# run of a sweep (sim/sweep.sh), e.g. 1 GiB regions movable-only per policy.
#   gnuplot -e "files='a/timeseries.csv b/timeseries.csv'; titles='upstream spb'; \
#               ycol='gb_movable_only'; ylabel='...'; outfile='x.png'; term='png'; \
#               plot_title='...'" plots/sweep_timeseries.gp
# files and titles are space-separated lists of the same length.
if (!exists("term")) term = "png"
if (!exists("plot_title")) plot_title = ""
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
set title plot_title font ",16"
set border 3 lw 1.5
set tics nomirror
set grid ytics lt 1 lc rgb "#e4e4e4" lw 1
set xrange [0:*]
set yrange [0:*]
set xlabel "simulated time (ms)"
set ylabel ylabel
set key top right spacing 1.2
# Colour-blind-safe colours, as the other plots.
array colours[6] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"]
plot for [i = 1:words(files)] word(files, i) using "time_ms":ycol with lines lw 3 \
	lc rgb colours[(i - 1) % 6 + 1] title word(titles, i)
