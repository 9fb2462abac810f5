-- A warm-up on an idle machine (no workload thread, so no observer ever
-- runs) still ends: phase "measure" begins at the warm-up's end.
local m = mmsim.machine{ preset = "test" }
assert(m:run{ duration = "20ms", warmup = "5ms" } == 20000000)
local ok, w = pcall(m.lock_stats, m, { since = "measure" })
assert(ok, w)
assert(w.time_ns == 20000000)
-- A later run without a warm-up begins no phase of its own.
m:run{ duration = "1ms" }
print("ok: an idle warm-up ends")
