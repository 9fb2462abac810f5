-- Check a results folder (arg[1]) against docs/GUIDE.md (arg[2]) and itself:
--   summary.json holds every key the README's key table documents, and
--   the table documents every key it holds (`x.*` rows cover a whole
--   object; a row "the same for" another repeats the previous row's keys;
--   `nodeN` stands for node0, node1, ... and `NAME`, `WALK` and `SITE` for
--   any phase, superpageblock walk and lock call site;
--   keys of phases, and rows saying "only when", need not be there);
--   vmstat.* are the counters of the vmstat file, with its values;
--   zone_lock.* and pcp_lock.* are lock_stat's figures for the classes;
--   timeseries.csv has a row at time 0, one at every sample_interval (1 ms)
--   and one at the end of the run if that falls between two: ceil(duration
--   / interval) + 1 rows; the last one's cumulative figures are the
--   summary's.
local dir, readme = arg[1], arg[2]

local function slurp(path)
  local f = assert(io.open(path))
  local s = f:read("a")
  f:close()
  return s
end

-- A JSON reader for json-glib's output: objects, strings, numbers, null.
local function parse_json(s)
  local pos = 1
  local function ws() pos = s:find("[^ \t\r\n]", pos) or #s + 1 end
  local value
  local function str()
    local e = s:find('"', pos + 1, true)
    local v = s:sub(pos + 1, e - 1)
    assert(not v:find("\\", 1, true), "escapes are not expected in summary.json")
    pos = e + 1
    return v
  end
  function value()
    ws()
    local c = s:sub(pos, pos)
    if c == "{" then
      local obj = {}
      pos = pos + 1
      ws()
      if s:sub(pos, pos) == "}" then pos = pos + 1 return obj end
      while true do
        ws()
        local k = str()
        ws()
        assert(s:sub(pos, pos) == ":", "':' expected at " .. pos)
        pos = pos + 1
        obj[k] = value()
        ws()
        c = s:sub(pos, pos)
        pos = pos + 1
        if c == "}" then return obj end
        assert(c == ",", "',' expected at " .. pos)
      end
    elseif c == '"' then
      return str()
    elseif s:sub(pos, pos + 3) == "null" then
      pos = pos + 4
      return false
    end
    local num = s:match("^-?[%d.eE+-]+", pos)
    assert(num, "value expected at " .. pos)
    pos = pos + #num
    return num:find("[.eE]") and tonumber(num) or math.tointeger(tonumber(num))
  end
  return value()
end

local summary = parse_json(slurp(dir .. "/summary.json"))
local keys, objects = {}, {}
local function flatten(t, prefix)
  for k, v in pairs(t) do
    local name = prefix .. k
    if type(v) == "table" then
      objects[name] = v
      flatten(v, name .. ".")
    else
      keys[name] = v
    end
  end
end
flatten(summary, "")

-- The README's key table: the first cell of each row names keys, `a.b`
-- then `.c` for a.c; `a.*` documents the whole object a.
local documented, wildcards, last_prefix = {}, {}, nil
-- Documented names with placeholders, as Lua patterns: whether a key of
-- the summary must match each.
local patterns = {}
local function placeholder(name, optional)
  local named = name:find("NAME") or name:find("WALK") or name:find("SITE")
  if not name:find("nodeN") and not named then return false end
  local pat = "^" .. name:gsub("%.%*$", ".*"):gsub("[%.%-]", "%%%0")
  pat = pat:gsub("nodeN", "node%%d+"):gsub("NAME", "[^.]+"):gsub("WALK", "[^.]+")
  pat = pat:gsub("SITE", "[^.]+"):gsub("%%%.%*$", "%%..+")
  patterns[pat .. "$"] = not (optional or named)
  return true
