-- Takes a lock if free and hands out the next fencing token, in one atomic step.
-- KEYS[1]  the lock (holds the owner's token, expires)
-- KEYS[2]  the lock's fencing counter (never expires, so tokens only grow)
-- ARGV[1]  the new owner's token
-- ARGV[2]  time to live, in milliseconds
-- Returns  {1, fencing token} when taken; {0, the holder's remaining ms (-1: no expiry)} when held.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1, redis.call('INCR', KEYS[2])}
end
return {0, redis.call('PTTL', KEYS[1])}
