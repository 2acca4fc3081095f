package dev.tollgate.lock;

import dev.tollgate.core.Failures;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/** The one {@link LockHandle}: a name, a secret token and a fencing token, acting through its owner. */
final class HeldLock implements LockHandle {

    private static final Logger LOG = Logger.getLogger(HeldLock.class.getName());

    private final LockOwner owner;
    private final String name;
    private final String token;
    private final long fencingToken;
    private final AtomicBoolean released = new AtomicBoolean();

    HeldLock(LockOwner owner, String name, String token, long fencingToken) {
        this.owner = owner;
        this.name = name;
        this.token = token;
        this.fencingToken = fencingToken;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    /** The secret that proves ownership; never logged. */
    String token() {
        return token;
    }

    @Override
    public boolean release() {
        released.set(true);
        return owner.release(name, token);
    }

    @Override
    public boolean extend(Duration ttl) {
        return owner.expireIn(name, token, LockNames.ttlMillis(name, ttl));
    }

    @Override
    public void close() {
        if (released.get()) {
            return;
        }
        try {
            release();
        } catch (LockUnavailableException e) {
            LOG.warning(() -> "Tollgate: lock '" + name + "' could not be released (" + Failures.describe(e)
                    + "); it expires by itself when its ttl passes");
        }
    }

    @Override
    public String toString() {
        return "LockHandle[" + name + ", fencing token " + fencingToken + "]";
    }
}
