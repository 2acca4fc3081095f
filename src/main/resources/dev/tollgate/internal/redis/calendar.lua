-- Calendar quota: count, decide and write in one atomic step; Redis TIME chooses the period.
-- The engine computes a few period starts around its own now in the quota's zone (java.time: DST and
-- month lengths are its business); the script picks the period Redis's now falls in, so the servers'
-- clocks never decide which period a call is spent in. The state is a fixed window's: one hash holding
-- when the current period ends and what was spent in it.
-- KEYS[1]  the period: hash {e = when it ends (us), n = spent in it}
-- ARGV[1]  the quota: calls (times their cost) per period, 1..2^53
-- ARGV[2]  cost of this call, 1..quota
-- ARGV[3]  microseconds added to Redis TIME: 0, but in tests (RedisRateLimitStore.shiftedForTests)
-- ARGV[4..] two or more period starts (us), ascending: ARGV[i] to ARGV[i+1] is one period
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- KEYS[3]  the call's idempotency record (idempotency.lua), optional; then its window in ms follows the
--          starts
-- KEYS[last] the client's usage ledger (usage.lua), optional (3rd or later); ARGV's last two its days and client
-- Returns  {allowed 1|0, left in this period, retry-after us, until the period ends us, when the period
--          ends (us): what fixed-window-refund.lua takes to give an admitted call back};
--          {-1, now us} when Redis's now is in none of the periods given (the engine's clock is far
--          off): nothing was spent, the engine asks again with starts around that now
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
local cost = limit and whole(ARGV[2], 1, limit)
local shift = whole(ARGV[3], -MAX, MAX)
local last = #ARGV - (USAGE_KEY and 2 or 0)
local idem = idem_window(IDEM_KEY, ARGV[last])
if IDEM_KEY then last = last - 1 end
local starts = {}
for i = 4, last do
  starts[#starts + 1] = whole(ARGV[i], 0, MAX)
  if not starts[#starts] or (#starts > 1 and starts[#starts] <= starts[#starts - 1]) then starts = {} break end
end
if not (limit and cost and shift and #starts >= 2 and idem ~= false and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS calendar: bad arguments ' .. table.concat(ARGV, ' '))
end

-- A repeat of an admitted call (idempotency.lua) is answered as it was, and spends nothing.
local replayed = idem_replay(IDEM_KEY)
if replayed then return replayed end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) + shift
local start, e
for i = 1, #starts - 1 do
  if starts[i] <= now and now < starts[i + 1] then start, e = starts[i], starts[i + 1] break end
end
if not start then return {-1, now} end
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the quota
-- (the period stays the calendar's).
local blocked, override_left, _
blocked, override_left, limit = operator_rules(KEYS[2], now, limit, limit, e - start)
if blocked then return {0, 0, blocked, blocked, 0} end
if cost > limit then return {0, 0, override_left, override_left, 0} end
-- End of operator rules.

local state = redis.call('HMGET', key, 'e', 'n')
local n = tonumber(state[2])
-- What was spent counts only in its own period: any other end (a period over, another anchor or
-- zone since) starts this period from nothing.
if not (tonumber(state[1]) == e and n and n >= 0 and n <= MAX) then n = 0 end
local ends_in = e - now

if n + cost > limit then
  return {0, math.max(0, limit - n), operator_retry(ends_in, override_left), ends_in, e}
end
n = n + cost
redis.call('HSET', key, 'e', string.format('%d', e), 'n', string.format('%d', n))
redis.call('PEXPIRE', key, string.format('%d', math.ceil(ends_in / 1000)))
usage_add(now, cost)
return idem_keep(IDEM_KEY, idem, {1, limit - n, 0, ends_in, e})
