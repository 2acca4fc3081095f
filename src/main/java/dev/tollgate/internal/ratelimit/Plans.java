package dev.tollgate.internal.ratelimit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A limit's plans ({@code tollgate.limits.<name>.plans} and {@code .plan-resolver}): the bean that
 * names a caller's plan, and for each plan the limit whose policy its callers spend under. The bucket
 * stays the limit's own: a plan chooses the policy, never the bucket.
 *
 * @param resolver the name of the {@code PlanResolver} bean
 * @param limitByPlan the configured limit whose policy each plan spends under, in the order given
 */
public record Plans(String resolver, Map<String, String> limitByPlan) {

    /** A plan's name: letters, digits, {@code _ -}, at most 64 characters (it is a metrics tag). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public Plans {
        if (resolver == null || limitByPlan == null || limitByPlan.isEmpty()) {
            throw new IllegalArgumentException("a resolver and at least one plan are required");
        }
        limitByPlan.keySet().forEach(p -> {
            if (!NAME.matcher(p).matches()) {
                throw new IllegalArgumentException(
                        "a plan's name must be 1-64 letters, digits, '_' or '-', but was '" + p + "'");
            }
        });
        limitByPlan = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(limitByPlan));
    }

    /** The limit whose policy {@code plan} spends under; empty for null or a plan that is not configured. */
    public Optional<String> limitOf(String plan) {
        return plan == null ? Optional.empty() : Optional.ofNullable(limitByPlan.get(plan));
    }

    /**
     * Parses {@code free:api-free, pro:api-pro}; {@link IllegalArgumentException} says what is wrong.
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String item : text.split(",")) {
            String t = item.trim();
            int colon = t.indexOf(':');
            if (colon < 1 || colon == t.length() - 1) {
                throw new IllegalArgumentException("'" + t + "' is not <plan>:<limit>");
            }
            String plan = t.substring(0, colon).trim();
            if (!NAME.matcher(plan).matches()) {
                throw new IllegalArgumentException("plan '" + plan + "' is not 1-64 letters, digits, '_' or '-'");
            }
            if (out.put(plan, t.substring(colon + 1).trim()) != null) {
                throw new IllegalArgumentException("plan '" + plan + "' is named twice");
            }
        }
        return out;
    }
}
