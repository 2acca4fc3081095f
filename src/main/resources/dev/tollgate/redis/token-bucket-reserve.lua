-- Token bucket with waiting: as token-bucket.lua, but a call whose tokens are not there yet takes them
-- in advance when they will have refilled within its maxWait, in the same atomic step. The bucket's
-- state then moves to the instant those tokens will have accumulated (ts ahead of now, the fraction
-- left over as tokens, r = that instant), so every later call, waiting or not, queues behind it:
-- waiters are spaced as the limit allows and never wake together. token-bucket.lua reads the same
-- state: a state ahead of now mints nothing until then, and one up to r is owed, not rebased. The
-- bucket so owes at most what refills within the longest maxWait of its callers.
-- KEYS[1]  the bucket: hash {t = tokens, s = their instant (us), r (us)} (see token-bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills, and nothing can be waited for)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity
-- ARGV[5]  the longest this call may wait, in microseconds, 0..2^53
-- Returns  {1, whole tokens left, wait us, until-full us} when taken now (wait 0) or reserved;
--          {0, whole tokens left, retry-after us (-1: never), until-full us} when the wait would
--          exceed maxWait, which changes nothing.
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
local key = KEYS[1]
local capacity = whole(ARGV[1], 1, MAX)
local refill = whole(ARGV[2], 0, MAX)
local period = whole(ARGV[3], 1, MAX)
local cost = capacity and whole(ARGV[4], 1, capacity)
local max_wait = whole(ARGV[5], 0, MAX)
if not (capacity and refill and period and cost and max_wait) then
  return redis.error_reply('ERR tollgate token-bucket-reserve: bad arguments ' .. table.concat(ARGV, ' '))
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the policy.
local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)
if blocked then return {0, 0, blocked, blocked} end
if cost > capacity then return {0, 0, override_left, override_left} end
-- End of operator rules.

local state = redis.call('HMGET', key, 't', 's', 'r')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
local reserved = tonumber(state[3])
local fresh = not (tokens and ts and tokens >= 0 and tokens <= MAX and ts >= 0 and ts <= MAX)
if fresh then
  tokens = capacity
  ts = now
end
if not (reserved and reserved >= 0 and reserved <= MAX) then
  reserved = nil
end

-- As token-bucket.lua: state further ahead than a whole refill that no waiter reserved is rebased.
local rebased = refill > 0 and ts - now > capacity * period / refill and not (reserved and ts <= reserved)
if rebased then
  ts = now
end
if now > ts then
  if refill > 0 then
    tokens = tokens + (now - ts) * refill / period
  end
  ts = now
end
tokens = math.min(capacity, tokens)

local allowed = 0
local wait = 0
local reserving = false
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
  wait = ts - now
elseif refill > 0 then
  -- When the missing tokens will have refilled, counted from the state's instant.
  local at = ts + math.ceil((cost - tokens) * period / refill)
  if at - now <= max_wait then
    -- At least 0 by the ceiling above; the max only absorbs a rounding error of the doubles.
    tokens = math.max(0, tokens + (at - ts) * refill / period - cost)
    ts = at
    allowed = 1
    wait = at - now
    reserving = true
  end
end

local ahead = ts - now
local function until_holding(n)
  if tokens >= n then return ahead end
  if refill == 0 then return -1 end
  return math.min(MAX, ahead + math.ceil((n - tokens) * period / refill))
end

local full_in = until_holding(capacity)
if allowed == 0 then wait = operator_retry(until_holding(cost), override_left) end

if fresh and allowed == 1 then
  redis.call('DEL', key)
end
if reserving then
  redis.call('HSET', key, 't', string.format('%.17g', tokens), 's', string.format('%d', ts),
    'r', string.format('%d', ts))
elseif allowed == 1 or rebased then
  redis.call('HSET', key, 't', string.format('%.17g', tokens), 's', string.format('%d', ts))
end
local life = operator_life(full_in, override_left, ARGV)
if life < 0 then
  redis.call('PERSIST', key)
else
  redis.call('PEXPIRE', key, string.format('%d', math.ceil(life / 1000) + 1000))
end
return {allowed, math.floor(tokens), wait, full_in}
