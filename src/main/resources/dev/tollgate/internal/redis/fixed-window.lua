-- Fixed window: count, decide and write in one atomic step, clocked by Redis TIME.
-- The article's key-per-window (rate:<ip>:<minute>, INCR then EXPIRE) as one hash holding when the
-- current window ends and its count, so the old window's counter is dropped at once. Everything is
-- checked and computed before the one write, so the script never fails half way.
-- KEYS[1]  the window: hash {e = when it ends (us), n = spent in it}
-- ARGV[1]  the limit: calls (times their cost) per window, 1..2^53
-- ARGV[2]  the window, in microseconds, 1..2^53
-- ARGV[3]  cost of this call, 1..limit
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- KEYS[3]  the call's idempotency record (idempotency.lua), optional; ARGV[4] its window in ms
-- KEYS[last] the client's usage ledger (usage.lua), optional; ARGV's last two its days and client
-- Returns  {allowed 1|0, left in this window, retry-after us, until the window ends us, when the window
--          ends (us): what fixed-window-refund.lua takes to give an admitted call back}
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include idempotency
-- #include usage
local key = KEYS[1]
local limit = whole(ARGV[1], 1, MAX)
local window = whole(ARGV[2], 1, MAX)
local cost = limit and whole(ARGV[3], 1, limit)
local idem = idem_window(IDEM_KEY, ARGV[4])
if not (limit and window and cost and idem ~= false and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS fixed-window: bad arguments ' .. table.concat(ARGV, ' '))
end

-- A repeat of an admitted call (idempotency.lua) is answered as it was, and spends nothing.
local replayed = idem_replay(IDEM_KEY)
if replayed then return replayed end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the limit
-- and the window.
local blocked, override_left, _
blocked, override_left, limit, _, window = operator_rules(KEYS[2], now, limit, limit, window)
if blocked then return {0, 0, blocked, blocked, 0} end
if cost > limit then return {0, 0, override_left, override_left, 0} end
-- End of operator rules.

local state = redis.call('HMGET', key, 'e', 'n')
local e = tonumber(state[1])
local n = tonumber(state[2])
-- The stored window stays current until it ends, also when the clock stepped back a little or the
-- window was longer or shorter under other settings; one ending more than a whole window from now
-- (a shortened window, a clock that stepped back further, state Tollgate did not write) is dropped,
-- so a changed setting takes effect within one window and never locks anyone out.
if not (e and n and n >= 0 and n <= MAX and e > now and e - now <= window) then
  e = (math.floor(now / window) + 1) * window
  n = 0
end
local ends_in = e - now

if n + cost > limit then
  -- A lowered limit can leave more spent than it allows: nothing is left, never less.
  return {0, math.max(0, limit - n), operator_retry(ends_in, override_left), ends_in, e}
end
n = n + cost
redis.call('HSET', key, 'e', string.format('%d', e), 'n', string.format('%d', n))
-- The count means nothing once its window has ended.
redis.call('PEXPIRE', key, string.format('%d', math.ceil(ends_in / 1000)))
usage_add(now, cost)
return idem_keep(IDEM_KEY, idem, {1, limit - n, 0, ends_in, e})
