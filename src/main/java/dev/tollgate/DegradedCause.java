package dev.tollgate;

/**
 * Why a decision was made without Redis ({@link Decision#degraded()}): the {@code cause} tag of {@code
 * tollgate_degraded_decisions_total}. Only an outage (Redis did not answer, refused
 * the connection or cannot write) counts toward the circuit breaker; the others decide one call and
 * leave every other call to Redis.
 */
public enum DegradedCause {

    /** Redis did not answer within the budget. An outage. */
    TIMEOUT("timeout", true),

    /**
     * Redis refused the connection, or the call (it cannot write: {@code OOM} under {@code noeviction},
     * {@code READONLY}, {@code BUSY}, {@code LOADING}, a cluster without a master). An outage.
     */
    REFUSED("refused", true),

    /** The circuit breaker is open: Redis was not asked (the outage was counted already). */
    BREAKER_OPEN("breaker-open", false),

    /**
     * Every Redis connection of this server stayed busy for the whole budget: more checks at once than
     * {@code tollgate.redis.pool-size} serves in time. A full pool is not an outage: the call is decided
     * by this server's local share of the limit, never by failing open.
     */
    SATURATED("saturated", false),

    /**
     * The call ran out of its budget while Redis went on answering this server's other calls: this
     * server's own slowness (its CPU, a GC pause, a wait behind another call's pipelined write), not an
     * outage. Decided, like {@link #SATURATED}, by this server's local share of the limit.
     */
    LOAD("load", false),

    /**
     * Redis said this call or this key is bad ({@code WRONGTYPE}, a script error, a reply Tollgate cannot
     * read): that one call is degraded, the next key is asked as usual.
     */
    DATA_ERROR("data-error", false),

    /** Redis refused Tollgate's credentials or permissions ({@code WRONGPASS}, {@code NOAUTH}, {@code NOPERM}). */
    AUTH("auth", false);

    private final String tag;
    private final boolean countsTowardBreaker;

    DegradedCause(String tag, boolean countsTowardBreaker) {
        this.tag = tag;
        this.countsTowardBreaker = countsTowardBreaker;
    }

    /**
     * The metric tag: {@code timeout}, {@code refused}, {@code breaker-open}, {@code saturated}, {@code
     * load}, {@code data-error}, {@code auth}.
     */
    public String tag() {
        return tag;
    }

    /** Whether a call failing this way counts toward the circuit breaker: only when Redis did not answer or cannot write. */
    public boolean countsTowardBreaker() {
        return countsTowardBreaker;
    }

    /**
     * Whether this server's own load, not Redis, kept the call from its answer ({@link #SATURATED},
     * {@link #LOAD}): such a call is decided by the limit's local share, so a flood cannot open a limit.
     */
    public boolean isLoad() {
        return this == SATURATED || this == LOAD;
    }
}
