-- The background probe's question: can Redis run a script that writes? A script, not PING: CLIENT
-- PAUSE WRITE blocks every script but answers PING. And a write, not a read: under maxmemory with
-- noeviction every limit's script fails on its write (OOM) while a read-only probe would pass, closing
-- the breaker for the next checks to open it again. The key is tiny and expires in a second.
-- KEYS[1]  the probe key
-- Returns  Redis TIME, seconds
local t = redis.call('TIME')
redis.call('SET', KEYS[1], t[1], 'PX', 1000)
return t[1]
