package dev.tollgate;

/** A running keep-alive of one lock; {@link #close()} stops it and leaves the lock as it is. */
@FunctionalInterface
public interface KeepAlive extends AutoCloseable {

    /** Stops extending the lock; idempotent. The lock stays held until released or its ttl passes. */
    @Override
    void close();
}
