package dev.tollgate.internal.lock;

import dev.tollgate.KeepAlive;
import dev.tollgate.LockHandle;
import dev.tollgate.LockLost;
import dev.tollgate.LockUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.Scheduler;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * The one {@link LockHandle}: a name, a secret token and a fencing token, acting through its owner.
 *
 * <p>Its validity is timed on this server's monotonic clock from the moment the acquire or the last
 * confirmed extend was <em>sent</em>, so it ends no later than the store's expiry; a pause past the ttl
 * ends it even before any keep-alive can ask the store.
 */
final class HeldLock implements LockHandle {

    private static final Logger LOG = Logger.getLogger(HeldLock.class.getName());

    private final LockOwner owner;
    private final Keeper keeper;
    private final String name;
    private final String token;
    private final long fencingToken;
    private final long ttlMillis;

    private volatile long validUntil;
    private volatile LockLost lost;
    private volatile boolean released; // written under this
    private Scheduler.Task keepAlive; // guarded by this

    /**
     * @param sentAt when the acquire that took it was sent, on {@code keeper}'s clock
     */
    HeldLock(
            LockOwner owner, Keeper keeper, String name, String token, long fencingToken, long ttlMillis, long sentAt) {
        this.owner = owner;
        this.keeper = keeper;
        this.name = name;
        this.token = token;
        this.fencingToken = fencingToken;
        this.ttlMillis = ttlMillis;
        this.validUntil = sentAt + ttlMillis * 1_000_000;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    /** Whether a loss has been found (and told of) already. */
    boolean foundLost() {
        return lost != null;
    }

    /** The secret that proves ownership; never logged. */
    String token() {
        return token;
    }

    @Override
    public boolean isHeld() {
        return !released && lost == null && keeper.nanoTime() - validUntil < 0;
    }

    @Override
    public boolean release() {
        boolean first;
        synchronized (this) {
            first = !released;
            released = true;
            stopKeepAlive();
        }
        Ownership answer = owner.release(name, token);
        if (first && answer != Ownership.OURS) {
            tell(markLost(answer.reason()), false);
        }
        return answer == Ownership.OURS;
    }

    @Override
    public boolean extend(Duration ttl) {
        long millis = LockNames.ttlMillis(name, ttl);
        LockLost event = null;
        boolean ours;
        synchronized (this) {
            Ownership answer = extendBy(millis);
            ours = answer == Ownership.OURS;
            if (!ours && !released) {
                event = markLost(answer.reason());
            }
        }
        tell(event, false);
        return ours;
    }

    @Override
    public synchronized KeepAlive keepAlive() {
        if (released || lost != null) {
            return () -> {};
        }
        if (keepAlive == null) {
            keepAlive = keeper.every(Duration.ofNanos(Math.max(1, ttlMillis * 1_000_000 / 3)), this::tick);
        }
        return this::stopKeepAliveNow;
    }

    private synchronized void stopKeepAliveNow() {
        stopKeepAlive();
    }

    private void stopKeepAlive() {
        if (keepAlive != null) {
            keepAlive.cancel();
            keepAlive = null;
        }
    }

    /** One keep-alive round; the listener hears of a loss after the handle's monitor is let go. */
    private void tick() {
        tell(keepAliveRound(), true);
    }

    private synchronized LockLost keepAliveRound() {
        if (released || lost != null || keepAlive == null) {
            return null;
        }
        try {
            Ownership answer = extendBy(ttlMillis);
            return answer == Ownership.OURS ? null : markLost(answer.reason());
        } catch (LockUnavailableException e) {
            if (keeper.nanoTime() - validUntil >= 0) {
                return markLost(LockLost.Reason.UNCONFIRMED);
            }
            LOG.fine(() ->
                    "Tollgate: lock '" + name + "' could not be extended (" + Failures.describe(e) + "); trying again");
            return null;
        }
    }

    /** Sets the expiry; on success the handle is valid for {@code millis} from when it was sent. */
    private Ownership extendBy(long millis) {
        long sentAt = keeper.nanoTime();
        Ownership answer = owner.expireIn(name, token, millis);
        if (answer == Ownership.OURS) {
            validUntil = sentAt + millis * 1_000_000;
        }
        return answer;
    }

    /** The loss to tell of, or null when it was already known. */
    private synchronized LockLost markLost(LockLost.Reason reason) {
        if (lost != null) {
            return null;
        }
        lost = new LockLost(name, fencingToken, reason);
        stopKeepAlive();
        return lost;
    }

    private void tell(LockLost event, boolean log) {
        if (event != null) {
            keeper.lost(event, log);
        }
    }

    @Override
    public void close() {
        if (released) {
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
