package dev.tollgate.jaxrs;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.internal.engine.Outcome;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Charged;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * HTTP faces of decisions: the IETF {@code RateLimit} and {@code RateLimit-Policy} fields
 * (draft-ietf-httpapi-ratelimit-headers), {@code Retry-After}, and an {@code application/problem+json}
 * body for rejections.
 */
public final class RateLimitResponses {

    public static final String PROBLEM_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

    private RateLimitResponses() {}

    /**
     * One limit's decision for a request, what the request costs under it, and the most one call may
     * cost there ({@link dev.tollgate.internal.ratelimit.Charge#largestCost()}).
     */
    public record Applied(LimitPolicy policy, Decision decision, long cost, long largestCost) {
        /** At the policy's own cost. */
        public Applied(LimitPolicy policy, Decision decision) {
            this(policy, decision, policy.cost(), policy.capacity());
        }

        /** One limit's part of an admission. */
        public static Applied of(Charged c) {
            return new Applied(
                    c.charge().policy(),
                    c.decision(),
                    c.charge().cost(),
                    c.charge().largestCost());
        }

        /** The interceptor's rejection, as the filter's. */
        public static Applied of(RateLimitExceededException e) {
            return new Applied(e.policy(), e.decision(), e.cost(), e.largestCost());
        }

        boolean tooCostly() {
            return cost > largestCost;
        }
    }

    /**
     * Every limit's part of an admission. When the call was denied, the limits that allowed it gave
     * their tokens back: they show what they hold again. A shadow limit tells the client nothing: its
     * policy is not the one in force.
     */
    public static List<Applied> of(Admission admission) {
        boolean givenBack = !admission.allowed();
        List<Charged> charged = admission.charged();
        List<Applied> out = new ArrayList<>(charged.size());
        for (Charged c : charged) {
            if (!c.charge().limit().shadow()) {
                out.add(givenBack && c.spent() ? givenBack(c) : Applied.of(c));
            }
        }
        return out;
    }

    private static Applied givenBack(Charged c) {
        Decision d = c.decision();
        long left = Math.min(
                c.charge().policy().capacity(), d.remaining() + c.charge().cost());
        return new Applied(
                c.charge().policy(),
                new Decision(true, left, d.retryAfter(), d.resetAfter(), false),
                c.charge().cost(),
                c.charge().largestCost());
    }

    /**
     * The answer to a request the admission refused, as the interceptor's exception gets it from the
     * mappers: a denial or an interrupted wait as {@link #rejected} (an interrupted wait is a {@code
     * 503}: the server could not serve the call now), a key too long as {@link ClientKeyTooLongMapper}, a
     * bad cost as {@link #badRequest}.
     *
     * @throws IllegalArgumentException when {@code outcome} admits the request
     */
    public static Response refusal(Outcome outcome) {
        if (outcome instanceof Outcome.Denied d) {
            return rejected(of(d.admission()));
        }
        if (outcome instanceof Outcome.Interrupted i) {
            return rejected(List.of(new Applied(i.policy(), i.decision())));
        }
        if (outcome instanceof Outcome.KeyTooLong k) {
            return ClientKeyTooLongMapper.of(k.exception(), k.header());
        }
        if (outcome instanceof Outcome.BadCost b) {
            return badRequest(b.problem());
        }
        if (outcome instanceof Outcome.BadIdempotencyKey b) {
            return badRequest(b.problem());
        }
        throw new IllegalArgumentException("not a refusal: " + outcome);
    }

    /** {@code "name";q=capacity;w=seconds}, one item per limit; {@code w} is left out for a quota that never refills. */
    public static String policyField(List<Applied> applied) {
        if (applied.size() != 1 || applied.get(0).policy().calendar() != null) {
            return policyFieldOf(applied);
        }
        // One limit's field depends on its policy alone (a calendar quota's window moves): most requests
        // of a server answer under the policy the request before them did.
        LimitPolicy policy = applied.get(0).policy();
        PolicyField last = lastPolicyField;
        if (last == null || last.policy() != policy) {
            last = new PolicyField(policy, policyFieldOf(applied));
            lastPolicyField = last;
        }
        return last.field();
    }

    private record PolicyField(LimitPolicy policy, String field) {}

    /** The field last written for a single policy: written whole, read without a lock. */
    private static volatile PolicyField lastPolicyField;

    private static String policyFieldOf(List<Applied> applied) {
        StringBuilder field = new StringBuilder();
        for (Applied a : applied) {
            item(field, a.policy().name()).append(";q=").append(a.policy().capacity());
            if (a.policy().refills()) {
                field.append(";w=").append(windowSeconds(a));
            }
        }
        return field.toString();
    }

    /** Starts the next item of a list field: {@code , "name"}. */
    private static StringBuilder item(StringBuilder field, String name) {
        if (!field.isEmpty()) {
            field.append(", ");
        }
        return field.append('"').append(name).append('"');
    }

    /**
     * A limit's window in seconds; a calendar quota's is its current period's (a month's 28 to 31 days, a
     * day's 23 to 25 hours across DST), the period that ends when Redis said. This server's clock only
     * names that period, to the second: it decided nothing.
     */
    private static long windowSeconds(Applied a) {
        CalendarPeriod c = a.policy().calendar();
        if (c == null) {
            return a.policy().windowSeconds();
        }
        Instant inLastSecond = Instant.now().plus(a.decision().resetAfter()).minusSeconds(1);
        return Duration.between(c.start(inLastSecond), c.end(inLastSecond)).toSeconds();
    }

