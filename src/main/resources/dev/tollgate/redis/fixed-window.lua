-- Fixed window: count, decide and write in one atomic step, clocked by Redis TIME.
-- The article's key-per-window (rate:<ip>:<minute>, INCR then EXPIRE) as one hash holding the current
-- window's index and count, so the key is declared and the old window's counter is dropped at once.
-- KEYS[1]  the window: hash {w = window index, n = spent in it}
-- ARGV[1]  the limit: calls (times their cost) per window
-- ARGV[2]  the window, in microseconds
-- ARGV[3]  cost of this call
-- Returns  {allowed 1|0, left in this window, retry-after us, until the window ends us}
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local index = math.floor(now / window)

local state = redis.call('HMGET', key, 'w', 'n')
local w = tonumber(state[1])
local n = tonumber(state[2])
-- A stored later window (the clock stepped back) stays current: its count is not forgotten early.
if w == nil or n == nil or w < index then
  w = index
  n = 0
end
local ends_in = (w + 1) * window - now

if n + cost > limit then
  return {0, limit - n, ends_in, ends_in}
end
n = n + cost
redis.call('HSET', key, 'w', string.format('%d', w), 'n', string.format('%d', n))
-- The count means nothing once its window has ended.
redis.call('PEXPIRE', key, math.ceil(ends_in / 1000))
return {1, limit - n, 0, ends_in}
