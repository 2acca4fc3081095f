-- Token bucket: read, refill, decide and write in one atomic step, clocked by Redis TIME.
-- KEYS[1]  the bucket
-- ARGV[1]  capacity
-- ARGV[2]  tokens added per period (0: the bucket never refills)
-- ARGV[3]  the period, in microseconds
-- ARGV[4]  cost of this call
-- Returns  {allowed 1|0, whole tokens left, retry-after us, until-full us}; -1 means never.
local key = KEYS[1]
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

local state = redis.call('HMGET', key, 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
end

-- A clock that went backwards mints nothing: no time has elapsed, and the stored instant stays, so
-- the same interval is never credited twice.
if now > ts then
  if refill > 0 then
    tokens = tokens + (now - ts) * refill / period
  end
  ts = now
end
tokens = math.min(capacity, tokens)

local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end

-- The state is as of ts, which is later than now when the clock went backwards.
local ahead = ts - now
local function until_holding(n)
  if tokens >= n then return 0 end
  if refill == 0 then return -1 end
  return ahead + math.ceil((n - tokens) * period / refill)
end

local full_in = until_holding(capacity)
local retry_in = 0
if allowed == 0 then retry_in = until_holding(cost) end

-- A denial spends nothing, so the state is not rewritten; the expiry is refreshed all the same, or a
-- client hammering an empty bucket would see it expire and be handed a full one.
if allowed == 1 then
  redis.call('HSET', key, 'tokens', string.format('%.17g', tokens), 'ts', string.format('%d', ts))
end
if full_in < 0 then
  -- Never refills: the spent quota must outlive any expiry.
  redis.call('PERSIST', key)
else
  -- Expires once it would be full again anyway (plus one second), when forgetting it changes nothing.
  redis.call('PEXPIRE', key, math.ceil(full_in / 1000) + 1000)
end
return {allowed, math.floor(tokens), retry_in, full_in}
