-- Reads one lock as an operator sees it, in one atomic step: its holder's token, its time left and its
-- last fencing token. Both keys share the lock's slot.
-- KEYS[1]  the lock (holds the owner's token, expires)
-- KEYS[2]  the lock's last fencing token
-- Returns  {token, PTTL in ms (-1: no expiry), fencing token} when held (the fencing token false when
--          it is not a string); {false, -2, false} when free or not a string key Tollgate wrote
local function text(key)
  if redis.call('TYPE', key).ok == 'string' then
    return redis.call('GET', key)
  end
  return false
end
local token = text(KEYS[1])
if not token then
  return {false, -2, false}
end
return {token, redis.call('PTTL', KEYS[1]), text(KEYS[2])}
