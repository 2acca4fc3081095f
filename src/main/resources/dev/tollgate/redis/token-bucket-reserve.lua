-- Token bucket with waiting: as token-bucket.lua, but a call whose tokens are not there yet takes them
-- in advance when they will have refilled within its maxWait, in the same atomic step. The bucket's
-- state then moves to the instant those tokens will have accumulated (ts ahead of now, the fraction
-- left over as tokens), so every later call, waiting or not, queues behind it: waiters are spaced as
-- the limit allows and never wake together. token-bucket.lua reads the same state: a state ahead of
-- now mints nothing until then. So the bucket owes at most what refills within the longest maxWait.
-- KEYS[1]  the bucket: hash {tokens, ts (us)}
-- ARGV[1]  capacity
-- ARGV[2]  tokens added per period (0: the bucket never refills, and nothing can be waited for)
-- ARGV[3]  the period, in microseconds
-- ARGV[4]  cost of this call
-- ARGV[5]  the longest this call may wait, in microseconds
-- Returns  {1, whole tokens left, wait us, until-full us} when taken now (wait 0) or reserved;
--          {0, whole tokens left, retry-after us, until-full us} when the wait would exceed maxWait.
local key = KEYS[1]
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local max_wait = tonumber(ARGV[5])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

local state = redis.call('HMGET', key, 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
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
  end
end

local ahead = ts - now
local function until_holding(n)
  if tokens >= n then return ahead end
  if refill == 0 then return -1 end
  return ahead + math.ceil((n - tokens) * period / refill)
end

local full_in = until_holding(capacity)
if allowed == 0 then wait = until_holding(cost) end

if allowed == 1 then
  redis.call('HSET', key, 'tokens', string.format('%.17g', tokens), 'ts', string.format('%d', ts))
end
if full_in < 0 then
  redis.call('PERSIST', key)
else
  redis.call('PEXPIRE', key, math.ceil(full_in / 1000) + 1000)
end
return {allowed, math.floor(tokens), wait, full_in}
