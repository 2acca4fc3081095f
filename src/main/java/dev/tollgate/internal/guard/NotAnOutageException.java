package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;

/**
 * A Redis call failed in a way that is not an outage (Redis answered: a data error, refused
 * credentials): the breaker lets it pass as an answer ({@code skipOn} for MicroProfile Fault Tolerance),
 * and the guard degrades that one call with {@link #degradedCause()}.
 */
public final class NotAnOutageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final DegradedCause degradedCause;

    public NotAnOutageException(DegradedCause degradedCause, Throwable failure) {
        super(degradedCause.tag() + ": " + failure.getMessage(), failure);
        if (degradedCause.countsTowardBreaker()) {
            throw new IllegalArgumentException(degradedCause + " is an outage");
        }
        this.degradedCause = degradedCause;
    }

    public DegradedCause degradedCause() {
        return degradedCause;
    }
}
