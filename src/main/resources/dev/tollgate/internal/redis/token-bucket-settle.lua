-- Token bucket settle: a call spent an estimate up front; it ends having cost the actual amount. The
-- difference is given back (never above capacity) or charged on top, in one atomic step, clocked by
-- Redis TIME: charged past what the bucket holds, the bucket goes into debt (whole tokens below 0,
-- bucket.lua), which refills before anything is left for a later call, so the client waits afterwards.
-- KEYS[1]  the bucket (see token-bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional: an override's policy is the one in force
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  the actual cost minus the estimate, -2^53..2^53 (not 0)
-- Returns  whole tokens in the bucket after the settlement (below 0: a debt)
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include bucket
-- #include usage
local key = KEYS[1]
local capacity = whole(ARGV[1], 1, MAX)
local refill = whole(ARGV[2], 0, MAX)
local period = whole(ARGV[3], 1, MAX)
local delta = whole(ARGV[4], -MAX, MAX)
if not (capacity and refill and period and delta and delta ~= 0 and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket-settle: bad arguments ' .. table.concat(ARGV, ' '))
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- The client's usage (usage.lua), optional: what the call cost in the end.
usage_add(now, delta)
local _, override_left
_, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)
local w, s = bucket_read(key)
-- A bucket that is gone was full again.
if not w then
  w = capacity
  s = now
end
w, s = bucket_refill(w, s, now, capacity, refill, period)
-- The debt stays within what the value can say exactly.
w = math.max(-MAX, math.min(capacity, w - delta))
local full_in = 0
if w < capacity then
  if refill == 0 then
    full_in = -1
  else
    full_in = math.min(MAX, s + bucket_ceil((capacity - w) * period, refill) - now)
  end
end
bucket_write(key, w, s, operator_life(full_in, override_left, ARGV))
return w
