-- The scheduler in a scenario (run by tests/scenarios/sched.sh): `procs`
-- processes exit on `on_cpus` CPUs, in turn; and m:cpus().
local p = mmsim.params{ procs = 64, on_cpus = 64, out = "slowest" }
-- 32 GiB nodes: the pagesets keep every page the 1 MiB processes free.
local m = mmsim.machine{ sockets = 2, cpus_per_socket = 32, mem_per_node = "32G" }

local cpus = m:cpus()
assert(#cpus == 64)
assert(cpus[1].cpu == 0 and cpus[1].socket == 0 and cpus[1].node == 0)
assert(cpus[33].cpu == 32 and cpus[33].socket == 1 and cpus[33].node == 1)
assert(cpus[64].cpu == 63 and cpus[64].socket == 1 and cpus[64].node == 1)

local on = {}
for i = 0, p.procs - 1 do on[#on + 1] = i % p.on_cpus end
local ex = require("mmsim.mass_exit").start(m, { cpus = on, mib = 1, live = 0 })
m:run()
assert(ex.stats.exit.pages_to_buddy == 0)
mmsim.write_result_file(p.out, tostring(ex.stats.exit.slowest_ns))
