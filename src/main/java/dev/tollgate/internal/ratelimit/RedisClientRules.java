package dev.tollgate.internal.ratelimit;

import dev.tollgate.ClientOverride;
import dev.tollgate.ClientRules;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisCommands;
import dev.tollgate.internal.redis.RedisException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The operator's rules for one client of a limit, in Redis beside its bucket ({@link StoreKeys#rules}):
 * an override and a block, each with its end, written by {@code operator-rules.lua} on Redis {@code TIME}
 * and read by every decision script ({@code operator.lua}).
 */
public final class RedisClientRules {

    private static final LuaScript RULES = LuaScript.named("operator-rules");

    private final RedisCommands redis;

    public RedisClientRules(RedisCommands redis) {
        this.redis = redis;
    }

    /** Blocks the client of {@code storeKey} for {@code duration}; whether it was blocked already. */
    public boolean block(String storeKey, Duration duration) {
        return run(storeKey, "block", Long.toString(micros(duration))).had();
    }

    /** Ends the block; whether there was one. */
    public boolean unblock(String storeKey) {
        return run(storeKey, "unblock").had();
    }

    /** Puts {@code policy} on the client for {@code duration}; whether an override was in force already. */
    public boolean override(String storeKey, ClientOverride policy, Duration duration) {
        return run(
                        storeKey,
                        "override",
                        Long.toString(micros(duration)),
                        Long.toString(policy.capacity()),
                        Long.toString(policy.refillTokens()),
                        Long.toString(policy.refillPeriodMicros()))
                .had();
    }

    /** Ends the override; whether there was one. */
    public boolean removeOverride(String storeKey) {
        return run(storeKey, "unoverride").had();
    }

    /** The rules now. */
    public ClientRules read(String storeKey) {
        return run(storeKey, "read").rules();
    }

    private record Reply(boolean had, ClientRules rules) {}

    private Reply run(String storeKey, String... args) {
        List<?> r;
        try {
            r = (List<?>) redis.eval(RULES, List.of(StoreKeys.rules(storeKey)), List.of(args));
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not answer an operator's " + args[0], e);
        }
        long overrideLeft = (Long) r.get(2);
        Optional<ClientOverride> override = overrideLeft > 0
                ? Optional.of(new ClientOverride(
                        (Long) r.get(3), (Long) r.get(4), Duration.of((Long) r.get(5), ChronoUnit.MICROS)))
                : Optional.empty();
        return new Reply(
                (Long) r.get(0) == 1L,
                new ClientRules(
                        override,
                        Duration.of(overrideLeft, ChronoUnit.MICROS),
                        Duration.of((Long) r.get(1), ChronoUnit.MICROS)));
    }

    private static long micros(Duration d) {
        return Math.max(1, d.toNanos() / 1000);
    }
}
