-- Token bucket lease: a server gives back what is left of its last lease of a client's bucket and takes
-- a new slice of tokens in advance, to spend them in its memory, in one atomic step clocked by Redis
-- TIME. Tokens leased are tokens the bucket no longer has: the servers together never admit more than
-- the bucket does. The slice is what the server asks for (its recent demand), at most a share of the
-- capacity in force and of what the bucket holds (both divided by ARGV[6]: a tenth of them divided by the
-- live servers), and at least the call's cost: near empty, a lease is one call's tokens, a per-call decision.
-- Operator rules apply as in token-bucket.lua: a block denies, an override's capacity and refill decide.
-- KEYS[1]  the bucket: '<whole tokens><instant, 16 digits>' (bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity: the least a lease is
-- ARGV[5]  tokens asked for, 1..2^53 (at least the cost)
-- ARGV[6]  the share divisor, 1..2^53: a lease takes at most capacity / it and tokens held / it
-- ARGV[7]  tokens given back from the server's last lease, 0..2^53 (never above the capacity in force)
-- Returns  {tokens leased (0: denied), whole tokens left, retry-after us (-1: never), until-full us}
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include bucket
local key = KEYS[1]
local capacity = whole(ARGV[1], 1, MAX)
local refill = whole(ARGV[2], 0, MAX)
local period = whole(ARGV[3], 1, MAX)
local cost = capacity and whole(ARGV[4], 1, capacity)
local want = whole(ARGV[5], 1, MAX)
local share = whole(ARGV[6], 1, MAX)
local returned = whole(ARGV[7], 0, MAX)
if not (capacity and refill and period and cost and want and share and returned) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket-lease: bad arguments ' .. table.concat(ARGV, ' '))
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)

local w, s = bucket_read(key)
if not w then
  w = capacity
  s = now
end
-- As token-bucket.lua: state further ahead than a whole refill (a clock that stepped back) is rebased.
local rebased = refill > 0 and s - now > capacity * period / refill
if rebased then
  s = now
end
w, s = bucket_refill(w, s, now, capacity, refill, period)
-- What the last lease left comes back first, never above the capacity.
w = math.min(capacity, w + returned)
local changed = rebased or returned > 0

local granted = 0
if not blocked and cost <= capacity and w >= cost then
  granted = math.min(want, math.floor(capacity / share), math.floor(w / share))
  granted = math.min(w, math.max(granted, cost))
  w = w - granted
  changed = true
end

local function until_holding(n)
  if w >= n then return 0 end
  if refill == 0 then return -1 end
  return math.min(MAX, s + bucket_ceil((n - w) * period, refill) - now)
end

local full_in = until_holding(capacity)
local retry_in = 0
if blocked then
  retry_in = blocked
elseif cost > capacity then
  retry_in = override_left
elseif granted == 0 then
  retry_in = operator_retry(until_holding(cost), override_left)
end

local life = operator_life(full_in, override_left, ARGV)
if changed then
  bucket_write(key, w, s, life)
else
  bucket_expire(key, life)
end
return {granted, math.max(0, w), retry_in, full_in}
