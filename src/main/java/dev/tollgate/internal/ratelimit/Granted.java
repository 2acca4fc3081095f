package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;

/**
 * A store's answer to a lease ({@link RateLimitStore#lease}): the tokens it handed this server, and the
 * bucket as it left it.
 *
 * @param tokens the tokens leased, at least the call's cost; 0 when the call is denied
 * @param decision allowed when tokens were leased; its remaining count and reset are the bucket's after the
 *     lease, its retry-after (a denial's) when the call's cost will be there
 */
public record Granted(long tokens, Decision decision) {

    public Granted {
        if (tokens < 0 || decision == null || decision.allowed() != tokens > 0) {
            throw new IllegalArgumentException("a lease grants tokens > 0 exactly when it allows: " + tokens);
        }
    }
}
