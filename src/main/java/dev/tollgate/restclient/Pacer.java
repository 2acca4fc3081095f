package dev.tollgate.restclient;

import dev.tollgate.ClientOverride;
import dev.tollgate.Decision;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.config.PacingLimit;
import dev.tollgate.internal.core.Sleeper;
import dev.tollgate.internal.http.PartnerFields;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Paces the calls to each partner through {@link PacingLimit}, one bucket per partner in Redis, and keeps that
 * bucket's policy in step with what the partner announces (an override on the partner's bucket, so every
 * server paces by it). Framework-free: the filter hands it the partner's fields.
 */
final class Pacer {

    /** How long an announced policy is put on the partner's bucket; announced again, it is put again. */
    static final Duration OVERRIDE_LIFE = Duration.ofMinutes(10);

    /** Paced at 9/10 of the announced rate, so that the network's jitter does not turn into the partner's 429s. */
    static final long HEADROOM_NUMERATOR = 10;

    static final long HEADROOM_DENOMINATOR = 9;

    /** The most times one call asks for its turn again after a partner's block. */
    static final int MAX_TURNS = 8;

    private final RateLimits limits;
    private final RateLimitAdmin admin;
    private final Duration maxWait;
    private final Sleeper sleeper;
    private final LongSupplier nanoTime;
    private final Map<String, Written> written = new ConcurrentHashMap<>();
    private volatile boolean overridesUnsupported;

    /** What this server last put on a partner's bucket, and when ({@code nanoTime}). */
    private record Written(ClientOverride policy, long at) {}

    Pacer(RateLimits limits, RateLimitAdmin admin, Duration maxWait, Sleeper sleeper, LongSupplier nanoTime) {
        if (limits == null || admin == null || maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException(
                    "limits, admin and a maxWait >= 0 are required, but maxWait was " + maxWait);
        }
        this.limits = limits;
        this.admin = admin;
        this.maxWait = maxWait;
        this.sleeper = sleeper;
        this.nanoTime = nanoTime;
    }

    /** The instant ({@code nanoTime}) by which a call starting now, retries included, has had its turn. */
    long deadline() {
        return nanoTime.getAsLong() + maxWait.toNanos();
    }

    /** What is left until {@code deadline}, never negative. */
    Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - nanoTime.getAsLong()));
    }

    void sleep(Duration d) throws InterruptedException {
        sleeper.sleep(d);
    }

    /**
     * Waits for the partner's turn, at most until {@code deadline}: the bucket reserves it (later calls on every
     * server queue behind), or, while the partner is blocked, the block's rest is waited and the turn asked again.
     *
     * @return allowed (or degraded) once it is the call's turn; denied at once when the turn comes too late
     */
    Decision turn(String partner, long deadline) throws InterruptedException {
        for (int i = 1; ; i++) {
            Duration left = left(deadline);
            Decision d = limits.acquire(PacingLimit.NAME, partner, left);
            if (d.allowed() || d.degraded() || i == MAX_TURNS || d.retryAfter().compareTo(left) > 0) {
                return d;
            }
            sleeper.sleep(d.retryAfter());
        }
    }

    /**
     * Takes in what a partner's answer announced: its rate becomes its bucket's policy, and a pause it asks for
     * (none left, or a 429's {@code Retry-After}) while no rate is known blocks its bucket for that long. Nothing
     * when the application configured the pacing limit itself (configured limits win), or keeps limits in process.
     */
    void learn(String partner, PartnerFields fields, boolean tooMany) {
        if (overridesUnsupported || !PacingLimit.builtIn(limits.policy(PacingLimit.NAME))) {
            return;
        }
        try {
            fields.quota().ifPresent(q -> announce(partner, q));
            boolean rateKnown = fields.quota().isPresent() || fresh(written.get(partner));
            Optional<Duration> pause = tooMany ? fields.retryAfter() : fields.exhausted();
            if (!rateKnown && pause.isPresent() && !pause.get().isZero()) {
                admin.block(PacingLimit.NAME, partner, pause.get());
            }
        } catch (UnsupportedOperationException e) {
            overridesUnsupported = true;
        } catch (StoreUnavailableException e) {
            // Redis's failure is counted where decisions are made; the next answer announces again.
        }
    }

    private void announce(String partner, PartnerFields.Quota q) {
        ClientOverride policy = policy(q);
        Written last = written.get(partner);
        if (last != null && last.policy().equals(policy) && fresh(last)) {
            return;
        }
        admin.override(PacingLimit.NAME, partner, policy, OVERRIDE_LIFE);
        written.put(partner, new Written(policy, nanoTime.getAsLong()));
    }

    /** Written again once half its life has passed, so that a partner called steadily never goes unpaced. */
    private boolean fresh(Written w) {
        return w != null && nanoTime.getAsLong() - w.at() < OVERRIDE_LIFE.toNanos() / 2;
    }

    /** The partner's burst, then its calls per window stretched by the headroom. */
    static ClientOverride policy(PartnerFields.Quota q) {
        long millis = -Math.floorDiv(-q.window().toMillis() * HEADROOM_NUMERATOR, HEADROOM_DENOMINATOR);
        return ClientOverride.tokenBucket(q.burst(), q.calls(), Duration.ofMillis(millis));
    }
}
