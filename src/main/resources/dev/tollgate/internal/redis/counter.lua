-- Increments a counter and gives it an expiry in one atomic step: a counter can never be left
-- without one, as INCR followed by a separate EXPIRE can when the caller dies in between.
-- KEYS[1]  the counter
-- ARGV[1]  the increment
-- ARGV[2]  time to live in milliseconds, set only when the counter has none (when this call
--          created it): later increments do not push the expiry back.
-- Returns  the counter's new value.
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value
