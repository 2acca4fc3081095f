-- Sets the lock's expiry only if it still holds the caller's token (longer or shorter than now).
-- KEYS[1]  the lock;  KEYS[2]  its fencing counter (untouched; declared for the cluster slot)
-- ARGV[1]  the caller's token
-- ARGV[2]  the new time to live, in milliseconds
-- Returns  1 when set, 0 when the lock is not the caller's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
