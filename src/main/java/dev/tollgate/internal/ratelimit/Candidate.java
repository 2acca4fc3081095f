package dev.tollgate.internal.ratelimit;

import java.time.Duration;

/**
 * The stage that spends from the limit's candidate too (a policy tried beside it, under its own
 * bucket, at its own cost): the candidate is decided and told, and decides nothing.
 */
final class Candidate implements Stage {

    private final Stage next;
    private final Stage chain;
    private final StoreKeys keys;

    /** @param chain the whole chain, which decides the candidate as a lone check */
    Candidate(Stage next, Stage chain, StoreKeys keys) {
        this.next = next;
        this.chain = chain;
        this.keys = keys;
    }

    @Override
    public Charged apply(Ask ask) {
        LimitSpec candidate = ask.limit().candidate();
        if (candidate != null) {
            String clientKey = ask.charge().clientKey();
            chain.apply(new Ask(Charge.of(candidate, clientKey), keys.of(candidate, clientKey), Duration.ZERO, false));
        }
        return next.apply(ask);
    }
}
