package dev.tollgate.internal.ratelimit;

/**
 * The stage that spends from the limit's candidate too (a policy tried beside it, under its own
 * bucket, at its own cost): the candidate is decided and told, and decides nothing.
 */
final class Candidate implements Stage {

    private final Stage next;
    private final Stage chain;
    private final LoneAsks asks;

    /** @param chain the whole chain, which decides the candidate as a lone check */
    Candidate(Stage next, Stage chain, LoneAsks asks) {
        this.next = next;
        this.chain = chain;
        this.asks = asks;
    }

    @Override
    public Charged apply(Ask ask) {
        LimitSpec candidate = ask.limit().candidate();
        if (candidate != null) {
            chain.apply(asks.of(candidate, ask.charge().clientKey()));
        }
        return next.apply(ask);
    }
}
