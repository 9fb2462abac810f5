# The phases of a run shaded on a time axis, loaded by the time-series
# plots before their panels: if phasefile is set (a run's phases.csv:
# phase,start_ms,end_ms, from m:phase), each phase is shaded in every panel,
# edged so that a phase too short for the time axis still shows, and named
# at the top.
if (exists("phasefile")) {
	stats phasefile using 2 nooutput
	do for [i = 0:STATS_records - 1] {
		stats phasefile every ::i::i \
			using (pname = strcol(1), pstart = $2, pend = $3, 0) nooutput
		set object (i + 1) rectangle from first pstart, graph 0 to first pend, graph 1 \
			behind fillcolor rgb "#E69F00" fillstyle transparent solid 0.25 \
			border lc rgb "#E69F00" lw 1.5
		set label (i + 1) pname at first pstart, graph 0.97 right offset -0.5, 0 \
			textcolor rgb "#B07800"
	}
}
