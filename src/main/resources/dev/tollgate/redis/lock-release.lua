-- Deletes the lock only if it still holds the caller's token: a lock that expired and was taken by
-- someone else is theirs, and stays.
-- KEYS[1]  the lock;  KEYS[2]  its fencing counter (untouched; declared for the cluster slot)
-- ARGV[1]  the caller's token
-- Returns  1 when released, 0 when the lock is not the caller's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
