-- Token bucket with waiting: as token-bucket.lua, but a call whose tokens are not there yet takes them
-- in advance when they will have refilled within its maxWait, in the same atomic step. The bucket then
-- owes them: its tokens go below 0 (a debt, bucket.lua), so every later call, waiting or not, queues
-- behind it: waiters are spaced as the limit allows and never wake together. token-bucket.lua reads the
-- same state: a debt is refilled before anything is left for a call. The bucket so owes at most what
-- refills within the longest maxWait of its callers.
-- KEYS[1]  the bucket: '<whole tokens><instant, 16 digits>' (bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills, and nothing can be waited for)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity
-- ARGV[5]  the longest this call may wait, in microseconds, 0..2^53
-- KEYS[3]  the client's usage ledger (usage.lua), optional; ARGV's last two its days and client
-- Returns  {1, whole tokens left, wait us, until-full us} when taken now (wait 0) or reserved;
--          {0, whole tokens left, retry-after us (-1: never), until-full us} when the wait would
--          exceed maxWait, which changes nothing.
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
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
local cost = capacity and whole(ARGV[4], 1, capacity)
local max_wait = whole(ARGV[5], 0, MAX)
if not (capacity and refill and period and cost and max_wait and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket-reserve: bad arguments ' .. table.concat(ARGV, ' '))
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the policy.
local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)
if blocked then return {0, 0, blocked, blocked} end
if cost > capacity then return {0, 0, override_left, override_left} end
-- End of operator rules.

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
local ahead = math.max(0, s - now)

local allowed = 0
local wait = 0
if w >= cost then
  w = w - cost
  allowed = 1
  wait = ahead
elseif refill > 0 then
  -- When the missing tokens will have refilled, counted from the state's instant.
  local at = s + bucket_ceil((cost - w) * period, refill)
  -- The debt stays within what the value can say exactly (2^53 tokens).
  if at - now <= max_wait and w - cost >= -MAX then
    w = w - cost
    allowed = 1
    wait = at - now
  end
end

local function until_holding(n)
  if w >= n then return ahead end
  if refill == 0 then return -1 end
  return math.min(MAX, s + bucket_ceil((n - w) * period, refill) - now)
end

local full_in = until_holding(capacity)
if allowed == 0 then wait = operator_retry(until_holding(cost), override_left) end

local life = operator_life(full_in, override_left, ARGV)
if allowed == 1 then usage_add(now, cost) end
if allowed == 1 or rebased then
  bucket_write(key, w, s, life)
else
  bucket_expire(key, life)
end
return {allowed, math.max(0, w), wait, full_in}
