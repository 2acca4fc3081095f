package dev.tollgate.internal.lock;

import dev.tollgate.LockLost;

/**
 * Told when a held lock turns out lost (see {@link LockLost}), for metrics and the CDI event. Called on
 * the thread that learned it (a keep-alive thread, or the holder's); must be quick and must not throw.
 */
@FunctionalInterface
public interface LockLostListener {

    void lockLost(LockLost lost);

    /** Tells nobody. */
    LockLostListener NONE = lost -> {};
}
