package dev.tollgate.internal.redis;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.core.ServerCount;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The servers sharing this Redis, known by a heartbeat ({@code servers-heartbeat.lua}): every {@link
 * #INTERVAL} each server puts its id in one sorted set ({@code [<key prefix>]tollgate:{servers}}, one
 * key, so one cluster slot) scored with the instant, by Redis {@code TIME}, its beat stops counting
 * ({@link #EXPIRY} later); the script drops the expired members and answers how many are left, and that
 * is {@link #live()} until the next beat. A beat that fails keeps the count last learned, so during an
 * outage it is the count from before; the engine's guard for beats sends none while the breaker is open
 * and never lets a beat's failure count toward it (a hung Redis costs a beat the I/O timeout, on the
 * heartbeat's own thread), and the next beat is the retry.
 * Closing stops the beats and takes this server's member out, so the others count it out at their next
 * beat rather than after its expiry.
 */
public final class LiveServers implements ServerCount, AutoCloseable {

    /** How often a server beats: the live count is at most this old while Redis answers. */
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    /** How long a beat counts: a server that stopped beating (killed, cut off) is counted this long at most. */
    public static final Duration EXPIRY = Duration.ofSeconds(5);

    private static final Logger LOG = Logger.getLogger(LiveServers.class.getName());
    private static final LuaScript SCRIPT = LuaScript.named("servers-heartbeat");

    private final GuardedRedis redis;
    private final String key;
    private final String id;
    private final long expiryMillis;
    private final Scheduler.Task beats;
    private volatile int live = 1;
    private volatile boolean failing;

    private LiveServers(
            GuardedRedis redis, KeyPrefix prefix, String id, Scheduler scheduler, Duration interval, Duration expiry) {
        if (expiry.compareTo(interval) <= 0) {
            throw new IllegalArgumentException(
                    "a beat must count longer than the interval between beats, but " + expiry + " <= " + interval);
        }
        this.redis = redis;
        this.key = key(prefix);
        this.id = id;
        this.expiryMillis = expiry.toMillis();
        this.beats = scheduler.every(interval, this::beat);
    }

    /**
     * Beats on {@code scheduler} every {@link #INTERVAL}, each beat counting {@link #EXPIRY}, under an id
     * made of {@code holder} (the lock holder's name, which operators know) and a random part, so two
     * engines in one JVM are two servers.
     */
    public static LiveServers start(GuardedRedis redis, KeyPrefix prefix, String holder, Scheduler scheduler) {
        return start(redis, prefix, holder, scheduler, INTERVAL, EXPIRY);
    }

    /** As {@link #start(GuardedRedis, KeyPrefix, String, Scheduler)}, with other timings (for tests). */
    public static LiveServers start(
            GuardedRedis redis,
            KeyPrefix prefix,
            String holder,
            Scheduler scheduler,
            Duration interval,
            Duration expiry) {
        return new LiveServers(redis, prefix, holder + "/" + UUID.randomUUID(), scheduler, interval, expiry);
    }

    /** The set's key: {@code [<key prefix>]tollgate:{servers}}. */
    static String key(KeyPrefix prefix) {
        return prefix.apply("tollgate:{servers}");
    }

    /** The live servers as last learned, this one included: 1 until the first beat is answered. */
    @Override
    public int live() {
        return live;
    }

    /** This server's id among them. */
    public String id() {
        return id;
    }

    /** One beat: what the scheduler runs. A failed one keeps the last count; the next beat tries again. */
    void beat() {
        try {
            learn(call(expiryMillis));
            if (failing) {
                failing = false;
                LOG.info(() -> "Tollgate: the live-servers heartbeat is answered again (" + live + " servers)");
            }
        } catch (StoreUnavailableException e) {
            if (!failing) {
                failing = true;
                LOG.log(
                        Level.FINE,
                        "Tollgate: a live-servers heartbeat failed; the last count ({0}) stands until one is answered"
                                + " ({1})",
                        new Object[] {live, Failures.describe(e)});
            }
        }
    }

    private void learn(long count) {
        int now = (int) Math.max(1, Math.min(Integer.MAX_VALUE, count));
        int before = live;
        live = now;
        if (now != before) {
            LOG.info(() -> "Tollgate: " + now + " servers share this Redis now (were " + before + ")");
        }
    }

    private long call(long expiry) {
        Object answer =
                redis.eval("beat for the live servers", SCRIPT, List.of(key), List.of(id, Long.toString(expiry)));
        if (answer instanceof Long count) {
            return count;
        }
        // Not the script's answer (it returns a count): a beat that learned nothing, as if it had failed.
        throw new StoreUnavailableException(
                "Redis answered a live-servers beat with a "
                        + (answer == null ? "null" : answer.getClass().getSimpleName()),
                null);
    }

    /** Stops the beats and takes this server out of the set; a Redis that cannot be asked just lets it expire. */
    @Override
    public void close() {
        beats.cancel();
        try {
            call(0);
        } catch (StoreUnavailableException e) {
            LOG.log(Level.FINE, "Tollgate: leaving the live servers failed; this server's beat expires instead", e);
        }
    }
}
