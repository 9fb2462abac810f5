# NUMA migration over simulated time, from a run's timeseries.csv, in three
# panels on one time axis: pages migrated per ms (the growth of
# numa_pages_migrated over each sample), each node's share of zone->lock
# wait over each sample (zone_lock_nodeN_wait_share, of the threads' time:
# the nodes' add up to zone_lock_wait_share), and each node's memory in
# use (nodeN_used_pages).  Nodes 0 and 1.
#   gnuplot -e "datafile='timeseries.csv'; outfile='numa_migration.png'; \
#               term='png'; plot_title='...'" plots/numa_migration.gp
# term is png (default), pdf or svg; phasefile, if set, is a run's
# phases.csv, its phases shaded in every panel (plots/phases.gp).
d = ARG0; i = strlen(d); while (i > 0 && d[i:i] ne "/") { i = i - 1 }
H = 900
font_size = 17
load d[1:i] . "style.gp"
set datafile separator ","
set datafile columnheaders
load d[1:i] . "phases.gp"

set xrange [0:*]
set autoscale xfixmax
set yrange [0:*]
set lmargin 15
set rmargin 4
set key top right horizontal samplen 2

# A round tick step giving 3 to 7 ticks up to top (a panel's data top with
# its headroom, set offsets).
nice_step(top) = (ns = 10 ** floor(log10(top / 3.0)), \
	top / ns > 15 ? 5 * ns : (top / ns > 6 ? 2 * ns : ns))

set multiplot layout 3,1 title plot_title font ",20"

# Each sample closes its interval, hence fsteps; a delta needs the previous
# row, kept in a variable the using expression updates.
set tmargin 1.5
set bmargin 1
set format x ""
set ylabel "pages migrated\nper ms" offset -1, 0
t0 = 0; m0 = 0
plot datafile using "time_ms":(dt = column("time_ms") - t0, dm = column("numa_pages_migrated") - m0, \
	t0 = column("time_ms"), m0 = column("numa_pages_migrated"), dt > 0 ? dm / dt : 0) \
	with fsteps lw 2.5 lc rgb line_colour(1) notitle

unset label
set ylabel "zone->lock wait\n(% of thread time)" offset -1, 0
share(n) = 100 * column(sprintf("zone_lock_node%d_wait_share", n))
# Headroom above the lines for the key, and a few round ticks whatever the
# scale (shares can be a few thousandths of a percent).
stats datafile using (share(0)) nooutput
top = STATS_max
stats datafile using (share(1)) nooutput
top = top > STATS_max ? top : STATS_max
# No wait at all: a fixed axis (autoscale would warn of an empty range).
if (top > 0) { set ytics nice_step(1.35 * top) } else { set yrange [0:0.01]; set ytics 0.005 }
set format y "%g"
set offsets 0, 0, graph 0.35, 0
plot datafile using "time_ms":(share(0)) with fsteps lw 2.5 \
	lc rgb line_colour(1) title "node 0 (source)", \
	datafile using "time_ms":(share(1)) with fsteps lw 2.5 \
	lc rgb line_colour(2) title "node 1 (destination)"

set bmargin 3.5
set format x "%g"
set xlabel "simulated time (ms)"
set ylabel "memory in use\n(MiB)" offset -1, 0
set yrange [0:*]
stats datafile using (column("node0_used_pages") > column("node1_used_pages") ? \
	column("node0_used_pages") / 256.0 : column("node1_used_pages") / 256.0) nooutput
set ytics nice_step(STATS_max > 0 ? 1.35 * STATS_max : 1)
plot datafile using "time_ms":(column("node0_used_pages") / 256.0) with lines lw 2.5 \
	lc rgb line_colour(1) title "node 0", \
	datafile using "time_ms":(column("node1_used_pages") / 256.0) with lines lw 2.5 \
	lc rgb line_colour(2) title "node 1"

unset multiplot
