-- Fixed window refund: give back what one call spent in its window, in one atomic step. A window
-- that has ended since (or was replaced) gets nothing: the call was counted in a window that is over.
-- KEYS[1]  the window (see fixed-window.lua)
-- ARGV[1]  when the call's window ends (us), as fixed-window.lua answered it
-- ARGV[2]  what the call spent, 1..2^53
-- Returns  what is left spent in the window, or -1 when it is not the call's window any more
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include usage
local key = KEYS[1]
local ends = whole(ARGV[1], 1, MAX)
local cost = whole(ARGV[2], 1, MAX)
if not (ends and cost and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS fixed-window-refund: bad arguments ' .. table.concat(ARGV, ' '))
end
-- The call's idempotency record (idempotency.lua), optional: its spend is given back, so a repeat is charged.
if IDEM_KEY then redis.call('DEL', IDEM_KEY) end
-- The client's usage (usage.lua), optional: what was given back was not used.
usage_give_back(cost)
local state = redis.call('HMGET', key, 'e', 'n')
local e = tonumber(state[1])
local n = tonumber(state[2])
if not (e and n and e == ends and n >= 0 and n <= MAX) then
  return -1
end
n = math.max(0, n - cost)
redis.call('HSET', key, 'n', string.format('%d', n))
return n