    /** {@code "name";r=remaining;t=seconds}: {@code t} is when a denied call may pass, else when the bucket is full. */
    public static String rateLimitField(List<Applied> applied) {
        StringBuilder field = new StringBuilder();
        for (Applied a : applied) {
            Duration until = a.decision().allowed()
                    ? a.decision().resetAfter()
                    : a.decision().retryAfter();
            item(field, a.policy().name()).append(";r=").append(a.decision().remaining());
            if (!until.equals(Decision.NEVER)) {
                field.append(";t=").append(seconds(until));
            }
        }
        return field.toString();
    }

    /**
     * Adds both fields to an allowed response, for the limits Redis decided: a degraded pass knows
     * nothing of the remaining quota, and claims nothing.
     */
    public static void addFields(MultivaluedMap<String, Object> headers, List<Applied> applied) {
        List<Applied> known = applied;
        for (Applied a : applied) {
            if (a.decision().degraded()) {
                known = applied.stream().filter(x -> !x.decision().degraded()).toList();
                break;
            }
        }
        if (!known.isEmpty() && !headers.containsKey("RateLimit")) {
            headers.putSingle("RateLimit-Policy", policyField(known));
            headers.putSingle("RateLimit", rateLimitField(known));
        }
    }

    /**
     * The rejection: {@code 429} with {@code Retry-After} rounded up to whole seconds (never earlier
     * than the refill), or {@code 503} when Redis could not be asked and the limit fails closed (the
     * client did nothing wrong; a local fallback's denial is a 429). With several limits, the one named is the one
     * a client must wait for longest (a fail-closed one first), so waiting its {@code Retry-After} is not
     * met by another limit's denial; the fields list every limit.
     */
    public static Response rejected(List<Applied> applied) {
        Applied denied = applied.stream()
                .filter(a -> !a.decision().allowed())
                .max(Comparator.comparing((Applied a) -> failedClosed(a.decision()))
                        .thenComparing(a -> a.decision().retryAfter()))
                .orElseThrow(() -> new IllegalArgumentException("no limit denied the call"));
        Decision d = denied.decision();
        String name = denied.policy().name();
        if (failedClosed(d)) {
            return serviceUnavailable(
                    seconds(d.retryAfter()), "Rate limit '" + name + "' cannot be checked now and fails closed", name);
        }
        Response.ResponseBuilder r = Response.status(Response.Status.TOO_MANY_REQUESTS)
                .header("RateLimit-Policy", policyField(applied))
                .header("RateLimit", rateLimitField(applied))
                .type("application/problem+json");
        Long retry = null;
        if (!d.retryAfter().equals(Decision.NEVER)) {
            retry = seconds(d.retryAfter());
            r.header("Retry-After", retry);
        }
        String detail = denied.tooCostly()
                ? "This call costs " + denied.cost() + ", "
                        + RateLimitExceededException.tooCostly(denied.policy(), denied.largestCost())
                        + ": it can never pass"
                : retry == null
                        ? "Quota '" + name + "' is used up and does not refill"
                        : "Rate limit '" + name + "' exceeded; retry after " + retry + " s";
        return r.entity(problem(PROBLEM_TYPE, "Too Many Requests", 429, detail, name, retry))
                .build();
    }

    /**
     * Whether {@code d} is a limit's fail-closed answer for a store it could not ask, {@link
     * Decision#degraded(boolean)}, which knows nothing of the client's bucket. A local fallback's denial is
     * degraded too, but its bucket was spent and says when to retry ({@code resetAfter} is never zero
     * after a denial): a {@code 429} like any other.
     */
    static boolean failedClosed(Decision d) {
        return d.degraded() && !d.allowed() && d.resetAfter().isZero();
    }

    /** {@code 400} with a problem body: the request said something Tollgate cannot use (a cost that is not a number). */
    public static Response badRequest(String detail) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type("application/problem+json")
                .entity(problem("about:blank", "Bad Request", 400, detail, null, null))
                .build();
    }

    /** {@code 503} with the degraded decision's {@code Retry-After} (1 s): the store could not be asked, the client did nothing wrong. */
    public static Response unavailable(String detail) {
        return serviceUnavailable(seconds(Decision.degraded(false).retryAfter()), detail, null);
    }

    private static Response serviceUnavailable(long retryAfter, String detail, String limit) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header("Retry-After", retryAfter)
                .type("application/problem+json")
                .entity(problem("about:blank", "Service Unavailable", 503, detail, limit, null))
                .build();
    }

    /** Whole seconds, rounded up, at least 1: a client that waits this long finds the token there. */
    static long seconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Math.max(1, s);
    }

    static String problem(String type, String title, int status, String detail, String limit, Long retry) {
        return "{\"type\":\"" + type + "\",\"title\":\"" + title + "\",\"status\":" + status + ",\"detail\":\""
                + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
                + (limit == null ? "" : ",\"limit\":\"" + limit + "\"")
                + (retry == null ? "" : ",\"retryAfter\":" + retry) + "}";
    }
}
