-- Sets the lock's expiry only if it still holds the caller's token (longer or shorter than now).
-- KEYS[1]  the lock;  KEYS[2]  its fencing counter (untouched; declared for the cluster slot)
-- ARGV[1]  the caller's token
-- ARGV[2]  the new time to live, in milliseconds
-- Returns  1 when set, 0 when nobody holds the lock, -1 when another holder has it.
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if holder then
  return -1
end
return 0
