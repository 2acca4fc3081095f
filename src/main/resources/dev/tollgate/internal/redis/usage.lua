-- ===== Usage you can bill, included where a script says "-- #include usage" =====
-- A limit with usage-days keeps, beside each client's bucket and in its Cluster slot, a hash
-- [<prefix>]tg:us:{<limit>:<hash>} (StoreKeys.usage): field 'c' the client key (normalised) and one field
-- per UTC day of Redis TIME (days since 1970-01-01) -> the units the client spent that day. It comes as
-- the last KEYS entry, with ARGV's last two: the days kept (1..400) and the client key; without it the
-- script writes nothing more (no key, no command). Days older than the retention are dropped on each
-- day's first write, and the hash expires a day after its retention once the client stops.
local USAGE_KEY = #KEYS >= 3 and string.find(KEYS[#KEYS], 'tg:us:{', 1, true) and KEYS[#KEYS] or nil
local USAGE_DAYS = USAGE_KEY and tonumber(ARGV[#ARGV - 1])
-- The call's idempotency record, when it has one: KEYS[3], unless that is the usage ledger.
local IDEM_KEY = KEYS[3] ~= USAGE_KEY and KEYS[3] or nil
-- Whether the usage arguments are good (or absent); a script refuses bad ones before it writes.
local function usage_ok()
  if not USAGE_KEY then return true end
  local d = USAGE_DAYS
  return d and d == math.floor(d) and d >= 1 and d <= 400 and #ARGV >= 2
end
-- Adds units (negative: given back, never below 0) to the client's day of now (us, Redis TIME).
local function usage_add(now, units)
  if not USAGE_KEY or units == 0 then return end
  local day = math.floor(now / 86400000000)
  local field = string.format('%d', day)
  local n = redis.call('HINCRBY', USAGE_KEY, field, string.format('%d', units))
  if n <= 0 then
    redis.call('HDEL', USAGE_KEY, field)
  elseif n == units then
    -- The day's first spend: name the client, forget the days past the retention.
    redis.call('HSET', USAGE_KEY, 'c', ARGV[#ARGV])
    for _, f in ipairs(redis.call('HKEYS', USAGE_KEY)) do
      local d = tonumber(f)
      if d and d <= day - USAGE_DAYS then redis.call('HDEL', USAGE_KEY, f) end
    end
  end
  redis.call('EXPIRE', USAGE_KEY, string.format('%d', (USAGE_DAYS + 1) * 86400))
end
-- Gives units back to (negative: adds them to) the client's day of Redis's now: a refund, a settle.
local function usage_give_back(units)
  if not USAGE_KEY then return end
  local t = redis.call('TIME')
  usage_add(tonumber(t[1]) * 1000000 + tonumber(t[2]), -units)
end
-- ===== end of usage =====
