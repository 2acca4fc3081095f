package dev.tollgate.internal.redis;

import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A call through {@link RedisCommands} or {@link RedisLink} that Redis did not answer, or answered with
 * an error: the client's exception is the cause, which {@link RedisFailures} reads to say what it means
 * (an outage, a data error, refused credentials). The one failure type that leaves this package, so no
 * caller names a Redis client's exceptions. Its message is the cause's; it has no stack trace of its own
 * (the cause's says where it failed).
 */
public final class RedisException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RedisException(JedisException cause) {
        super(cause.getMessage(), cause, true, false);
    }

    /**
     * Whether the connection failed (Redis could not be reached, did not answer in time, or the
     * connection broke), rather than Redis answering with an error.
     */
    public boolean connectionFailed() {
        return getCause() instanceof JedisConnectionException;
    }
}
