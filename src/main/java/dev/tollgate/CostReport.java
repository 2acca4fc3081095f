package dev.tollgate;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a {@link RateLimited} method's call actually cost, reported from inside the method: the
 * interceptor spends the call's cost as declared today (the limit's {@code cost}, or a {@link RateCost}
 * argument) as an estimate before the method runs, and when the method ends settles each limit it
 * charged at the reported amount, as {@link Estimate#settle} does (the difference given back, or
 * charged on top: a token bucket into debt). A call that reports nothing keeps its estimate.
 *
 * <pre>{@code
 * @RateLimited("llm")                       // tollgate.limits.llm.cost=1000: the estimate
 * public String complete(@RateKey String customer, String prompt) {
 *     Completion c = model.complete(prompt);
 *     CostReport.report(c.tokens());       // settled at the tokens used when the method returns
 *     return c.text();
 * }
 * }</pre>
 *
 * <p>Every limit the call charged is settled at the same amount (multi-limit), or at the amount
 * reported for it by name ({@link #report(String, long)}); a plan's limit is
 * settled under the plan's policy; a limit that does not count the call's outcome ({@link
 * RateLimited#countOn()}) is given back as before and not settled. A method that throws after
 * reporting is settled at what it reported (the work was done); one that throws before keeps the
 * estimate. The last report of a call counts. A call that spent nothing through the interceptor (a
 * cost of 0, a degraded or repeated decision) ignores its report; so does a JAX-RS resource method
 * whose limits the filter checked: settle from code ({@link RateLimits#estimate}) there.
 */
public final class CostReport implements AutoCloseable {

    private static final ThreadLocal<CostReport> CURRENT = new ThreadLocal<>();

    private final CostReport outer;
    private final Map<String, Long> byLimit = new HashMap<>();
    private long actual = -1;

    private CostReport(CostReport outer) {
        this.outer = outer;
    }

    /**
     * Reports the current {@link RateLimited} call's actual cost, to be settled when it ends.
     *
     * @param actual what the call cost, {@link LimitRules#SETTLED_COST_RULE}
     * @throws IllegalArgumentException when {@code actual} breaks that rule (the report is not taken)
     * @throws IllegalStateException outside a {@link RateLimited} method's call on this thread
     */
    public static void report(long actual) {
        current(actual).actual = actual;
    }

    /**
     * Reports the current call's actual cost under the limit named {@code limit} only, to be settled
     * when it ends: for a call whose limits count different things (a request rate beside a monthly
     * quota of tokens). It takes the place of {@link #report(long)} for that limit; a limit the call did
     * not charge is ignored.
     *
     * @throws IllegalArgumentException when {@code actual} breaks {@link LimitRules#SETTLED_COST_RULE}
     * @throws IllegalStateException outside a {@link RateLimited} method's call on this thread
     */
    public static void report(String limit, long actual) {
        current(actual).byLimit.put(limit, actual);
    }

    private static CostReport current(long actual) {
        LimitRules.settledCostProblem(actual).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        CostReport current = CURRENT.get();
        if (current == null) {
            throw new IllegalStateException("no @RateLimited call on this thread to report a cost for");
        }
        return current;
    }

    /**
     * Opens the report of a call that starts on this thread, until {@link #close()}: what the
     * interceptor does around each call. Calls nest: a report goes to the innermost.
     */
    public static CostReport open() {
        CostReport r = new CostReport(CURRENT.get());
        CURRENT.set(r);
        return r;
    }

    /** What the call reported for the limit named {@code limit}; empty when it reported nothing for it. */
    public OptionalLong actual(String limit) {
        Long v = byLimit.get(limit);
        return v != null ? OptionalLong.of(v) : actual < 0 ? OptionalLong.empty() : OptionalLong.of(actual);
    }

    /** Ends the call's report on this thread: the enclosing call's report is current again. */
    @Override
    public void close() {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }
}
