# What every plot of mmsim shares, loaded first by each script (the line
#   d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
#   load d[1:i] . "style.gp"
# finds it next to the script): the terminal, sized for a slide, and the
# line styles.
#
# Reads term (png, the default, pdf or svg), outfile, and optionally W and
# H, the size in pixels (default 1280x720, 16:9); a PDF is W/160 inches
# wide, so that the same layout and the same text proportions hold.
# Fonts are sized for a projector: font_size (default 18) px on a 1280 px
# wide slide, and the same share of a PDF's width.
if (!exists("term")) term = "png"
if (!exists("plot_title")) plot_title = ""
if (!exists("W")) W = 1280
if (!exists("H")) H = 720
if (!exists("font_size")) font_size = 18
if (term eq "pdf") {
	set terminal pdfcairo noenhanced size (W / 160.0)in,(H / 160.0)in font sprintf("DejaVu Sans,%g", 0.72 * font_size) \
		linewidth 0.8
} else {
	if (term eq "svg") {
		set terminal svg noenhanced size W,H font sprintf("DejaVu Sans,%g", font_size) background "white"
	} else {
		set terminal pngcairo noenhanced size W,H font sprintf("DejaVu Sans,%g", font_size)
	}
}
set encoding utf8
set output outfile

# Markers: cairo's PDF points are large for the same size.
marker = term eq "pdf" ? 0.8 : 1.6

# Okabe-Ito, distinguishable with the common colour blindnesses and in
# grey; yellow and black are left out (yellow fades on a projector, black
# is the reference lines' colour).  Line i has its own colour, dash
# pattern and marker (no two of the first 30 lines alike), and lines
# drawn later are thinner with smaller markers: a line that lies on an
# earlier one leaves the earlier one's edges and marker rim showing.
array palette[6] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
line_colour(i) = palette[(i - 1) % 6 + 1]
# solid, dashed, dash-dot, dash-dot-dot, then dotted (faint as a thin line)
array dashes[5] = [1, 2, 4, 5, 3]
line_dash(i) = dashes[(i - 1) % 5 + 1]
# filled circle, square, triangle, diamond, triangle down, pentagon
array markers[6] = [7, 5, 9, 13, 11, 15]
line_marker(i) = markers[(i - 1) % 6 + 1]
line_width(i) = 4.5 - 0.75 * ((i - 1) % 3)
marker_size(i) = marker * (1.5 - 0.3 * ((i - 1) % 3))

set border 3 lw 1.5
set tics nomirror
set grid ytics lt 1 lc rgb "#e4e4e4" lw 1
set title font sprintf(",%g", 1.2 * font_size)
