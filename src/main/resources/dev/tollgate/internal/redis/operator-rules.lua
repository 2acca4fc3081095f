-- An operator's rules for one client of a limit (see operator.lua): set or remove a block or an
-- override, or read them, in one atomic step clocked by Redis TIME like the decisions that read them.
-- The key expires when the later of the two ends.
-- KEYS[1]  tg:op:{<limit>:<hash>}, a string '<blocked until us> <override until us> <capacity> <refill> <period us>'
-- ARGV[1]  block | unblock | override | unoverride | read
-- ARGV[2]  block, override: for how long, in microseconds, 1..2^53
-- ARGV[3..5] override: capacity 1..2^53, refill tokens 0..2^53, period us 1..2^53
-- Returns  {whether the changed rule was in force before 1|0, block left us (0: none), override left us
--          (0: none), capacity, refill tokens, period us (0 0 0: no override)}
local MAX = 9007199254740992
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
local key = KEYS[1]
local action = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

local b, o, c, r, p = 0, 0, 0, 0, 0
local v = redis.pcall('GET', key)
if type(v) == 'string' then
  local mb, mo, mc, mr, mp = string.match(v, '^(%d+) (%d+) (%d+) (%d+) (%d+)$')
  if mb then
    b, o, c, r, p = tonumber(mb), tonumber(mo), tonumber(mc), tonumber(mr), tonumber(mp)
  end
end
if b <= now then b = 0 end
if o <= now then o, c, r, p = 0, 0, 0, 0 end
local had = 0

if action == 'block' or action == 'override' then
  local span = whole(ARGV[2], 1, MAX)
  if not span then
    return redis.error_reply('TOLLGATE_ARGS operator-rules: bad arguments ' .. table.concat(ARGV, ' '))
  end
  if action == 'block' then
    if b > 0 then had = 1 end
    b = math.min(MAX, now + span)
  else
    local nc, nr, np = whole(ARGV[3], 1, MAX), whole(ARGV[4], 0, MAX), whole(ARGV[5], 1, MAX)
    if not (nc and nr and np) then
      return redis.error_reply('TOLLGATE_ARGS operator-rules: bad arguments ' .. table.concat(ARGV, ' '))
    end
    if o > 0 then had = 1 end
    o, c, r, p = math.min(MAX, now + span), nc, nr, np
  end
elseif action == 'unblock' then
  if b > 0 then had = 1 end
  b = 0
elseif action == 'unoverride' then
  if o > 0 then had = 1 end
  o, c, r, p = 0, 0, 0, 0
elseif action ~= 'read' then
  return redis.error_reply('TOLLGATE_ARGS operator-rules: bad arguments ' .. table.concat(ARGV, ' '))
end

if action ~= 'read' then
  local ends = math.max(b, o)
  if ends == 0 then
    redis.call('DEL', key)
  else
    redis.call('SET', key, string.format('%d %d %d %d %d', b, o, c, r, p),
      'PX', string.format('%d', math.ceil((ends - now) / 1000)))
  end
end
local function left(u) if u > 0 then return u - now end return 0 end
return {had, left(b), left(o), c, r, p}
