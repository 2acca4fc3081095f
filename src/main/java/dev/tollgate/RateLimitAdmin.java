package dev.tollgate;

/**
 * What an operator does to one client's bucket of a limit (peek, reset, credit) and puts on the client
 * (an override, a block), by the client key the application uses (an address, a user name: hashed the
 * same way as every check). Each call goes through the same budget and circuit breaker as a check. In a CDI application {@code @Inject RateLimitAdmin}; in plain Java,
 * {@code Tollgate.admin()}. Tollgate's optional admin resource ({@code tollgate.admin.enabled}) serves it
 * over HTTP.
 */
public interface RateLimitAdmin {

    /**
     * What a call would be told now, spending nothing.
     *
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    Decision peek(String limit, String clientKey);

    /**
     * Gives the client a full bucket (an empty window) again, on every server: forgets its state in
     * Redis, the shadow candidate's too, and tells every server to drop the denial it holds for that key.
     *
     * @return whether there was state to forget
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    boolean reset(String limit, String clientKey);

    /**
     * Gives the client up to {@code tokens} tokens back, on every server (each drops the denial it holds
     * for that key). Never beyond a full bucket: a token bucket is refilled to now, then gains at most what
     * it lacks of its capacity in force (an override's, else the limit's); a fixed window counts up to
     * {@code tokens} fewer calls in its current window; a sliding window forgets up to {@code tokens} of
     * its newest entries (the last calls). A client without state is full already: nothing is credited.
     * The limit's own bucket only, not its shadow candidate's.
     *
     * @param tokens 1..2^53
     * @return the whole tokens credited, 0..{@code tokens}
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws IllegalArgumentException when {@code tokens} is out of range
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    long credit(String limit, String clientKey, long tokens);

    /**
     * Puts {@code policy} on the client for {@code duration}, replacing any override it had: every
     * server's checks of this limit for this client spend from the same bucket under it, whatever the
     * client's plan, until it ends (then the client's plan or the limit's own policy again). Held denials
     * are dropped on every server.
     *
     * @param duration 1 ms..100 years
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws IllegalArgumentException when the policy does not fit the limit's algorithm (a window's
     *     refill must equal its capacity; a sliding window holds at most 10,000; a token bucket must
     *     refill from empty within 100 years) or the duration is out of range
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    void override(String limit, String clientKey, ClientOverride policy, java.time.Duration duration);

    /**
     * Ends the client's override now, on every server.
     *
     * @return whether one was in force
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    boolean removeOverride(String limit, String clientKey);

    /**
     * Denies every call of the client under this limit for {@code duration}, on every server, each with
     * the rest of the block as its retry-after; spends nothing meanwhile. A block set again replaces the
     * old one's end.
     *
     * @param duration 1 ms..100 years
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws IllegalArgumentException when the duration is out of range
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    void block(String limit, String clientKey, java.time.Duration duration);

    /**
     * Ends the client's block now, on every server.
     *
     * @return whether it was blocked
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    boolean unblock(String limit, String clientKey);

    /**
     * The override and the block the client has now.
     *
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws UnsupportedOperationException when the limits are kept in process (no Redis URL)
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    ClientRules rules(String limit, String clientKey);

    /**
     * What each client of the limit spent from {@code from} to {@code to} (UTC days of Redis's clock, both
     * included), the most first, at most {@code top} clients: a limit keeps it when {@code usage-days} is
     * set, written in each decision's own script (a denial spends and records nothing). Read by scanning
     * every master's usage keys of the limit: for a billing run, not for each request.
     *
     * @param top 1..{@value LimitRules#MAX_USAGE_TOP}
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws IllegalArgumentException when the limit keeps no usage, {@code to} is before {@code from},
     *     the days span more than {@value LimitRules#MAX_USAGE_DAYS}, or {@code top} is out of range
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    java.util.List<ClientUsage> usage(String limit, java.time.LocalDate from, java.time.LocalDate to, int top);

    /**
     * What one client of the limit spent from {@code from} to {@code to}, as {@link #usage(String,
     * java.time.LocalDate, java.time.LocalDate, int)} says; no units when it spent nothing then.
     *
     * @throws TollgateConfigException when no limit of that name is configured
     * @throws IllegalArgumentException when the limit keeps no usage or the days are out of range
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    ClientUsage usage(String limit, String clientKey, java.time.LocalDate from, java.time.LocalDate to);
}
