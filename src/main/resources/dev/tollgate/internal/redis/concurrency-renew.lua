-- Renews a running call's lease, if it has not expired.
-- KEYS[1]  the leases (see concurrency-take.lua)
-- ARGV[1]  the lease, in milliseconds
-- ARGV[2]  the lease id
-- Returns  1 when renewed, 0 when the lease had expired (its slot may be another call's by now)
local key = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local lease = tonumber(ARGV[1])

local expires = tonumber(redis.call('ZSCORE', key, ARGV[2]))
if expires == nil or expires <= now then
  redis.call('ZREM', key, ARGV[2])
  return 0
end
redis.call('ZADD', key, 'XX', string.format('%d', now + lease * 1000), ARGV[2])
if redis.call('PTTL', key) < lease then
  redis.call('PEXPIRE', key, lease)
end
return 1
