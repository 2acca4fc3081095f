-- Token bucket: read, refill, decide and write in one atomic step, clocked by Redis TIME.
-- Everything is checked and computed before the one write, so the script never fails half way.
-- KEYS[1]  the bucket: one decimal integer '<whole tokens><instant, 16 digits>' (bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity
-- KEYS[3]  the call's idempotency record (idempotency.lua), optional; ARGV[5] its window in ms
-- KEYS[last] the client's usage ledger (usage.lua), optional; ARGV's last two its days and client
-- Returns  {allowed 1|0, whole tokens left, retry-after us, until-full us}; -1 means never.
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include bucket
-- #include idempotency
-- #include usage
local key = KEYS[1]
local capacity = whole(ARGV[1], 1, MAX)
local refill = whole(ARGV[2], 0, MAX)
local period = whole(ARGV[3], 1, MAX)
local cost = capacity and whole(ARGV[4], 1, capacity)
local idem = idem_window(IDEM_KEY, ARGV[5])
if not (capacity and refill and period and cost and idem ~= false and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket: bad arguments ' .. table.concat(ARGV, ' '))
end

-- A repeat of an admitted call (idempotency.lua) is answered as it was, and spends nothing.
local replayed = idem_replay(IDEM_KEY)
if replayed then return replayed end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the policy.
local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)
if blocked then return {0, 0, blocked, blocked} end
if cost > capacity then return {0, 0, override_left, override_left} end
-- End of operator rules.

local w, s = bucket_read(key)
-- State Tollgate cannot have written (missing, not a number, out of range) starts a full bucket.
if not w then
  w = capacity
  s = now
end

-- A clock that went backwards mints nothing: no time has elapsed, and the stored instant stays, so
-- the same interval is never credited twice. But state dated further ahead than a whole refill (a
-- clock that stepped back that far, another clock) would lock the bucket: it refills from now, and
-- is written so even when this call is denied. (Waiting calls never date it ahead: what they took
-- ahead is a debt, whole tokens below 0, see token-bucket-reserve.lua.)
local rebased = refill > 0 and s - now > capacity * period / refill
if rebased then
  s = now
end
w, s = bucket_refill(w, s, now, capacity, refill, period)

local allowed = 0
if w >= cost then
  w = w - cost
  allowed = 1
end

-- Counted from the state's instant, which is later than now when the clock went backwards.
local function until_holding(n)
  if w >= n then return 0 end
  if refill == 0 then return -1 end
  return math.min(MAX, s + bucket_ceil((n - w) * period, refill) - now)
end

local full_in = until_holding(capacity)
local retry_in = 0
if allowed == 0 then retry_in = until_holding(cost) end
-- Operator rules: the configured policy decides again once the override ends.
retry_in = operator_retry(retry_in, override_left)

-- A denial spends nothing, so the state is not rewritten (unless rebased); the expiry is refreshed all the same, or a client
-- hammering an empty bucket would see it expire and be handed a full one.
-- Never refills: the spent quota must outlive any expiry (tollgate.limits.<name>.persist=true).
-- Otherwise it expires once it would be full again anyway (plus one second), when forgetting it
-- changes nothing.
local life = operator_life(full_in, override_left, ARGV)
if allowed == 1 then usage_add(now, cost) end
if allowed == 1 or rebased then
  bucket_write(key, w, s, life)
else
  bucket_expire(key, life)
end
return idem_keep(IDEM_KEY, idem, {allowed, math.max(0, w), retry_in, full_in})
