-- The background probe's question. A script, not PING: CLIENT PAUSE WRITE blocks every script but
-- answers PING, and the probe must see Redis as the checks do.
return redis.call('TIME')[1]
