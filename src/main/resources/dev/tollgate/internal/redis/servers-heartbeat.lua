-- One server's heartbeat, or its leave at shutdown: the live servers are the members of one sorted set,
-- each scored with the instant (Redis TIME, milliseconds) it stops counting unless it beats again.
-- KEYS[1]  the servers' set (tollgate:{servers} under the key prefix)
-- ARGV[1]  this server's id
-- ARGV[2]  how long a beat counts, in milliseconds; 0: this server leaves
-- Returns  the live servers after this call (a leaving server not among them)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = tonumber(ARGV[2])
if expiry > 0 then
  redis.call('ZADD', KEYS[1], now + expiry, ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local live = redis.call('ZCARD', KEYS[1])
if live == 0 then
  redis.call('DEL', KEYS[1])
else
  -- The set lives as long as its longest-counting member: nothing is left behind when every server dies.
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return live
