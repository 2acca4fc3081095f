-- Removes from the lock index the names a listing found free, each only while its score is still the
-- fencing token the listing read: a name taken again since has a higher one and stays.
-- KEYS[1]  the index: a sorted set of lock names
-- ARGV     pairs: a lock's name, the score the listing read
-- Returns  how many names were removed
local removed = 0
for i = 1, #ARGV - 1, 2 do
  local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[i]))
  if score ~= nil and score == tonumber(ARGV[i + 1]) then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed
