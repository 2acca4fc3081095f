package dev.tollgate.internal.engine;

/**
 * What a call costs, as an adapter read it from the call ({@code @RateCost}): what {@link Admissions}
 * charges the method's limits.
 */
public sealed interface Cost {

    /** No {@code @RateCost} parameter: each limit's configured cost. */
    Cost CONFIGURED = new Configured();

    /** A parameter the adapter cannot read before the method runs (a request entity): left to the interceptor. */
    Cost UNREAD = new Unread();

    /** {@code value} &ge; 0; 0 spends nothing. */
    static Cost of(long value) {
        return new Of(value);
    }

    /** The call said something that is not a cost: {@code problem} says what. */
    static Cost bad(String problem) {
        return new Bad(problem);
    }

    record Configured() implements Cost {}

    record Unread() implements Cost {}

    record Of(long value) implements Cost {
        public Of {
            if (value < 0) {
                throw new IllegalArgumentException("a call's cost must be >= 0, but was " + value);
            }
        }
    }

    record Bad(String problem) implements Cost {}
}
