-- Token bucket: read, refill, decide and write in one atomic step, clocked by Redis TIME.
-- Everything is checked and computed before the one write, so the script never fails half way.
-- KEYS[1]  the bucket: hash {t = tokens (a double, '%.17g'), s = the instant they were counted at
--          (us), r = the last instant a waiting call reserved (us), when token-bucket-reserve.lua has
--          written one}. One-letter fields: a field name is stored in every key, and t, s in a listpack
--          of at most 48 bytes keep a key at 120-136 B of MEMORY USAGE (see README, "Memory").
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity
-- Returns  {allowed 1|0, whole tokens left, retry-after us, until-full us}; -1 means never.
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
if not (capacity and refill and period and cost) then
  return redis.error_reply('ERR tollgate token-bucket: bad arguments ' .. table.concat(ARGV, ' '))
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
-- State Tollgate cannot have written (missing, not a number, NaN, out of range) starts a full bucket,
-- written afresh: fields another writer (or an older Tollgate: tokens, ts) left are dropped with it.
local fresh = not (tokens and ts and tokens >= 0 and tokens <= MAX and ts >= 0 and ts <= MAX)
if fresh then
  tokens = capacity
  ts = now
end

-- A clock that went backwards mints nothing: no time has elapsed, and the stored instant stays, so
-- the same interval is never credited twice. But state dated further ahead than a whole refill (a
-- clock that stepped back that far, another clock) would lock the bucket: it refills from now, and
-- is written so even when this call is denied. State that waiting calls moved ahead (up to their
-- maxWait, see token-bucket-reserve.lua) is owed to them, and stays.
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
-- A lowered capacity takes effect at once.
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
  return math.min(MAX, ahead + math.ceil((n - tokens) * period / refill))
end

local full_in = until_holding(capacity)
local retry_in = 0
if allowed == 0 then retry_in = until_holding(cost) end
-- Operator rules: the configured policy decides again once the override ends.
retry_in = operator_retry(retry_in, override_left)

-- A denial spends nothing, so the state is not rewritten (unless rebased); the expiry is refreshed
-- all the same, or a client hammering an empty bucket would see it expire and be handed a full one.
if fresh and allowed == 1 then
  redis.call('DEL', key)
end
if allowed == 1 or rebased then
  redis.call('HSET', key, 't', string.format('%.17g', tokens), 's', string.format('%d', ts))
end
local life = operator_life(full_in, override_left, ARGV)
if life < 0 then
  -- Never refills: the spent quota must outlive any expiry (tollgate.limits.<name>.persist=true).
  redis.call('PERSIST', key)
else
  -- Expires once it would be full again anyway (plus one second), when forgetting it changes nothing.
  -- At most 2^53 us in ms: always an integer PEXPIRE accepts.
  redis.call('PEXPIRE', key, string.format('%d', math.ceil(life / 1000) + 1000))
end
return {allowed, math.floor(tokens), retry_in, full_in}
