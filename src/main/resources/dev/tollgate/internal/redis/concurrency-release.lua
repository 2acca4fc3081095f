-- Frees a call's slot when it ends.
-- KEYS[1]  the leases (see concurrency-take.lua)
-- ARGV[1]  the lease id
-- Returns  1 when the lease was there, 0 when it had expired and been dropped
return redis.call('ZREM', KEYS[1], ARGV[1])
