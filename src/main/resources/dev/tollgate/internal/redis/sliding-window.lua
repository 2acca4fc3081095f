-- Sliding window log: trim, count, decide and record in one atomic step, clocked by Redis TIME.
-- A call is admitted if the calls admitted in the last window, plus its cost, stay within the limit.
-- The arguments are checked before anything is touched: the limit is at most 10,000 and the cost at
-- most 1,000, so one call trims at most 10,000 entries and adds at most 1,000, a few milliseconds of
-- Redis. Those numbers are Java's (Algorithm.SLIDING_WINDOW's largestCapacity and largestCost): Java
-- checks every limit when it is built and every call before Redis is asked, and denies a call that
-- costs more without asking. The check here only detects a bug: its refusal, TOLLGATE_ARGS
-- (RedisFailures.ARGUMENTS_REFUSED), is logged as one and the call denied. ScriptLimitsAgreementTest
-- proves the two agree.
-- KEYS[1]  sorted set of admitted calls: one entry per unit of cost, score = admission time (us),
--          member = '<time>-<unit>'
-- ARGV[1]  the limit: calls (times their cost) per window, 1..10000
-- ARGV[2]  the window, in microseconds, 1..2^53
-- ARGV[3]  cost of this call, 1..min(limit, 1000)
-- KEYS[2]  the client's operator rules (operator.lua), optional; an override's limit is at most 10,000 too
-- KEYS[3]  the call's idempotency record (idempotency.lua), optional; ARGV[4] its window in ms
-- KEYS[last] the client's usage ledger (usage.lua), optional; ARGV's last two its days and client
-- Returns  {allowed 1|0, left in the window, retry-after us, until the window is empty us, the admitted
--          call's stamp (us; 0 when denied): what sliding-window-refund.lua takes to give it back}
local MAX = 9007199254740992 -- 2^53: every time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include idempotency
-- #include usage
local key = KEYS[1]
local limit = whole(ARGV[1], 1, 10000)
local window = whole(ARGV[2], 1, MAX)
local cost = limit and whole(ARGV[3], 1, math.min(limit, 1000))
local idem = idem_window(IDEM_KEY, ARGV[4])
if not (limit and window and cost and idem ~= false and usage_ok()) then
  return redis.error_reply('TOLLGATE_ARGS sliding-window: bad arguments ' .. table.concat(ARGV, ' '))
end

-- A repeat of an admitted call (idempotency.lua) is answered as it was, and spends nothing.
local replayed = idem_replay(IDEM_KEY)
if replayed then return replayed end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
-- Operator rules (operator.lua, KEYS[2]): a block denies for its rest; an override replaces the limit
-- and the window.
local blocked, override_left, _
blocked, override_left, limit, _, window = operator_rules(KEYS[2], now, limit, limit, window)
if blocked then return {0, 0, blocked, blocked, 0} end
if cost > limit then return {0, 0, override_left, override_left, 0} end
limit = math.min(limit, 10000)
-- End of operator rules.

-- An entry admitted at s counts for calls in (s - window, s]: at s + window it has left. One dated
-- more than a window ahead (a clock that stepped back that far, state Tollgate did not write) would
-- hold the window shut: it goes too.
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - window))
redis.call('ZREMRANGEBYSCORE', key, '(' .. string.format('%d', now + window), '+inf')
local count = redis.call('ZCARD', key)
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local newest = tonumber(last[2])

if count + cost > limit then
  -- The call fits once the (count + cost - limit) oldest entries have left the window. A lowered
  -- limit can leave more entries than it allows: nothing is left, never less.
  local k = count + cost - limit
  local kth = redis.call('ZRANGE', key, k - 1, k - 1, 'WITHSCORES')
  return {0, math.max(0, limit - count), operator_retry(tonumber(kth[2]) + window - now, override_left),
    newest + window - now, 0}
end

-- Times only grow, so members stay unique even when two calls read the same microsecond or the clock
-- steps back (then the entries are dated just after the newest, which holds them a little longer).
local stamp = now
if newest ~= nil and newest >= stamp then
  stamp = newest + 1
end
local s = string.format('%d', stamp)
local args = {}
for i = 1, cost do
  args[#args + 1] = s
  args[#args + 1] = s .. '-' .. i
  -- In batches: unpack of a very large table would overflow Lua's C stack.
  if #args == 1000 or i == cost then
    redis.call('ZADD', key, unpack(args))
    args = {}
  end
end
count = count + cost
-- Forgotten one window after the newest entry, when every entry has left anyway.
redis.call('PEXPIRE', key, string.format('%d', math.ceil((stamp + window - now) / 1000)))
usage_add(now, cost)
return idem_keep(IDEM_KEY, idem, {1, limit - count, 0, stamp + window - now, stamp})
