package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;

/**
 * A store's answer to a lease ({@link RateLimitStore#lease}): the tokens it handed this server, the
 * bucket as it left it, and what it found of other servers' leases that were never ended.
 *
 * @param tokens the tokens leased, at least the call's cost; 0 when the call is denied or none were asked for
 * @param decision allowed when tokens were leased; its remaining count and reset are the bucket's after the
 *     lease, its retry-after (a denial's) when the call's cost will be there
 * @param abandoned the tokens of leases other servers took of this bucket and never ended (killed, or cut
 *     off from Redis), found now: at most what they had left unspent, which nobody knows
 */
public record Granted(long tokens, Decision decision, long abandoned) {

    public Granted {
        if (tokens < 0 || decision == null || decision.allowed() != tokens > 0 || abandoned < 0) {
            throw new IllegalArgumentException(
                    "a lease grants tokens > 0 exactly when it allows: " + tokens + " (abandoned " + abandoned + ")");
        }
    }
}
