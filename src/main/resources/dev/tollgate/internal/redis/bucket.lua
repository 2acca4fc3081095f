-- ===== Token bucket state, included where a script says "-- #include bucket" =====
-- One decimal integer per bucket, a Redis string at tg:tk:{<limit>:<hash>}: '<W><s>', s in exactly 16
-- digits (Redis TIME in us, 16 digits until 2286), W the whole tokens the bucket held at instant s,
-- written without a leading zero and left out when 0. The fraction of a token is kept as time: s is the
-- instant the last whole token was complete, so the bucket holds W + (now - s) * refill / period at now.
-- W < 0 is a debt: tokens that waiting calls took ahead (token-bucket-reserve.lua), refilling before
-- anyone else's. Every count here is whole, so a decision compares integers.
-- With |W| <= 921 the value fits a signed 64-bit integer, which Redis stores in its 16 B object
-- (88 B of MEMORY USAGE with the key tg:tk:{api:<hash>}); a larger W is a longer string (120 B up to
-- 12 digits of tokens, 136 B beyond). See README, "Memory and key lifetime".
-- A string Tollgate cannot have written (not '<W><s>', W or s out of range) is no state: the bucket
-- starts full. A key of any other type is left alone: reading it raises WRONGTYPE before the script
-- writes anything.

-- a / b rounded up, for whole a >= 0 and b > 0: exact below 2^53 (the doubles' quotient may round up to
-- a whole number it is just below).
local function bucket_ceil(a, b)
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 end
  if q * b < a then q = q + 1 end
  return q
end

-- Whole tokens and their instant, or nil when there is no state Tollgate wrote.
local function bucket_read(key)
  local v = redis.call('GET', key)
  if type(v) ~= 'string' then return nil end
  local w, s = string.match(v, '^(%-?%d*)(%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d)$')
  if not w then return nil end
  if w == '' then w = '0' end
  w, s = tonumber(w), tonumber(s)
  if not (w and s and w >= -MAX and w <= MAX and s <= MAX) then return nil end
  return w, s
end

-- The bucket refilled to now: whole tokens w at an instant s no later than now (unless the state is
-- dated ahead: a clock that went back mints nothing), with less than one more token refilled by now;
-- at most the capacity (a lowered capacity takes effect at once). Each whole token refilled moves s on
-- by its time, rounded up to a microsecond: never minting, and exact (below 2^53) whenever a token
-- takes a whole number of microseconds.
local function bucket_refill(w, s, now, capacity, refill, period)
  if refill > 0 and now > s then
    local e = now - s
    local g = math.floor(e * refill / period)
    if g * period > e * refill then g = g - 1 end
    w = w + g
    s = s + bucket_ceil(g * period, refill)
  end
  if w >= capacity then
    return capacity, math.max(s, now)
  end
  return w, s
end

-- The value of a bucket holding w whole tokens at instant s.
local function bucket_value(w, s)
  if w == 0 then return string.format('%016d', s) end
  return string.format('%d', w) .. string.format('%016d', s)
end

-- A key's expiry for a bucket full in life us: until then plus 1 s, in ms. At most 2^53 us in ms:
-- always an integer PEXPIRE and SET PX accept.
local function bucket_ttl(life)
  return string.format('%d', math.ceil(life / 1000) + 1000)
end

-- Writes the bucket and its expiry (life < 0: it never expires, for a quota that never refills) in one
-- command.
local function bucket_write(key, w, s, life)
  local v = bucket_value(w, s)
  if life < 0 then
    redis.call('SET', key, v)
  else
    redis.call('SET', key, v, 'PX', bucket_ttl(life))
  end
end

-- Refreshes the expiry of a bucket that is not rewritten (a denial).
local function bucket_expire(key, life)
  if life < 0 then
    redis.call('PERSIST', key)
  else
    redis.call('PEXPIRE', key, bucket_ttl(life))
  end
end
-- ===== end of token bucket state =====
