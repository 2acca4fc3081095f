package dev.tollgate.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The instruments' and attributes' names, once. After OpenTelemetry's conventions (ASP.NET Core's {@code
 * aspnetcore.rate_limiting.*}: a policy attribute and a result attribute): dotted lower-case names under
 * {@code tollgate.}, units in UCUM, counts named for what is counted. No attribute holds a client key; a
 * span event holds only its hash.
 */
final class Names {

    static final String SCOPE = "dev.tollgate";

    static final String DECISIONS = "tollgate.rate_limiting.decisions";
    static final String DEGRADED = "tollgate.rate_limiting.degraded_decisions";
    static final String DURATION = "tollgate.rate_limiting.decision.duration";
    static final String WAIT = "tollgate.rate_limiting.wait.duration";
    static final String PLAN_DECISIONS = "tollgate.rate_limiting.plan_decisions";
    static final String LOCAL = "tollgate.rate_limiting.local_fallback_decisions";
    static final String HELD = "tollgate.rate_limiting.held_denials";
    static final String REFUNDS = "tollgate.rate_limiting.refunds";
    static final String BREAKER = "tollgate.breaker.open";
    static final String CONCURRENCY = "tollgate.concurrency.decisions";
    static final String CONCURRENCY_DEGRADED = "tollgate.concurrency.degraded_decisions";
    static final String LEASES_LOST = "tollgate.concurrency.leases_lost";
    static final String IN_FLIGHT = "tollgate.concurrency.in_flight";
    static final String LOCK_RUNS = "tollgate.lock.runs";
    static final String LOCK_LOST = "tollgate.lock.lost";
    static final String LEASES = "tollgate.rate_limiting.leases";
    static final String LEASE_TOKENS = "tollgate.rate_limiting.lease.tokens";
    static final String LEASED_DECISIONS = "tollgate.rate_limiting.leased_decisions";
    static final String LIVE_SERVERS = "tollgate.live_servers";

    /** The span event of one limit's decision on the current (server) span. */
    static final String EVENT = "tollgate.rate_limiting.decision";

    /** The limit's name: the policy attribute. */
    static final AttributeKey<String> LIMIT = AttributeKey.stringKey("tollgate.limit");
    /** {@code allowed}, {@code denied} or {@code would_deny} (a shadow limit's denial): the result attribute. */
    static final AttributeKey<String> RESULT = AttributeKey.stringKey("tollgate.result");
    /** A {@link dev.tollgate.DegradedCause#tag()}. */
    static final AttributeKey<String> CAUSE = AttributeKey.stringKey("tollgate.degraded.cause");

    static final AttributeKey<Boolean> DEGRADED_FLAG = AttributeKey.booleanKey("tollgate.degraded");
    static final AttributeKey<String> PLAN = AttributeKey.stringKey("tollgate.plan");
    static final AttributeKey<Long> REMAINING = AttributeKey.longKey("tollgate.remaining");
    /** The client key's hash (as in store keys, audit lines and the console), never the key. */
    static final AttributeKey<String> CLIENT_HASH = AttributeKey.stringKey("tollgate.client.hash");

    /** Where a leased limit's call was decided: {@code local} (from a lease) or {@code redis}. */
    static final AttributeKey<String> DECIDED = AttributeKey.stringKey("tollgate.decided");

    static final AttributeKey<String> LOCK = AttributeKey.stringKey("tollgate.lock");
    static final AttributeKey<String> LOST_REASON = AttributeKey.stringKey("tollgate.lock.lost.reason");

    private Names() {}
}
