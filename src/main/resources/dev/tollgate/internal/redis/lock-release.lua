-- Deletes the lock only if it still holds the caller's token (a lock that expired and was taken by
-- someone else is theirs, and stays), and tells the servers waiting for it that it is free.
-- KEYS[1]  the lock;  KEYS[2]  its fencing counter (untouched; declared for the cluster slot)
-- ARGV[1]  the caller's token
-- ARGV[2]  the channel of release notices;  ARGV[3]  the lock's name, published on it
-- Returns  1 when released, 0 when nobody holds the lock, -1 when another holder has it.
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], ARGV[3])
  return 1
end
if holder then
  return -1
end
return 0
