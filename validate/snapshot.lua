-- ./run validate's snapshot case: the capture of this machine imported,
-- and as many 1 GiB pages taken from it as m:alloc_gigantic gives, node
-- by node (the real machine is asked the same through nr_hugepages).
local p = mmsim.params{ capture = "" }
local m = mmsim.machine{ snapshot = p.capture }
local n = 0
for nid = 0, m:info().nodes - 1 do
  while m:alloc_gigantic{ node = nid } do n = n + 1 end
end
print("gigantic " .. n)
