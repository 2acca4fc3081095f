-- Token bucket refund: give back what one call spent, in one atomic step, never above capacity.
-- Used when a call under several limits is denied by another limit (all or nothing), and when a call
-- whose outcome is not counted (countOn) has ended. The stored instant stays: the tokens come back as
-- of the state's own time, and the refill goes on from there. A bucket that is gone (expired: it was
-- full again) gets nothing: it is full already.
-- KEYS[1]  the bucket (see token-bucket.lua)
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens to give back, 1..capacity
-- KEYS[2]  the client's operator rules (operator.lua), optional: an override's capacity is the cap
-- Returns  whole tokens in the bucket after the refund (as of its stored instant), or -1 when it is gone
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
local cost = capacity and whole(ARGV[2], 1, capacity)
if not (capacity and cost and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket-refund: bad arguments ' .. table.concat(ARGV, ' '))
end
-- The call's idempotency record (idempotency.lua), optional: its spend is given back, so a repeat is charged.
if IDEM_KEY then redis.call('DEL', IDEM_KEY) end
-- The client's usage (usage.lua), optional: what was given back was not used.
usage_give_back(cost)
-- The whole tokens as of the state's own instant (no refill is needed for that).
local w, s = bucket_read(key)
-- Operator rules (operator.lua): the capacity of an override in force.
if KEYS[2] then
  local t = redis.call('TIME')
  local _, _, c = operator_rules(KEYS[2], tonumber(t[1]) * 1000000 + tonumber(t[2]), capacity, 0, 1)
  capacity = c
end
-- End of operator rules.
-- State Tollgate cannot have written is left to the next decision, which starts it afresh.
if not w then
  return -1
end
-- The stored instant stays, and so does the key's expiry.
w = math.min(capacity, w + cost)
redis.call('SET', key, bucket_value(w, s), 'KEEPTTL')
return math.max(0, w)
