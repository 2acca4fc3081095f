-- An operator's credit: give a client's bucket or window up to N tokens back, in one atomic step,
-- clocked by Redis TIME. Never beyond a full bucket (the capacity in force: an override's, else the one
-- given), never below an empty window. Nothing to credit where there is no state: it is full.
-- Token bucket: refilled to now as a decision would, then N tokens more, at most the capacity.
-- Fixed window: N fewer counted in the current window, at most as many as it counted.
-- Sliding window: the N newest entries still in the window removed (the last N calls undone).
-- The key's expiry stays: a fuller bucket is full sooner, never later.
-- KEYS[1]  the bucket or window (token-bucket.lua, fixed-window.lua, sliding-window.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  tk, fw or sw (Algorithm.keyCode)
-- ARGV[2]  capacity (the limit of a window), 1..2^53
-- ARGV[3]  tokens added per period (token bucket), 0..2^53
-- ARGV[4]  the period or window, in microseconds, 1..2^53
-- ARGV[5]  tokens to credit, 1..2^53
-- Returns  whole tokens credited: how much the remaining count (whole tokens) grew
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include bucket
local key = KEYS[1]
local kind = ARGV[1]
local capacity = whole(ARGV[2], 1, MAX)
local refill = whole(ARGV[3], 0, MAX)
local period = whole(ARGV[4], 1, MAX)
local credit = whole(ARGV[5], 1, MAX)
if not (capacity and refill and period and credit and (kind == 'tk' or kind == 'fw' or kind == 'sw')) then
  return redis.error_reply('TOLLGATE_ARGS credit: bad arguments ' .. table.concat(ARGV, ' '))
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local _
_, _, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)

if kind == 'tk' then
  local w, s = bucket_read(key)
  if not w then
    return 0
  end
  w, s = bucket_refill(w, s, now, capacity, refill, period)
  local after = math.min(capacity, w + credit)
  if after <= w then return 0 end
  -- KEEPTTL keeps the expiry.
  redis.call('SET', key, bucket_value(after, s), 'KEEPTTL')
  -- What a peek's remaining count gained (a debt that waiting calls ran up is paid first, unseen).
  return math.max(0, after) - math.max(0, w)
end

if kind == 'fw' then
  local state = redis.call('HMGET', key, 'e', 'n')
  local e = tonumber(state[1])
  local n = tonumber(state[2])
  if not (e and n and n >= 0 and n <= MAX and e > now and e - now <= period) then
    return 0
  end
  local given = math.min(credit, n)
  if given > 0 then
    redis.call('HSET', key, 'n', string.format('%d', n - given))
  end
  return given
end

local count = redis.call('ZCOUNT', key, '(' .. string.format('%d', now - period), '+inf')
local given = math.min(credit, count)
if given > 0 then
  redis.call('ZREMRANGEBYRANK', key, -given, -1)
end
return given