end
local in_table = false
for line in slurp(readme):gmatch("[^\n]*") do
  if line:find("^`summary.json` keys") then in_table = true end
  if in_table and line:find("^| `") then
    local cell, meaning = line:match("^| ([^|]*) | ([^|]*)")
    local prefix = ""
    for tok in cell:gmatch("`([^`]+)`") do
      local name = tok:sub(1, 1) == "." and prefix .. tok:sub(2) or tok
      local optional = meaning:find("^only when") ~= nil
      prefix = name:match("^(.*%.)") or ""
      if placeholder(name, optional) then
        -- matched below
      elseif name:sub(-2) == ".*" and optional then
        patterns["^" .. name:sub(1, -3):gsub("[%.%-]", "%%%0") .. "%..+$"] = false
      elseif name:sub(-2) == ".*" then
        local obj = name:sub(1, -3)
        if meaning:find("^the same for") then
          -- Collected first: adding keys to a table while pairs() walks
          -- it is undefined in Lua (the walk could miss keys).
          local same = {}
          for k in pairs(documented) do
            if k:sub(1, #last_prefix) == last_prefix then
              same[#same + 1] = obj .. "." .. k:sub(#last_prefix + 1)
            end
          end
          for _, k in ipairs(same) do documented[k] = true end
        else
          wildcards[obj] = true
        end
      elseif optional then
        patterns["^" .. name:gsub("[%.%-]", "%%%0") .. "$"] = false
      else
        documented[name] = true
      end
    end
    last_prefix = prefix
  elseif in_table and line:find("^%*%*") then
    break
  end
end
assert(next(documented), "no key table found in " .. readme)

local function covered(name)
  for obj in pairs(wildcards) do
    if name:sub(1, #obj + 1) == obj .. "." then return true end
  end
  for pat in pairs(patterns) do
    if name:find(pat) then return true end
  end
  return documented[name]
end
for pat, required in pairs(patterns) do
  local found = false
  for name in pairs(keys) do found = found or name:find(pat) ~= nil end
  assert(found or not required, "no summary.json key matches the README's " .. pat)
end
local n = 0
for name in pairs(documented) do
  assert(keys[name] ~= nil, "documented key missing from summary.json: " .. name)
  n = n + 1
end
for obj in pairs(wildcards) do
  assert(objects[obj] and next(objects[obj]), "documented object missing or empty: " .. obj)
end
for name in pairs(keys) do
  assert(covered(name), "summary.json key not in the README: " .. name)
end

-- vmstat.* against the vmstat file.
local vm = 0
for name, v in slurp(dir .. "/vmstat"):gmatch("(%S+) (%d+)\n") do
  assert(keys["vmstat." .. name] == math.tointeger(v),
    "vmstat " .. name .. ": file " .. v .. ", summary " .. tostring(keys["vmstat." .. name]))
  vm = vm + 1
end
for name in pairs(objects.vmstat) do
  assert(slurp(dir .. "/vmstat"):find("\n" .. name .. " ") or
    slurp(dir .. "/vmstat"):find("^" .. name .. " "), "vmstat." .. name .. " not in vmstat")
end

-- lock_stat's class lines against zone_lock.* and pcp_lock.*.
-- lock_stat prints microseconds with two decimals, rounded half up.
local function us(ns)
  ns = ns + 5
  return string.format("%d.%02d", ns // 1000, (ns % 1000) // 10)
end
local lock_stat = slurp(dir .. "/lock_stat")
for class, key in pairs{ ["&zone->lock"] = "zone_lock", ["&pcp->lock"] = "pcp_lock" } do
  local rest = lock_stat:match(class:gsub("%p", "%%%0") .. ": *([^\n]*)")
  assert(rest, class .. " not in lock_stat")
  local f = {}
  for x in rest:gmatch("%S+") do f[#f + 1] = x end
  local s = summary[key]
  local want = { s.con_bounces, s.contentions, nil, us(s.wait_ns_max), us(s.wait_ns_total), nil,
                 s.acq_bounces, s.acquisitions, nil, us(s.hold_ns_max), us(s.hold_ns_total) }
  for i = 1, 11 do
    if want[i] ~= nil then
      assert(tostring(want[i]) == f[i],
        string.format("%s column %d: lock_stat %s, summary.json %s", class, i, f[i], want[i]))
    end
  end
  assert(s.acquisitions > 0, key .. ": nothing to compare")
end

-- timeseries.csv
local rows, header, prev = 0, nil, -1
local last
for line in slurp(dir .. "/timeseries.csv"):gmatch("[^\n]+") do
  if not header then
    header = {}
    for c in line:gmatch("[^,]+") do header[#header + 1] = c end
    assert(header[1] == "time_ms")
  else
    local row, i = {}, 0
    for c in (line .. ","):gmatch("([^,]*),") do i = i + 1 row[header[i]] = tonumber(c) end
    assert(i == #header, "row " .. rows .. " has " .. i .. " fields")
    assert(row.time_ms > prev, "time_ms not increasing at row " .. rows)
    assert(row.time_ms == rows or row.time_ms == summary.sim_time_s * 1000,
      "row " .. rows .. " at " .. row.time_ms .. " ms")
    prev = row.time_ms
    rows = rows + 1
    last = row
  end
end
local want_rows = math.ceil(summary.sim_time_s * 1000 - 1e-9) + 1
assert(rows == want_rows, "timeseries.csv has " .. rows .. " rows, want " .. want_rows)
assert(last.time_ms == summary.sim_time_s * 1000, "last row at " .. last.time_ms .. " ms")
assert(last.zone_lock_acquisitions == summary.zone_lock.acquisitions)
assert(last.pcp_lock_acquisitions == summary.pcp_lock.acquisitions)
assert(last.free_pages == summary.memory.free_pages)
print(string.format("%d documented keys, %d vmstat counters, %d timeseries rows: ok", n, vm, rows))
