package dev.tollgate;

/**
 * What an operator does to one client's bucket of a limit, by the client key the application uses (an
 * address, a user name: hashed the same way as every check). Each call goes through the same budget and
 * circuit breaker as a check. In a CDI application {@code @Inject RateLimitAdmin}; in plain Java,
 * {@code Tollgate.admin()}. Tollgate's optional admin resource ({@code tollgate.admin.enabled}) serves it
 * over HTTP.
 */
public interface RateLimitAdmin {

    /**
     * What a call would be told now, spending nothing.
     *
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.core.StoreUnavailableException when Redis cannot be asked
     */
    Decision peek(String limit, String clientKey);

    /**
     * Gives the client a full bucket (an empty window) again, on every server: forgets its state in
     * Redis, the shadow candidate's too, and tells every server to drop the denial it holds for that key.
     *
     * @return whether there was state to forget
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws dev.tollgate.core.StoreUnavailableException when Redis cannot be asked
     */
    boolean reset(String limit, String clientKey);
}
