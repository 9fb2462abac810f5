# The phases of a run shaded on a time axis, loaded by the time-series
# plots before their panels: if phasefile is set (a run's phases.csv:
# phase,start_ms,end_ms, from m:phase), each phase is shaded in every panel,
# edged so that a phase too short for the time axis still shows, in a
# colour of its own, and named at the top inside it.
if (exists("phasefile")) {
	# Okabe-Ito colours, one per phase (cycling): neighbours never share one.
	phase_fill = "#E69F00 #56B4E9 #009E73 #CC79A7 #0072B2 #D55E00"
	phase_text = "#9A6A00 #2B7DAE #006B4F #98457A #004C7A #9A4300"
	stats phasefile using 2 nooutput
	do for [i = 0:STATS_records - 1] {
		stats phasefile every ::i::i \
			using (pname = strcol(1), pstart = $2, pend = $3, 0) nooutput
		set object (i + 1) rectangle from first pstart, graph 0 to first pend, graph 1 \
			behind fillcolor rgb word(phase_fill, i % 6 + 1) \
			fillstyle transparent solid 0.2 border lc rgb word(phase_fill, i % 6 + 1) lw 1.5
		# Inside the phase, from its start: clear of the y axis and its label.
		set label (i + 1) pname at first pstart, graph 0.93 left offset 0.6, 0 \
			textcolor rgb word(phase_text, i % 6 + 1) front
	}
}
