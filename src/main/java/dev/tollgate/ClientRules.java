package dev.tollgate;

import java.time.Duration;
import java.util.Optional;

/**
 * What an operator has put on one client of a limit, as of now ({@link RateLimitAdmin#rules}).
 *
 * @param override the policy in force for the client instead of its plan's or the limit's; empty: none
 * @param overrideLeft how long the override lasts still; {@link Duration#ZERO} without one
 * @param blockLeft how long the client is still blocked (every call denied with this retry-after);
 *     {@link Duration#ZERO} when it is not
 */
public record ClientRules(Optional<ClientOverride> override, Duration overrideLeft, Duration blockLeft) {

    /** Nothing put on the client. */
    public static final ClientRules NONE = new ClientRules(Optional.empty(), Duration.ZERO, Duration.ZERO);

    public ClientRules {
        if (override == null || overrideLeft == null || blockLeft == null) {
            throw new IllegalArgumentException("override, overrideLeft and blockLeft are required");
        }
        if (overrideLeft.isNegative() || blockLeft.isNegative()) {
            throw new IllegalArgumentException(
                    "overrideLeft and blockLeft must be >= 0, but were " + overrideLeft + " and " + blockLeft);
        }
        if (override.isPresent() == overrideLeft.isZero()) {
            throw new IllegalArgumentException("an override lasts a while and only an override does, but was "
                    + override + " for " + overrideLeft);
        }
    }

    /** Whether the client is blocked now. */
    public boolean blocked() {
        return !blockLeft.isZero();
    }
}
