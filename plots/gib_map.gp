# A machine's memory one cell per GiB, rows of cols GiB from pfn 0 at the
# top: for the memory map of a big machine (memmap-gib.dat: each GiB
# coloured by the worst class of its pageblocks, labelled with its
# unmovable, reclaimable and mixed pageblocks) and for the superpageblocks
# of policy spb (spbmap.dat: empty, clean, tainted or isolated, labelled
# with the free pageblocks).
#   gnuplot -e "datafile='memmap-gib.dat'; outfile='memory_map_gib.png'; \
#               term='png'; plot_title='...'; subtitle='...'; \
#               names='free movable reclaimable unmovable mixed none'; \
#               colours='E4E4E4 56B4E9 009E73 D55E00 CC79A7 FFFFFF'; \
#               labelcols='5 6 7'; \
#               labelname='pageblocks not free or movable'" plots/gib_map.gp
# datafile has a '#' line, then a line per GiB: its number (column 1) and
# its class (column 2, an index into names and colours from 0).  A cell's
# label is the sum of columns labelcols, left out when 0 or when cells are
# too small to read it.  The legend gives the number of cells of each
# class, and leaves out the classes no cell has.
if (!exists("subtitle")) subtitle = ""
if (!exists("labelcols")) labelcols = ""
if (!exists("labelname")) labelname = ""
stats datafile using 1 nooutput
n = int(STATS_max) + 1
cols = n <= 64 ? 8 : (n <= 256 ? 16 : (n <= 1024 ? 32 : 64))
rows = int((n + cols - 1) / cols)
# Square cells of at most 100 px, at most 820 px wide and 560 px tall; the
# image as tall as they need below the title and tics (top_px, 190 for a
# title and a subtitle) and above the bottom (bottom_px).
# 30 px a line of the title beyond the two (a title and its subtitle).
top_px = 190.0
do for [k = 1:strlen(plot_title)] { if (plot_title[k:k] eq "\n") { top_px = top_px + 30 } }
if (subtitle eq "") top_px = top_px - 30
bottom_px = 30.0
cell = 820.0 / cols < 560.0 / rows ? 820.0 / cols : 560.0 / rows
cell = cell > 100 ? 100 : cell
H = int(top_px + cell * rows + bottom_px)
H = H < 400 ? 400 : H
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"
# Cells of each class, for the legend (before the ranges limit stats).
array count[words(names)]
do for [k = 1:words(names)] {
	stats datafile using (int($2) == k - 1 ? 1 : 0) nooutput
	count[k] = int(STATS_sum)
}

set lmargin at screen 120.0 / W
set rmargin at screen (120.0 + cell * cols) / W
set tmargin at screen 1 - top_px / H
set bmargin at screen 1 - (top_px + cell * rows) / H

# The title centred on the image: the grid may be narrower than it.
set label 100 plot_title . (subtitle ne "" ? "\n" . subtitle : "") at screen 0.5, screen 1 - 12.0 / H \
	center front font sprintf(",%g", 1.1 * font_size) offset 0, -1
unset grid
set border 0
set xrange [-0.5:cols - 0.5]
set yrange [rows - 0.5:-0.5]
set x2range [-0.5:cols - 0.5]
unset xtics
set x2tics out nomirror scale 0.5 0, (cols > 16 ? 4 : 1)
set x2label "GiB within the row"
set ytics scale 0 ()
set ylabel "first GiB of the row" offset -1, 0
# Row labels: the GiB a row starts at, every few rows.
step = rows > 32 ? 8 : (rows > 16 ? 4 : (rows > 8 ? 2 : 1))
do for [r = 0:rows - 1:step] { set ytics add (sprintf("%d", r * cols) r) }

label_sum(c) = 0
if (labelcols ne "") {
	label_sum(c) = sum [k = 1:words(labelcols)] column(int(word(labelcols, k)))
}
show_labels = labelcols ne "" && cell >= 22
colour(k) = int("0x" . word(colours, int(k) + 1))
set style fill solid 1.0 border lc rgb "white"
set key outside right center vertical Left reverse samplen 1.5 noautotitle \
	title (show_labels && labelname ne "" ? "number: " . labelname : "")
set key title font sprintf(",%g", 0.75 * font_size)

plot datafile using (int($1) % cols):(int($1) / cols):(0.5):(0.5):(colour($2)) \
		with boxxyerror fc rgb variable, \
	for [k = 1:words(names)] NaN \
		with boxes fc rgb sprintf("#%s", word(colours, k)) \
		title (count[k] ? sprintf("%s (%d)", word(names, k), count[k]) : ""), \
	datafile using (int($1) % cols):(int($1) / cols):(show_labels && label_sum(0) > 0 ? \
		sprintf("%d", label_sum(0)) : "") with labels font sprintf(",%g", 0.7 * font_size)
