package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisCommands;
import dev.tollgate.internal.redis.RedisException;
import dev.tollgate.internal.redis.RedisFailures;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Limits in Redis: one {@code EVALSHA} of the algorithm's script ({@code token-bucket.lua}, {@code
 * fixed-window.lua}, {@code sliding-window.lua}, {@code calendar.lua}) per decision, on the bucket's key, clocked by Redis
 * {@code TIME}. Each script answers {@code {allowed 1|0, remaining, retry-after us, until-full us}} (-1:
 * never). See {@link Algorithm} for what each one counts. Every script also reads the client's
 * operator rules ({@link StoreKeys#rules}, {@code operator.lua}): a block denies, an override replaces
 * the policy given.
 */
public final class RedisRateLimitStore implements RateLimitStore {

    private static final Map<Algorithm, LuaScript> SCRIPTS = new EnumMap<>(Algorithm.class);

    static {
        for (Algorithm a : Algorithm.values()) {
            SCRIPTS.put(a, LuaScript.named(a.configName()));
        }
    }

    private static final LuaScript RESERVE = LuaScript.named("token-bucket-reserve");
    private static final LuaScript LEASE = LuaScript.named("token-bucket-lease");
    private static final LuaScript PEEK = LuaScript.named("peek");
    private static final LuaScript CREDIT = LuaScript.named("credit");

    private static final Map<Algorithm, LuaScript> REFUNDS = new EnumMap<>(Algorithm.class);

    static {
        for (Algorithm a : Algorithm.values()) {
            // A calendar quota's state is a fixed window's: so is its refund.
            Algorithm by = a == Algorithm.CALENDAR ? Algorithm.FIXED_WINDOW : a;
            REFUNDS.put(a, LuaScript.named(by.configName() + "-refund"));
        }
    }

    private final RedisCommands redis;
    /** The client this store built and closes; null when the caller keeps it. */
    private final RedisLink owned;

    private final Algorithm algorithm;

    /** Microseconds added to Redis {@code TIME} and to this server's now: 0, but in tests ({@link #shiftedForTests}). */
    private final LongSupplier shift;

    /** This server's clock: only where to compute a calendar quota's period starts, never which one is now. */
    private final MicrosClock serverClock;

    private final CalendarStarts calendarStarts = new CalendarStarts();

    /** The arguments of the policy last decided for: one limit's checks reuse them instead of formatting four numbers. */
    private volatile PolicyArgs lastArgs;

    private record PolicyArgs(LimitPolicy policy, List<String> args) {}

    private RedisRateLimitStore(
            RedisCommands redis, RedisLink owned, Algorithm algorithm, LongSupplier shift, MicrosClock serverClock) {
        this.redis = redis;
        this.owned = owned;
        this.algorithm = algorithm;
        this.shift = shift;
        this.serverClock = serverClock;
    }

    private RedisRateLimitStore(RedisCommands redis, RedisLink owned, Algorithm algorithm) {
        this(redis, owned, algorithm, () -> 0, MicrosClock.system());
    }

    /**
     * Calendar quotas whose script adds {@code shiftMicros} to Redis {@code TIME} (and the store to its
     * own now): for tests only, which set the instant Redis decides at (a month ahead, across a DST
     * change) without waiting for it. Every store of one test that shares a quota shares the shift. No
     * production path builds one: the engine's stores shift by 0. {@code serverClock} stands for this
     * server's clock (shifted too), which only says around which instant the period starts are computed.
     */
    public static RedisRateLimitStore shiftedForTests(
            RedisCommands redis, LongSupplier shiftMicros, MicrosClock serverClock) {
        return new RedisRateLimitStore(redis, null, Algorithm.CALENDAR, shiftMicros, serverClock);
    }

    /** Token buckets on a client the caller keeps and closes. */
    public static RedisRateLimitStore tokenBucket(RedisCommands redis) {
        return using(Algorithm.TOKEN_BUCKET, redis);
    }

    /** Fixed windows on a client the caller keeps and closes. */
    public static RedisRateLimitStore fixedWindow(RedisCommands redis) {
        return using(Algorithm.FIXED_WINDOW, redis);
    }

    /** Sliding window logs on a client the caller keeps and closes. */
    public static RedisRateLimitStore slidingWindow(RedisCommands redis) {
        return using(Algorithm.SLIDING_WINDOW, redis);
    }

    /** {@code algorithm}'s store on a client the caller keeps and closes. */
    public static RedisRateLimitStore using(Algorithm algorithm, RedisCommands redis) {
        return new RedisRateLimitStore(redis, null, algorithm);
    }

    /** {@code algorithm}'s store on its own client, closed with the store. */
    public static RedisRateLimitStore connect(Algorithm algorithm, RedisSettings settings) {
        RedisLink link = RedisClients.create(settings);
        return new RedisRateLimitStore(link, link, algorithm);
    }

    /** The script {@code algorithm} runs, for tests and tools that inspect Redis. */
    public static LuaScript script(Algorithm algorithm) {
        return SCRIPTS.get(algorithm);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String storeKey) {
        return spend(policy, storeKey).decision();
    }

    @Override
    public Spent spend(LimitPolicy policy, String storeKey) {
        if (algorithm == Algorithm.CALENDAR) {
            return spendInPeriod(policy, storeKey, null, null, null);
        }
        Object reply;
        try {
            reply = redis.eval(SCRIPTS.get(algorithm), keys(storeKey), args(policy));
        } catch (RedisException e) {
            throw failed("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        return spent(reply);
    }

    @Override
    public Spent spend(LimitPolicy policy, String storeKey, String replay, Duration window) {
        return spend(policy, storeKey, replay, window, null);
    }

    @Override
    public Spent spend(LimitPolicy policy, String storeKey, String replay, Duration window, UsageLedger usage) {
        if (algorithm == Algorithm.CALENDAR) {
            return spendInPeriod(policy, storeKey, replay, window, usage);
        }
        List<String> keys = replay == null ? keys(storeKey) : List.of(storeKey, StoreKeys.rules(storeKey), replay);
        List<String> args = args(policy);
        if (replay != null) {
            args = new java.util.ArrayList<>(args);
            args.add(Long.toString(window.toMillis()));
        }
        Object reply;
        try {
            reply = eval(SCRIPTS.get(algorithm), keys, args, usage);
        } catch (RedisException e) {
            throw failed("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        return spent(reply);
    }

    /** {@code script} on {@code keys} and {@code args}, with the client's usage ledger last when not null ({@code usage.lua}). */
    private Object eval(LuaScript script, List<String> keys, List<String> args, UsageLedger usage) {
        return usage == null ? redis.eval(script, keys, args) : redis.eval(script, usage.keys(keys), usage.args(args));
    }

    /** A script's answer: {@code {allowed, remaining, retry us, full us[, mark[, replayed]]}}. */
    private static Spent spent(Object reply) {
        List<?> r = (List<?>) reply;
        Decision d = Decision.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
        return new Spent(d, r.size() > 4 ? (Long) r.get(4) : 0, r.size() > 5 && (Long) r.get(5) == 1L);
    }

    /**
     * A calendar quota's spend: the script picks the period Redis's now is in among the starts computed
     * around this server's now; when this server's clock is so far off that it is in none of them, the
     * starts are computed again around the now Redis said (one more round trip, only then).
     */
    private Spent spendInPeriod(
            LimitPolicy policy, String storeKey, String replay, Duration window, UsageLedger usage) {
        List<String> keys = replay == null ? keys(storeKey) : List.of(storeKey, StoreKeys.rules(storeKey), replay);
        long offset = shift.getAsLong();
        long[] starts = calendarStarts.around(policy.calendar(), serverClock.nowMicros() + offset);
        for (int attempt = 0; ; attempt++) {
            List<?> r;
            try {
                List<String> args = calendarArgs(policy, offset, starts);
                if (replay != null) {
                    args.add(Long.toString(window.toMillis()));
                }
                r = (List<?>) eval(SCRIPTS.get(algorithm), keys, args, usage);
            } catch (RedisException e) {
                throw failed("Redis did not decide for limit '" + policy.name() + "'", e);
            }
            if ((Long) r.get(0) != -1L) {
                return spent(r);
            }
            if (attempt == 1) {
                throw new StoreUnavailableException(
                        "Redis's clock left the period of limit '" + policy.name()
                                + "' twice while it was asked: it is stepping too far to decide",
                        (Throwable) null);
            }
            starts = calendarStarts.around(policy.calendar(), (Long) r.get(1));
        }
    }

    private static List<String> calendarArgs(LimitPolicy p, long offset, long[] starts) {
        List<String> args = new java.util.ArrayList<>(3 + starts.length);
        args.add(Long.toString(p.capacity()));
        args.add(Long.toString(p.cost()));
        args.add(Long.toString(offset));
        for (long s : starts) {
            args.add(Long.toString(s));
        }
        return args;
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark) {
        refund(policy, storeKey, mark, null);
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark, String replay) {
        refund(policy, storeKey, mark, replay, null);
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark, String replay, UsageLedger usage) {
        List<String> keys = replay == null ? keys(storeKey) : List.of(storeKey, StoreKeys.rules(storeKey), replay);
        List<String> args = algorithm == Algorithm.TOKEN_BUCKET
                ? List.of(Long.toString(policy.capacity()), Long.toString(policy.cost()))
                : List.of(Long.toString(mark), Long.toString(policy.cost()));
        try {
            eval(REFUNDS.get(algorithm), keys, args, usage);
        } catch (RedisException e) {
            throw failed("Redis did not give back for limit '" + policy.name() + "'", e);
        }
    }

    private static final LuaScript SETTLE_BUCKET = LuaScript.named("token-bucket-settle");
    private static final LuaScript SETTLE_WINDOW = LuaScript.named("fixed-window-settle");

    @Override
    public boolean settle(LimitPolicy p, String storeKey, long mark, long delta) {
        return settle(p, storeKey, mark, delta, null);
    }

    @Override
    public boolean settle(LimitPolicy p, String storeKey, long mark, long delta, UsageLedger usage) {
        List<String> args;
        LuaScript script;
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            script = SETTLE_BUCKET;
            args = List.of(
                    Long.toString(p.capacity()),
                    Long.toString(p.refillTokens()),
                    Long.toString(p.refillPeriodMicros()),
                    Long.toString(delta));
        } else if (algorithm == Algorithm.FIXED_WINDOW || algorithm == Algorithm.CALENDAR) {
            // a calendar quota's state is a fixed window's, its mark the period's end
            script = SETTLE_WINDOW;
            args = List.of(Long.toString(mark), Long.toString(delta));
        } else {
            return RateLimitStore.super.settle(p, storeKey, mark, delta);
        }
        try {
            Object r = eval(script, keys(storeKey), args, usage);
            return algorithm == Algorithm.TOKEN_BUCKET || (Long) r >= 0;
        } catch (RedisException e) {
            throw failed("Redis did not settle for limit '" + p.name() + "'", e);
        }
    }

    @Override
    public Reservation reserve(LimitPolicy policy, String storeKey, Duration maxWait) {
        return reserve(policy, storeKey, maxWait, null);
    }

    @Override
    public Reservation reserve(LimitPolicy policy, String storeKey, Duration maxWait, UsageLedger usage) {
        if (algorithm != Algorithm.TOKEN_BUCKET) {
            return RateLimitStore.super.reserve(policy, storeKey, maxWait);
        }
        List<String> args = new java.util.ArrayList<>(args(policy));
        args.add(Long.toString(Math.max(1, maxWait.toNanos() / 1000)));
        Object reply;
        try {
            reply = eval(RESERVE, keys(storeKey), args, usage);
        } catch (RedisException e) {
            throw failed("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        return Reservation.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
    }

    @Override
    public boolean leases() {
        return algorithm == Algorithm.TOKEN_BUCKET;
    }

    @Override
    public Granted lease(LimitPolicy policy, String storeKey, LeaseTerms terms) {
        if (!leases()) {
            return RateLimitStore.super.lease(policy, storeKey, terms);
        }
        List<String> args = new java.util.ArrayList<>(args(policy));
        args.add(Long.toString(terms.want()));
        args.add(Long.toString(terms.share()));
        args.add(Long.toString(terms.returned()));
        args.add(terms.holder());
        args.add(Long.toString(Math.max(1, terms.abandonedAfter().toNanos() / 1000)));
        List<String> keys = StoreKeys.hasRules(storeKey)
                ? List.of(storeKey, StoreKeys.rules(storeKey), StoreKeys.leasesOut(storeKey))
                : List.of(storeKey);
        Object reply;
        try {
            reply = redis.eval(LEASE, keys, args);
        } catch (RedisException e) {
            throw failed("Redis did not lease for limit '" + policy.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        long tokens = (Long) r.get(0);
        Decision d = Decision.ofMicros(tokens > 0, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
        return new Granted(tokens, d, (Long) r.get(4));
    }

    @Override
    public java.util.Optional<Decision> peek(LimitPolicy p, String storeKey) {
        List<String> args = List.of(
                windowKind(),
                Long.toString(p.capacity()),
                Long.toString(algorithm == Algorithm.TOKEN_BUCKET ? p.refillTokens() : p.capacity()),
                Long.toString(p.refillPeriodMicros()),
                Long.toString(p.cost()));
        Object reply;
        try {
            reply = redis.eval(PEEK, keys(storeKey), args);
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not answer a peek at limit '" + p.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        return java.util.Optional.of(
                Decision.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3)));
    }

    @Override
    public long credit(LimitPolicy p, String storeKey, long tokens) {
        List<String> args = List.of(
                windowKind(),
                Long.toString(p.capacity()),
                Long.toString(algorithm == Algorithm.TOKEN_BUCKET ? p.refillTokens() : p.capacity()),
                Long.toString(p.refillPeriodMicros()),
                Long.toString(tokens));
        try {
            return (Long) redis.eval(CREDIT, keys(storeKey), args);
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not credit limit '" + p.name() + "'", e);
        }
    }

    /**
     * A script's keys: the bucket and the client's operator rules beside it (same Cluster slot); a key
     * without a hash tag (not {@link StoreKeys#of}'s) has no rules. Public for the benchmarks, whose raw
     * {@code EVALSHA} must send what a decision sends.
     */
    public static List<String> keys(String storeKey) {
        return StoreKeys.hasRules(storeKey) ? List.of(storeKey, StoreKeys.rules(storeKey)) : List.of(storeKey);
    }

    @Override
    public boolean forget(String storeKey) {
        try {
            return redis.del(storeKey);
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not forget a bucket", e);
        }
    }

    /** The script's arguments: {@code capacity, refill tokens, period us, cost}; a window's {@code limit, window us, cost}. */
    private List<String> args(LimitPolicy p) {
        PolicyArgs last = lastArgs;
        if (last != null && last.policy() == p) {
            return last.args();
        }
        String capacity = Long.toString(p.capacity());
        String cost = Long.toString(p.cost());
        String period = Long.toString(p.refillPeriodMicros());
        List<String> args = algorithm == Algorithm.TOKEN_BUCKET
                ? List.of(capacity, Long.toString(p.refillTokens()), period, cost)
                : List.of(capacity, period, cost);
        lastArgs = new PolicyArgs(p, args);
        return args;
    }

    /**
     * What a failed script call throws: {@link ArgumentsRefusedException} when the script refused its
     * arguments ({@link RedisFailures#argumentsRefused}: a bug, the call is denied), else {@link
     * StoreUnavailableException}, classified by the guard.
     */
    private static StoreUnavailableException failed(String message, RedisException e) {
        return RedisFailures.argumentsRefused(e)
                ? new ArgumentsRefusedException(message + ": the script refused its arguments", e)
                : new StoreUnavailableException(message, e);
    }

    /** What {@code peek.lua} and {@code credit.lua} read the state as: a calendar quota's is a fixed window's. */
    private String windowKind() {
        return algorithm == Algorithm.CALENDAR ? Algorithm.FIXED_WINDOW.keyCode() : algorithm.keyCode();
    }

    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
