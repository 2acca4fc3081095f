-- Token bucket lease: a server gives back what is left of its last lease of a client's bucket and takes
-- a new slice of tokens in advance, to spend them in its memory, in one atomic step clocked by Redis
-- TIME. Tokens leased are tokens the bucket no longer has: the servers together never admit more than
-- the bucket does. The slice is what the server asks for (its recent demand), at most a share of the
-- capacity in force and of what the bucket holds (both divided by ARGV[6]: a tenth of them divided by the
-- live servers), and at least the call's cost: near empty, a lease is one call's tokens, a per-call decision.
-- Operator rules apply as in token-bucket.lua: a block denies, an override's capacity and refill decide.
-- Every lease out is written down beside the bucket, one field per server, and struck out when its
-- server gives the rest back; a lease still there when its time and a grace after it are over was never
-- ended (its server was killed, or cut off from Redis): the script that finds it counts its tokens as
-- abandoned and drops it. They are not given back: how many of them its server spent, nobody knows.
-- KEYS[1]  the bucket: '<whole tokens><instant, 16 digits>' (bucket.lua)
-- KEYS[2]  the client's operator rules (operator.lua), optional
-- KEYS[3]  the bucket's leases out, a hash: server id -> '<tokens leased> <instant, us, it is abandoned
--          from>', optional (with KEYS[2])
-- ARGV[1]  capacity, 1..2^53
-- ARGV[2]  tokens added per period, 0..2^53 (0: the bucket never refills)
-- ARGV[3]  the period, in microseconds, 1..2^53
-- ARGV[4]  cost of this call, 1..capacity: the least a lease is
-- ARGV[5]  tokens asked for, 0..2^53 (at least the cost; 0: only give the last lease's rest back)
-- ARGV[6]  the share divisor, 1..2^53: a lease takes at most capacity / it and tokens held / it
-- ARGV[7]  tokens given back from the server's last lease, 0..2^53 (never above the capacity in force)
-- ARGV[8]  this server's id in the leases out: 1..100 characters
-- ARGV[9]  how long after now a lease taken now counts as abandoned if not ended, us, 1..2^53 (its lease
--          time and the grace)
-- Returns  {tokens leased (0: denied, or nothing asked), whole tokens left, retry-after us (-1: never),
--          until-full us, tokens of other servers' leases found abandoned}
local MAX = 9007199254740992 -- 2^53: every count and time here stays exact in Lua's doubles
local function whole(v, lo, hi)
  local n = tonumber(v)
  if n and n == math.floor(n) and n >= lo and n <= hi then return n end
end
-- #include operator
-- #include bucket
local key = KEYS[1]
local capacity = whole(ARGV[1], 1, MAX)
local refill = whole(ARGV[2], 0, MAX)
local period = whole(ARGV[3], 1, MAX)
local cost = capacity and whole(ARGV[4], 1, capacity)
local want = whole(ARGV[5], 0, MAX)
local share = whole(ARGV[6], 1, MAX)
local returned = whole(ARGV[7], 0, MAX)
local holder = ARGV[8]
local abandon_in = whole(ARGV[9], 1, MAX)
if not (capacity and refill and period and cost and want and share and returned and holder and #holder >= 1
    and #holder <= 100 and abandon_in) then
  return redis.error_reply('TOLLGATE_ARGS token-bucket-lease: bad arguments ' .. table.concat(ARGV, ' '))
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])

local blocked, override_left
blocked, override_left, capacity, refill, period = operator_rules(KEYS[2], now, capacity, refill, period)

local w, s = bucket_read(key)

-- The leases out, read after the bucket and before anything is written (a key of another type raises
-- WRONGTYPE here, as the bucket's does). One field per server that holds a lease of this bucket: more
-- than OUT_MAX fields, or a field Tollgate cannot have written, is no record to trust: it is dropped,
-- nothing counted.
local OUT_MAX = 10000
local out = KEYS[3]
local abandoned = 0
if out then
  if redis.call('HLEN', out) > OUT_MAX then
    redis.call('DEL', out)
  else
    local fields = redis.call('HGETALL', out)
    for i = 1, #fields, 2 do
      local server = fields[i]
      if server ~= holder then
        local n, from = string.match(fields[i + 1], '^(%d+) (%d+)$')
        n, from = tonumber(n), tonumber(from)
        if not (n and from and n <= MAX and from <= MAX) then
          redis.call('HDEL', out, server)
        elseif from <= now then
          abandoned = math.min(MAX, abandoned + n)
          redis.call('HDEL', out, server)
        end
      end
    end
  end
end

if not w then
  w = capacity
  s = now
end
-- As token-bucket.lua: state further ahead than a whole refill (a clock that stepped back) is rebased.
local rebased = refill > 0 and s - now > capacity * period / refill
if rebased then
  s = now
end
w, s = bucket_refill(w, s, now, capacity, refill, period)
-- What the last lease left comes back first, never above the capacity.
w = math.min(capacity, w + returned)
local changed = rebased or returned > 0

local granted = 0
if want > 0 and not blocked and cost <= capacity and w >= cost then
  granted = math.min(want, math.floor(capacity / share), math.floor(w / share))
  granted = math.min(w, math.max(granted, cost))
  w = w - granted
  changed = true
end

local function until_holding(n)
  if w >= n then return 0 end
  if refill == 0 then return -1 end
  return math.min(MAX, s + bucket_ceil((n - w) * period, refill) - now)
end

local full_in = until_holding(capacity)
local retry_in = 0
if blocked then
  retry_in = blocked
elseif cost > capacity then
  retry_in = override_left
elseif granted == 0 then
  retry_in = operator_retry(until_holding(cost), override_left)
end

-- This server's lease among the leases out: the new one, or none. The hash lives as long as its last
-- lease can be found abandoned, and as long again, for the next script to find it.
if out then
  if granted > 0 then
    redis.call('HSET', out, holder, string.format('%d %d', granted, math.min(MAX, now + abandon_in)))
    local ttl = math.ceil(math.min(MAX, 2 * abandon_in) / 1000) + 1000
    if redis.call('PTTL', out) < ttl then
      redis.call('PEXPIRE', out, string.format('%d', ttl))
    end
  else
    redis.call('HDEL', out, holder)
  end
end

local life = operator_life(full_in, override_left, ARGV)
if changed then
  bucket_write(key, w, s, life)
else
  bucket_expire(key, life)
end
return {granted, math.max(0, w), retry_in, full_in, abandoned}
