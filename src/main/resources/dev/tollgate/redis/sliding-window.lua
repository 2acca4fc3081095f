-- Sliding window log: trim, count, decide and record in one atomic step, clocked by Redis TIME.
-- A call is admitted if the calls admitted in the last window, plus its cost, stay within the limit.
-- KEYS[1]  sorted set of admitted calls: one entry per unit of cost, score = admission time (us),
--          member = '<time>-<unit>'
-- ARGV[1]  the limit: calls (times their cost) per window
-- ARGV[2]  the window, in microseconds
-- ARGV[3]  cost of this call
-- Returns  {allowed 1|0, left in the window, retry-after us, until the window is empty us}
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

-- An entry admitted at s counts for calls in (s - window, s]: at s + window it has left.
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - window))
local count = redis.call('ZCARD', key)
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local newest = tonumber(last[2])

if count + cost > limit then
  -- The call fits once the (count + cost - limit) oldest entries have left the window.
  local k = count + cost - limit
  local kth = redis.call('ZRANGE', key, k - 1, k - 1, 'WITHSCORES')
  return {0, limit - count, tonumber(kth[2]) + window - now, newest + window - now}
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
redis.call('PEXPIRE', key, math.ceil((stamp + window - now) / 1000))
return {1, limit - count, 0, stamp + window - now}
