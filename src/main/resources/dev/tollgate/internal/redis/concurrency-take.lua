-- Takes a slot of a concurrency limit: drops expired leases, counts the live ones and adds this call's
-- lease if there is room, in one atomic step clocked by Redis TIME.
-- KEYS[1]  the leases: sorted set, member = lease id, score = its expiry (us)
-- ARGV[1]  most leases at once (max in flight)
-- ARGV[2]  the lease, in milliseconds
-- ARGV[3]  this call's lease id
-- Returns  {1 taken | 0 full, live leases after}
local key = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local lease = tonumber(ARGV[2])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local n = redis.call('ZCARD', key)
if n >= tonumber(ARGV[1]) then
  return {0, n}
end
redis.call('ZADD', key, string.format('%d', now + lease * 1000), ARGV[3])
-- The set is forgotten when its last lease expires, never before one of them.
if redis.call('PTTL', key) < lease then
  redis.call('PEXPIRE', key, lease)
end
return {1, n + 1}
