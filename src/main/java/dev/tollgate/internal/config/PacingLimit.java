package dev.tollgate.internal.config;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The limit that paces outbound calls to partners ({@code dev.tollgate.restclient.PacingFilter}), one bucket
 * per partner. Unless the application configures a limit of this name, Tollgate has it built in, with a policy
 * that never denies: until a partner announces its rate, nothing is known to pace by. What a partner announces
 * is put on its bucket as an override (every server's calls then spend from the same bucket under it); a
 * configured limit of this name is the policy instead, and announcements are not applied (configured limits win).
 */
public final class PacingLimit {

    /** The pacing limit's name. */
    public static final String NAME = "tollgate-pacing";

    /** The built-in policy: never denies (2^53 tokens, refilled every millisecond). */
    public static final LimitPolicy BUILT_IN =
            LimitPolicy.of(NAME, LimitPolicy.MAX_COUNT, LimitPolicy.MAX_COUNT, Duration.ofMillis(1));

    private PacingLimit() {}

    /** {@code limits} with the built-in pacing limit added, unless one of its name is configured. */
    static Map<String, LimitSpec> withBuiltIn(Map<String, LimitSpec> limits) {
        if (limits.containsKey(NAME)) {
            return limits;
        }
        Map<String, LimitSpec> all = new HashMap<>(limits);
        all.put(NAME, new LimitSpec(BUILT_IN, new KeySpec.Global(), true));
        return all;
    }

    /** Whether {@code policy} is the built-in one, which announcements may override. */
    public static boolean builtIn(LimitPolicy policy) {
        return BUILT_IN.equals(policy);
    }
}
