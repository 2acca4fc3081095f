package dev.tollgate.internal.lock;

import dev.tollgate.LockLost;

/** What the store found when a holder released or extended a lock. */
enum Ownership {
    /** The lock held the caller's token, and the act was done. */
    OURS,
    /** Nobody holds the lock: its ttl passed. */
    EXPIRED,
    /** Another holder has it. */
    TAKEN;

    /** A script's reply: 1 ours, 0 nobody's, -1 someone else's. */
    static Ownership ofReply(long reply) {
        return reply == 1 ? OURS : reply == 0 ? EXPIRED : TAKEN;
    }

    LockLost.Reason reason() {
        return this == TAKEN ? LockLost.Reason.TAKEN : LockLost.Reason.EXPIRED;
    }
}
