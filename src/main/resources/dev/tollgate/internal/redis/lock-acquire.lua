-- Takes a lock if free and hands out the next fencing token, in one atomic step. Everything is read
-- and checked before the first write, so a bad fence key never leaves the lock taken under a token
-- nobody was given.
-- KEYS[1]  the lock (holds the owner's token, expires)
-- KEYS[2]  the lock's last fencing token
-- ARGV[1]  the new owner's token
-- ARGV[2]  time to live, in milliseconds
-- Returns  {1, fencing token} when taken; {0, the holder's remaining ms (-1: no expiry)} when held.
local MAX = 9007199254740992 -- 2^53: every token here stays exact in Lua's doubles
local ttl = tonumber(ARGV[2])
if not (ARGV[1] and #ARGV[1] > 0 and ttl and ttl == math.floor(ttl) and ttl >= 1 and ttl <= MAX) then
  return redis.error_reply('TOLLGATE_ARGS lock-acquire: bad arguments')
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0, redis.call('PTTL', KEYS[1])}
end

-- The next token is above the last one handed out and never below Redis TIME in microseconds, so
-- tokens keep growing even when the fence key is lost (evicted under maxmemory, a failover to a
-- replica that had not received it, a restart without persistence) or holds something Tollgate did
-- not write, which is then replaced.
local last = 0
if redis.call('TYPE', KEYS[2]).ok == 'string' then
  local stored = tonumber(redis.call('GET', KEYS[2]))
  if stored and stored == math.floor(stored) and stored >= 0 and stored < MAX then
    last = stored
  end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local fence = math.max(last + 1, now)

redis.call('SET', KEYS[1], ARGV[1], 'PX', string.format('%d', ttl))
redis.call('SET', KEYS[2], string.format('%d', fence))
return {1, fence}
