package dev.tollgate;

import java.time.Duration;

/**
 * A lock held now, as an operator sees it ({@link LockAdmin#held()}): never the holder's secret token.
 *
 * @param name the lock's name
 * @param holder who holds it, as the holding server names itself ({@code tollgate.lock-holder}, by default
 *     {@code <pid>@<host>} of its JVM); empty for a lock whose key holds no holder's name (set by hand, or
 *     by a Tollgate from before holders were named)
 * @param fencingToken the holder's fencing token; {@code -1} when the lock's store lost its last token
 * @param timeLeft until the lock expires unless its holder extends it; {@link
 *     java.time.temporal.ChronoUnit#FOREVER}'s duration for a lock key without expiry (set by hand)
 */
public record LockHold(String name, String holder, long fencingToken, Duration timeLeft) {

    public LockHold {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty, but was '" + name + "'");
        }
        if (holder == null) {
            throw new IllegalArgumentException("holder must not be null (empty when unnamed)");
        }
        if (timeLeft == null || timeLeft.isNegative()) {
            throw new IllegalArgumentException("timeLeft must be >= 0, but was " + timeLeft);
        }
    }
}
