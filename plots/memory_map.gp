# The memory map: one cell per 2 MiB pageblock coloured by what is allocated
# in it, one row per GiB of physical memory (pfn 0 at the top), from a run's
# memmap.dat (a matrix of class codes, see models/gbyield.h).
#   gnuplot -e "datafile='memmap.dat'; outfile='memory_map.png'; term='png'; \
#               plot_title='...'; subtitle='...'; \
#               ytics_zones='\"node 0\\nDMA+DMA32\" 0, \"node 0\\nNormal\" 4'; \
#               class_counts='3000 70 1 1 0'" plots/memory_map.gp
# term is png (default), pdf or svg.  Classes: 0 free (pages on per-CPU
# lists count as free), 1 movable, 2 reclaimable, 3 unmovable, 4 mixed
# (more than one of the three), 5 no memory.  Cells are drawn 2 pixels
# wide and a whole number of pixels tall, so none blurs: the image is 1344
# pixels wide; up to 480 GiB each
# row gets 480/rows pixels; beyond, one pixel per row and the image grows
# taller (1 TiB: 1344x1269 with a two-line title and a subtitle).
if (!exists("subtitle")) subtitle = ""
if (!exists("ytics_zones")) ytics_zones = ""
if (!exists("class_counts")) class_counts = ""

stats datafile matrix using 3 nooutput
rows = int(STATS_records / 512)
row_px = rows <= 480 ? int(480 / rows) : 1
area_h = rows * row_px
# Title above (25 pixels a line: the title's lines and the subtitle's),
# axis and key below, in pixels.
title_lines = 1 + (subtitle ne "" ? 1 : 0)
do for [k = 1:strlen(plot_title)] { if (plot_title[k:k] eq "\n") { title_lines = title_lines + 1 } }
top_px = 40 + 25 * title_lines
bottom_px = 130
# Room on the left for zone labels such as "DMA+DMA32+Normal", on the
# right for four-digit GiB numbers.
left_px = 240
W = 1344
H = area_h + top_px + bottom_px
# The layout above is in pixels for this size.
font_size = 15
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
load d[1:i] . "style.gp"

set lmargin at screen 1.0 * left_px / W
set rmargin at screen 1.0 * (left_px + 1024) / W
set tmargin at screen 1.0 - 1.0 * top_px / H
set bmargin at screen 1.0 * bottom_px / H

set title plot_title . (subtitle ne "" ? "\n" . subtitle : "") font ",17"
set border 15 lw 1
unset grid
set xrange [-0.5:511.5]
set yrange [rows - 0.5:-0.5]
set xtics out nomirror ("0" -0.5, "256 MiB" 127.5, "512 MiB" 255.5, "768 MiB" 383.5, \
	"1 GiB" 511.5)
set xlabel "offset within the GiB (a cell is a 2 MiB pageblock)" offset 0,0.5
# Zone names on the left, GiB numbers on the right.
set ytics out nomirror scale 0.5 font ",13"
if (ytics_zones ne "") { eval "set ytics (" . ytics_zones . ")" }
set y2range [rows - 0.5:-0.5]
set y2tics out nomirror font ",13"
set label "GiB" at screen 1.0 * (left_px + 1030) / W, screen 1.0 - (top_px - 14.0) / H \
	left font ",13"
unset colorbox

# Okabe-Ito colours; free is a light grey so that no memory (white) stands
# apart.  A palette of the six, one per class code, draws the cells with
# no function per cell: per-cell functions took 7 s for a 1 TiB map.
array colour[6] = [0xE4E4E4, 0x56B4E9, 0x009E73, 0xD55E00, 0xCC79A7, 0xFFFFFF]
array name[5] = ["free", "movable", "reclaimable", "unmovable", "mixed"]
label(i) = name[i] . (words(class_counts) >= i ? " (" . word(class_counts, i) . ")" : "")
set palette maxcolors 6
set palette defined (0 "#E4E4E4", 1 "#56B4E9", 2 "#009E73", 3 "#D55E00", 4 "#CC79A7", 5 "#FFFFFF")
set cbrange [-0.5:5.5]

set style fill solid 1.0 noborder
set key at screen 1.0 * (left_px + 512) / W, screen 6.0 / H center bottom horizontal reverse Left \
	samplen 1.5 width 1 maxrows 1 noautotitle

plot datafile matrix using 1:2:3 with image, \
	for [i = 1:5] NaN with boxes lc rgb sprintf("#%06X", colour[i]) title label(i)
