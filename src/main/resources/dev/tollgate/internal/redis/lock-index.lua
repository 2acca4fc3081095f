-- Records a lock name in the index the operator's listing reads, after the lock was taken (its own
-- round trip: the index is one key, in a slot of its own on a cluster, and a lock's script touches the
-- lock's slot only). Each name's score is the fencing token of its latest acquisition, which only grows
-- per name, so a listing that saw the lock free removes the name only while nobody took it since.
-- KEYS[1]  the index: a sorted set of lock names
-- ARGV[1]  the lock's name
-- ARGV[2]  the fencing token it was just taken with
-- ARGV[3]  the most names kept: beyond it, those taken longest ago leave the index
-- Returns  how many names left the index
local token = tonumber(ARGV[2])
local kept = tonumber(ARGV[3])
if not (token and kept and kept >= 1) then
  return redis.error_reply('TOLLGATE_ARGS lock-index: bad arguments')
end
local seen = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if seen == nil or seen < token then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
local over = redis.call('ZCARD', KEYS[1]) - kept
if over > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
  return over
end
return 0
