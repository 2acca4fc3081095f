-- ===== Idempotent charges, included where a script says "-- #include idempotency" =====
-- A call that carries an idempotency key names a record beside its bucket, in the same Cluster slot:
-- tg:ik:{<limit>:<hash>}:<fingerprint> (StoreKeys.replay; the fingerprint, 22 characters, hashes the key
-- with the call's method and path). The record is written in the decision's own script when the call
-- is admitted: '<remaining> <until-full us>', what the first attempt was told, for the limit's
-- idempotency window (PX, whole ms). A repeat that finds it is admitted again and spends nothing; a
-- denial writes none (it spent nothing), and a refund deletes it (the spend is gone). About 100 bytes
-- of MEMORY USAGE per record (memory.md); a value Tollgate cannot have written is no record.
-- The record's lifetime in ms (nil: the call has no key; false: a bad argument, which the script refuses).
local function idem_window(key, arg)
  if not key then return nil end
  local n = tonumber(arg)
  if n and n == math.floor(n) and n >= 1 and n <= MAX then return n end
  return false
end
-- The first attempt's answer again, flagged as a replay (6th field 1; mark 0: it spent nothing), or nil.
local function idem_replay(key)
  local v = key and redis.pcall('GET', key)
  if type(v) ~= 'string' then return nil end
  local r, f = string.match(v, '^(%d+) (%-?%d+)$')
  if not r then return nil end
  return {1, tonumber(r), 0, tonumber(f), 0, 1}
end
-- The decision's reply, recorded first when it admitted a call that carries a key.
local function idem_keep(key, window, reply)
  if key and reply[1] == 1 then
    redis.call('SET', key, string.format('%d %d', reply[2], reply[4]), 'PX', string.format('%d', window))
  end
  return reply
end
-- ===== end of idempotent charges =====
