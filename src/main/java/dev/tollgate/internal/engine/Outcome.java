package dev.tollgate.internal.engine;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Charged;
import java.util.List;

/**
 * How {@link Admissions} answered a call: each adapter translates it, the filter into a response, the
 * interceptor into an exception, so that the same failure gets the same answer from both.
 */
public sealed interface Outcome {

    /** Nothing to check: the call runs. */
    Outcome FREE = new Free();

    record Free() implements Outcome {}

    /**
     * Every limit allowed the call (after its wait, if any): it runs, then {@link Admission#settle}.
     *
     * @param applied the method's limits charged here, which the interceptor need not charge again
     */
    record Admitted(Admission admission, List<String> applied) implements Outcome {
        public Admitted {
            applied = List.copyOf(applied);
        }
    }

    /** A limit denied the call; nothing stays spent. */
    record Denied(Admission admission) implements Outcome {

        /** The limit to name ({@link Admission#denied()}). */
        public Charged denied() {
            return admission.denied().orElseThrow();
        }
    }

    /**
     * A call whose thread was interrupted while it waited for its tokens: it never got its permit, and
     * is refused as one the server could not serve now (a {@code 503}), not as one over its limit; its
     * reserved tokens stay spent.
     *
     * @param decision denied, as a decision made without the store: retry after the wait it was given
     */
    record Interrupted(LimitPolicy policy, Decision decision) implements Outcome {}

    /** A client key too long for a bucket; nothing was spent. {@code header}: the key is a header's value. */
    record KeyTooLong(ClientKeyTooLongException exception, boolean header) implements Outcome {}

    /** The call's cost is not a whole number &ge; 0 ({@link Cost#bad}); nothing was spent. */
    record BadCost(String problem) implements Outcome {}

    /** The call's idempotency key breaks its rule ({@code LimitRules.idempotencyKeyProblem}); nothing was spent. */
    record BadIdempotencyKey(String problem) implements Outcome {}
}
