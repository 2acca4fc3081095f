-- Fixed window settle: a call spent an estimate in its window; it ends having cost the actual amount.
-- The difference is given back or counted on top, in one atomic step, while the call's window is still
-- the current one (a window that has ended since is over: nothing is changed). Counted past the limit,
-- the window denies until it ends.
-- KEYS[1]  the window (see fixed-window.lua)
-- ARGV[1]  when the call's window ends (us), as fixed-window.lua answered it
-- ARGV[2]  the actual cost minus the estimate, -2^53..2^53 (not 0)
-- Returns  what is spent in the window after the settlement, or -1 when it is not the call's window
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include usage
local key = KEYS[1]
local ends = whole(ARGV[1], 1, MAX)
local delta = whole(ARGV[2], -MAX, MAX)
if not (ends and delta and delta ~= 0 and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS fixed-window-settle: bad arguments ' .. table.concat(ARGV, ' '))
end
-- The client's usage (usage.lua), optional: what the call cost in the end, its window over or not.
usage_give_back(-delta)
local state = redis.call('HMGET', key, 'e', 'n')
local e = tonumber(state[1])
local n = tonumber(state[2])
if not (e and n and e == ends and n >= 0 and n <= MAX) then
  return -1
end
n = math.max(0, math.min(MAX, n + delta))
redis.call('HSET', key, 'n', string.format('%d', n))
return n
