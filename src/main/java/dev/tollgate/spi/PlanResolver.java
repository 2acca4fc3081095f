package dev.tollgate.spi;

/**
 * Chooses a caller's plan for limits configured with {@code plans} and {@code plan-resolver=<bean
 * name>}: implement it in a CDI bean with {@code @Named("<bean name>")}. The plan selects the policy the
 * call is spent under, at this call: a caller whose plan changes is limited by the new one from its next
 * call, from the same bucket.
 *
 * <pre>{@code
 * @Named("tier") @ApplicationScoped
 * public class Tiers implements PlanResolver {
 *     public String plan(CallerInfo caller) {
 *         return caller.header("X-Api-Key").map(accounts::tierOf).orElse(null);
 *     }
 * }
 * }</pre>
 *
 * <p>A resolver may refuse a caller it does not know by throwing (for JAX-RS, a {@code
 * WebApplicationException} such as {@code NotAuthorizedException} becomes the response).
 */
@FunctionalInterface
public interface PlanResolver {

    /**
     * The caller's plan: one of the names in the limit's {@code plans} setting; null, or a name that is
     * not there, spends under the limit's own policy.
     */
    String plan(CallerInfo caller);
}
