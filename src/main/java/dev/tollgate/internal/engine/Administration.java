package dev.tollgate.internal.engine;

import dev.tollgate.ClientOverride;
import dev.tollgate.ClientRules;
import dev.tollgate.Decision;
import dev.tollgate.LimitRules;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.ClientOverrides;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.RateLimitStore;
import dev.tollgate.internal.ratelimit.RateLimiter;
import dev.tollgate.internal.ratelimit.RedisClientRules;
import dev.tollgate.internal.ratelimit.RedisUsage;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.Subscription;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link RateLimitAdmin} on the stores behind the guard. A reset (a credit, a changed override, an ended
 * block: whatever may let a denied client pass sooner) is told to every server on the Redis
 * channel {@value #CHANNEL} (under the key prefix: {@link StoreKeys#operatorChannel}), so each drops the denial it holds for that key; a server that misses the
 * message (its subscription was broken) holds it until its retry-after at most, as Redis keeps no messages.
 */
final class Administration implements RateLimitAdmin, AutoCloseable {

    /** Where resets are announced without a key prefix: {@code forget <store key>}. */
    static final String CHANNEL = "tg:operator";

    private static final String FORGET = "forget ";

    private final Function<String, LimitSpec> limits;
    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;
    private final RateLimiter limiter;
    private final RedisLink redis;
    private final Subscription subscription;
    private final RedisClientRules rules;
    private final StoreKeys keys;
    private final String channel;
    private final java.util.concurrent.atomic.AtomicLong heard = new java.util.concurrent.atomic.AtomicLong();

    /** @param redis where resets are announced; null in process */
    Administration(
            Function<String, LimitSpec> limits,
            Map<Algorithm, RateLimitStore> stores,
            Guard guard,
            RateLimiter limiter,
            RedisLink redis) {
        this.limits = limits;
        this.stores = stores;
        this.guard = guard;
        this.limiter = limiter;
        this.redis = redis;
        this.rules = redis == null ? null : new RedisClientRules(redis);
        this.keys = limiter.keys();
        this.channel = keys.operatorChannel();
        this.subscription =
                redis == null ? null : Subscription.start(redis, channel, this::heard, Duration.ofSeconds(1));
    }

    @Override
    public Decision peek(String limit, String clientKey) {
        LimitSpec spec = limits.apply(limit);
        String storeKey = keys.of(spec, clientKey);
        RateLimitStore store = stores.get(spec.algorithm());
        return guard.call(storeKey, () -> store.peek(spec.policy(), storeKey))
                .orElseThrow(() -> new UnsupportedOperationException(
                        "limit '" + limit + "' is kept in this server's memory, where a peek would change it"));
    }

    @Override
    public boolean reset(String limit, String clientKey) {
        LimitSpec spec = limits.apply(limit);
        boolean had = forget(spec, clientKey);
        if (spec.candidate() != null) {
            forget(spec.candidate(), clientKey);
        }
        return had;
    }

    private boolean forget(LimitSpec spec, String clientKey) {
        String storeKey = keys.of(spec, clientKey);
        RateLimitStore store = stores.get(spec.algorithm());
        boolean had = guard.call(storeKey, () -> store.forget(storeKey));
        forgetDenials(storeKey, "limit '" + spec.name() + "' was reset for the client");
        return had;
    }

    /**
     * Drops the denials of {@code storeKey} held here, and tells every other server to drop theirs. When
     * the telling fails, the exception says that {@code done} (the change before it) stands.
     */
    private void forgetDenials(String storeKey, String done) {
        limiter.forgetDenials(storeKey);
        if (redis != null) {
            try {
                guard.call(storeKey, () -> redis.publish(channel, FORGET + storeKey));
            } catch (StoreUnavailableException e) {
                throw new StoreUnavailableException(
                        done + " in Redis, but telling the other servers failed (each holds its denial of the"
                                + " client until its retry-after at most): " + e.getMessage(),
                        e,
                        e.degradedCause());
            }
        }
    }

    @Override
    public long credit(String limit, String clientKey, long tokens) {
        if (!LimitRules.isCount(tokens)) {
            throw new IllegalArgumentException(
                    "limit '" + limit + "': a credit must be " + LimitRules.COUNT_RANGE + " tokens, but was " + tokens);
        }
        LimitSpec spec = limits.apply(limit);
        String storeKey = keys.of(spec, clientKey);
        RateLimitStore store = stores.get(spec.algorithm());
        long credited = guard.call(storeKey, () -> store.credit(spec.policy(), storeKey, tokens));
        if (credited > 0) {
            forgetDenials(storeKey, "limit '" + limit + "': " + credited + " tokens were credited to the client");
        }
        return credited;
    }

    @Override
    public void override(String limit, String clientKey, ClientOverride policy, Duration duration) {
        LimitSpec spec = limits.apply(limit);
        ClientOverrides.check(spec, policy);
        ClientOverrides.checkDuration(limit, "an override", duration);
        String storeKey = onRedis(spec, clientKey);
        guard.call(storeKey, () -> rules.override(storeKey, policy, duration));
        forgetDenials(storeKey, "limit '" + limit + "': the client's override was set");
    }

    @Override
    public boolean removeOverride(String limit, String clientKey) {
        String storeKey = onRedis(limits.apply(limit), clientKey);
        boolean had = guard.call(storeKey, () -> rules.removeOverride(storeKey));
        forgetDenials(storeKey, "limit '" + limit + "': the client's override was removed");
        return had;
    }

    @Override
    public void block(String limit, String clientKey, Duration duration) {
        LimitSpec spec = limits.apply(limit);
        ClientOverrides.checkDuration(limit, "a block", duration);
        String storeKey = onRedis(spec, clientKey);
        guard.call(storeKey, () -> rules.block(storeKey, duration));
    }

    @Override
    public boolean unblock(String limit, String clientKey) {
        String storeKey = onRedis(limits.apply(limit), clientKey);
        boolean had = guard.call(storeKey, () -> rules.unblock(storeKey));
        forgetDenials(storeKey, "limit '" + limit + "': the client's block was lifted");
        return had;
    }

    @Override
    public ClientRules rules(String limit, String clientKey) {
        String storeKey = onRedis(limits.apply(limit), clientKey);
        return guard.call(storeKey, () -> rules.read(storeKey));
    }

    /** The store key of the client's bucket, when the limits are in Redis, where an operator's rules live. */
    private String onRedis(LimitSpec spec, String clientKey) {
        if (rules == null) {
            throw new UnsupportedOperationException("limit '" + spec.name()
                    + "' is kept in this server's memory: credits, overrides and blocks need Redis");
        }
        return keys.of(spec, clientKey);
    }

    @Override
    public java.util.List<dev.tollgate.ClientUsage> usage(
            String limit, java.time.LocalDate from, java.time.LocalDate to, int top) {
        LimitSpec spec = usageOf(limit, from, to, top);
        if (redis == null) {
            return inProcessUsage(spec).all(spec.name(), from, to, top);
        }
        return new RedisUsage(redis, keys).all(spec.name(), from, to, top);
    }

    @Override
    public dev.tollgate.ClientUsage usage(
            String limit, String clientKey, java.time.LocalDate from, java.time.LocalDate to) {
        LimitSpec spec = usageOf(limit, from, to, 1);
        String storeKey = keys.of(spec, clientKey);
        String client = spec.keyNormalization().apply(clientKey);
        if (redis == null) {
            return inProcessUsage(spec).one(StoreKeys.usage(storeKey), client, from, to);
        }
        return guard.call(storeKey, () -> new RedisUsage(redis, keys).one(storeKey, client, from, to));
    }

    /** The limit, when it keeps usage and the read is in range. */
    private LimitSpec usageOf(String limit, java.time.LocalDate from, java.time.LocalDate to, int top) {
        LimitSpec spec = limits.apply(limit);
        if (!spec.keepsUsage()) {
            throw new IllegalArgumentException(
                    "limit '" + limit + "' keeps no usage (tollgate.limits." + limit + ".usage-days=off)");
        }
        LimitRules.usageReadProblem(from, to, top).ifPresent(p -> {
            throw new IllegalArgumentException("limit '" + limit + "': " + p);
        });
        return spec;
    }

    private dev.tollgate.internal.ratelimit.InProcessUsage inProcessUsage(LimitSpec spec) {
        if (stores.get(spec.algorithm()) instanceof dev.tollgate.internal.ratelimit.InProcessRateLimitStore s) {
            return s.usage();
        }
        throw new UnsupportedOperationException("limit '" + spec.name() + "' has no usage ledgers to read");
    }

    private void heard(String message) {
        if (message.startsWith(FORGET)) {
            limiter.forgetDenials(message.substring(FORGET.length()));
            heard.incrementAndGet();
        }
    }

    /** Whether more than {@code count} resets were heard on the channel (this server's own included). */
    boolean heardSince(long count) {
        return heard.get() > count;
    }

    /** Whether this server hears other servers' resets now; always true in process. */
    boolean listening() {
        return subscription == null || subscription.isListening();
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }
}
