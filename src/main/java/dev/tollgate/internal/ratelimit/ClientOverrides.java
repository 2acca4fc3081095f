package dev.tollgate.internal.ratelimit;

import dev.tollgate.ClientOverride;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LimitRules;
import java.time.Duration;

/** What an operator's override and block must be to fit a limit, checked before Redis is asked. */
public final class ClientOverrides {

    private ClientOverrides() {}

    /**
     * Whether {@code policy} fits {@code limit}'s algorithm as a configured policy would (a sliding
     * window of at most 10,000, a bucket that refills from empty within 100 years), and a window's
     * refill equals its capacity; {@link IllegalArgumentException} saying why not.
     */
    public static void check(LimitSpec limit, ClientOverride policy) {
        if (policy == null) {
            throw new IllegalArgumentException("limit '" + limit.name() + "': an override needs a policy");
        }
        if (limit.algorithm() != Algorithm.TOKEN_BUCKET && policy.refillTokens() != policy.capacity()) {
            throw new IllegalArgumentException("limit '" + limit.name() + "' is a "
                    + limit.algorithm().configName()
                    + ": an override's refill tokens must equal its capacity (" + policy.capacity() + "), but were "
                    + policy.refillTokens());
        }
        new LimitSpec(
                new LimitPolicy(
                        limit.name(),
                        policy.capacity(),
                        policy.refillTokens(),
                        policy.refillPeriod(),
                        1,
                        limit.policy().calendar()),
                limit.algorithm(),
                limit.key(),
                limit.failOpen());
    }

    /** Whether {@code duration} is from 1 ms to 100 years; {@link IllegalArgumentException} naming {@code what}. */
    public static void checkDuration(String limit, String what, Duration duration) {
        if (duration == null || !LimitRules.periodFits(duration)) {
            throw new IllegalArgumentException("limit '" + limit + "': " + what + " must last "
                    + LimitRules.PERIOD_RANGE + ", but was " + duration);
        }
    }
}
