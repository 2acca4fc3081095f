package dev.tollgate.internal.lock;

/** What a {@link HeldLock} asks its lock to do; each act checks the token atomically with the change. */
interface LockOwner {

    /** Deletes the lock if it still holds {@code token}, and tells waiters that it is free. */
    Ownership release(String name, String token);

    /** Sets the lock to expire in {@code ttlMillis} if it still holds {@code token}. */
    Ownership expireIn(String name, String token, long ttlMillis);
}
