-- What a call would be told now, without spending or writing anything: for an operator, never for a
-- decision. Reads the state the algorithm's script writes and applies the same rules, clocked by TIME.
-- KEYS[1]  the bucket or window (token-bucket.lua, fixed-window.lua, sliding-window.lua)
-- ARGV[1]  tk, fw or sw (Algorithm.keyCode)
-- ARGV[2]  capacity (the limit of a window), 1..2^53
-- ARGV[3]  tokens added per period (token bucket; 0: never refills), 0..2^53
-- ARGV[4]  the period or window, in microseconds, 1..2^53
-- ARGV[5]  cost of one call, 1..capacity
-- KEYS[2]  the client's operator rules (operator.lua), optional: a block or an override as a call meets it
-- Returns  {would allow 1|0, whole tokens left, retry-after us, until-full us}; -1 means never.
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
local cost = capacity and whole(ARGV[5], 1, capacity)
if not (capacity and refill and period and cost and (kind == 'tk' or kind == 'fw' or kind == 'sw')) then
  return redis.error_reply('TOLLGATE_ARGS peek: bad arguments ' .. table.concat(ARGV, ' '))
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua), as the algorithm's script applies them.
local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)
if kind ~= 'tk' then refill = capacity end
if kind == 'sw' then capacity = math.min(capacity, 10000) end
if blocked then return {0, 0, blocked, blocked} end
if cost > capacity then return {0, 0, override_left, override_left} end
-- End of operator rules.

if kind == 'tk' then
  local w, s = bucket_read(key)
  if not w then
    w = capacity
    s = now
  end
  w, s = bucket_refill(w, s, now, capacity, refill, period)
  local function until_holding(n)
    if w >= n then return 0 end
    if refill == 0 then return -1 end
    return math.min(MAX, s + bucket_ceil((n - w) * period, refill) - now)
  end
  return {w >= cost and 1 or 0, math.max(0, w), operator_retry(until_holding(cost), override_left),
    until_holding(capacity)}
end

if kind == 'fw' then
  local state = redis.call('HMGET', key, 'e', 'n')
  local e = tonumber(state[1])
  local n = tonumber(state[2])
  if not (e and n and n >= 0 and n <= MAX and e > now and e - now <= period) then
    return {1, capacity, 0, 0}
  end
  local ends_in = e - now
  if n + cost > capacity then
    return {0, math.max(0, capacity - n), operator_retry(ends_in, override_left), ends_in}
  end
  return {1, capacity - n, 0, ends_in}
end

local from = string.format('%d', now - period)
local count = redis.call('ZCOUNT', key, '(' .. from, '+inf')
if count == 0 then
  return {1, capacity, 0, 0}
end
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local empty_in = tonumber(last[2]) + period - now
if count + cost > capacity then
  local k = count + cost - capacity
  local kth = redis.call('ZRANGEBYSCORE', key, '(' .. from, '+inf', 'WITHSCORES', 'LIMIT', k - 1, 1)
  return {0, math.max(0, capacity - count), operator_retry(tonumber(kth[2]) + period - now, override_left),
    empty_in}
end
return {1, capacity - count, 0, empty_in}
