-- For sweep_end_memory.sh: a run whose 1 GiB yield moves (x unmovable
-- pages spread over the machine) and which records what it holds at the end.
local p = mmsim.params{ x = 1 }
local m = mmsim.machine{ preset = "test", sample_interval = "1ms" }
m:spawn{ cpu = 0, fn = function()
  mmsim.sleep("1ms")
  for _ = 1, p.x * 200 do m:alloc{ type = "unmovable", order = 9 } end
  for _ = 1, p.x * 1000 do m:alloc{ type = "movable", order = 0 } end
  mmsim.sleep("2ms")
end }
m:run()
require("mmsim.kernel_report").memory(m)
