-- Sliding window refund: remove the entries one call added, in one atomic step. Entries that have
-- left the window since are gone already; nothing else is touched.
-- KEYS[1]  the log (see sliding-window.lua)
-- ARGV[1]  the call's stamp (us), as sliding-window.lua answered it
-- ARGV[2]  what the call spent, 1..1000 (Algorithm.SLIDING_WINDOW's largestCost, as sliding-window.lua)
-- Returns  the number of entries removed
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include usage
local key = KEYS[1]
local stamp = whole(ARGV[1], 0, MAX)
local cost = whole(ARGV[2], 1, 1000)
if not (stamp and cost and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS sliding-window-refund: bad arguments ' .. table.concat(ARGV, ' '))
end
-- The call's idempotency record (idempotency.lua), optional: its spend is given back, so a repeat is charged.
if IDEM_KEY then redis.call('DEL', IDEM_KEY) end
-- The client's usage (usage.lua), optional: what was given back was not used.
usage_give_back(cost)
local s = string.format('%d', stamp)
local members = {}
for i = 1, cost do
  members[#members + 1] = s .. '-' .. i
end
return redis.call('ZREM', key, unpack(members))
