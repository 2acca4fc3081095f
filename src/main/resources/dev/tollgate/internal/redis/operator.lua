-- ===== Operator rules (RateLimitAdmin), included where a script says "-- #include operator" =====
-- One string per client of a limit, beside its bucket in the same Cluster slot (tg:op:{<limit>:<hash>}):
--   '<blocked until us> <override until us> <capacity> <refill tokens> <period us>', 0: none,
-- written by operator-rules.lua. Nearly every client has none: a GET of a missing key is all a
-- decision pays. A value Tollgate cannot have written is ignored (the configured policy decides).
-- Returns: the block's time left (nil: not blocked), the override's time left (nil: none in force),
-- and the capacity, refill and period in force: the override's, else the ones given (a plan's or the
-- limit's own).
local function operator_rules(key, now, capacity, refill, period)
  local v = key and redis.pcall('GET', key)
  if type(v) ~= 'string' then return nil, nil, capacity, refill, period end
  local b, o, c, r, p = string.match(v, '^(%d+) (%d+) (%d+) (%d+) (%d+)$')
  b, o, c, r, p = tonumber(b), tonumber(o), tonumber(c), tonumber(r), tonumber(p)
  if not (b and b <= MAX and o <= MAX) then return nil, nil, capacity, refill, period end
  if b > now then return b - now, nil, capacity, refill, period end
  if o > now and c >= 1 and c <= MAX and r <= MAX and p >= 1 and p <= MAX then
    return nil, o - now, c, r, p
  end
  return nil, nil, capacity, refill, period
end
-- A denial's retry-after under an override: at most until the override ends, when the configured
-- policy decides again (-1: never).
local function operator_retry(retry, override_left)
  if override_left and (retry < 0 or retry > override_left) then return override_left end
  return retry
end
-- How long a token bucket's key must live: until it is full (-1: never, kept for good); under an
-- override, until it would be full under the configured policy (argv: capacity, refill tokens, period)
-- once the override has ended, so that a bucket spent under an override is never forgotten early.
local function operator_life(full_in, override_left, argv)
  if not override_left then return full_in end
  local capacity, refill, period = tonumber(argv[1]), tonumber(argv[2]), tonumber(argv[3])
  if refill == 0 then return -1 end
  return math.min(MAX, math.max(full_in, override_left + math.ceil(capacity * period / refill)))
end
-- ===== end of operator rules =====
