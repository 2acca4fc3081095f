package dev.tollgate.restclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientOverride;
import dev.tollgate.ClientRules;
import dev.tollgate.Decision;
import dev.tollgate.internal.config.PacingLimit;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.http.PartnerFields;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pacer on a real engine and a real Redis: what a partner announces becomes its bucket's policy (at 9/10 of
 * the partner's rate), and the pauses it asks for are waited when they fit the budget. Time passes through the
 * pacer's driven clock and recording sleepers: nothing here sleeps.
 */
class PacerTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final String PARTNER = "http://partner.example:8080";
    private static final Instant NOW = Instant.parse("2026-12-03T07:00:00Z");
    private static final Duration BUDGET = Duration.ofSeconds(5);

    /** The pacer's clock ({@code nanoTime}), moved only by its sleeper. */
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    /** What the engine's acquire and the pacer would have slept. */
    private final List<Duration> engineSleeps = new CopyOnWriteArrayList<>();

    private final List<Duration> pacerSleeps = new CopyOnWriteArrayList<>();
    private Engine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.admin().removeOverride(PacingLimit.NAME, PARTNER);
            engine.admin().unblock(PacingLimit.NAME, PARTNER);
            engine.admin().reset(PacingLimit.NAME, PARTNER);
            engine.close();
        }
    }

    private Pacer pacer(Duration budget, String... settings) {
        String[] all = Stream.concat(Stream.of("tollgate.redis.url", redis.url()), Stream.of(settings))
                .toArray(String[]::new);
        engine = Engine.builder(TestSettings.read(all))
                .sleeper(engineSleeps::add)
                .build();
        engine.admin().removeOverride(PacingLimit.NAME, PARTNER);
        engine.admin().unblock(PacingLimit.NAME, PARTNER);
        engine.admin().reset(PacingLimit.NAME, PARTNER);
        // The pacer's waits: its clock moves on, and the partner's block (what it waited for) has passed.
        return new Pacer(
                engine,
                engine.admin(),
                budget,
                d -> {
                    pacerSleeps.add(d);
                    nanos.addAndGet(d.toNanos());
                    engine.admin().unblock(PacingLimit.NAME, PARTNER);
                },
                nanos::get);
    }

    private static PartnerFields answer(String... fields) {
        Map<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < fields.length; i += 2) {
            m.put(fields[i], fields[i + 1]);
        }
        return PartnerFields.read(m::get, NOW);
    }

    private ClientRules rules() {
        return engine.admin().rules(PacingLimit.NAME, PARTNER);
    }

    @Test
    void callsBeforeAnyAnnouncementAreNeverDenied() throws Exception {
        Pacer pacer = pacer(Duration.ZERO);
        for (int i = 0; i < 1000; i++) {
            Decision d = pacer.turn(PARTNER, pacer.deadline());
            assertTrue(d.allowed() && !d.degraded(), "call " + i + ": " + d);
        }
        assertEquals(List.of(), engineSleeps);
        assertEquals(List.of(), pacerSleeps);
        assertEquals(ClientRules.NONE, rules());
    }

    @Test
    void anAnnouncedPolicyBecomesThePartnersBucketAtNineTenthsOfItsRate() throws Exception {
        Pacer pacer = pacer(BUDGET);
        pacer.learn(PARTNER, answer("RateLimit-Policy", "\"partner\";q=5;w=1"), false);
        // 5 per 1 s paced as 5 per 1112 ms (1000 ms * 10/9, rounded up).
        assertEquals(
                ClientOverride.tokenBucket(5, 5, Duration.ofMillis(1112)),
                rules().override().orElseThrow());
        // 5 per minute paced as 5 per 66 667 ms: a burst of 5, then one per 13 333.4 ms, beyond the 5 s budget
        // (and well within the override's life, which would bound the wait).
        pacer.learn(PARTNER, answer("RateLimit-Policy", "\"partner\";q=5;w=60"), false);
        assertEquals(
                ClientOverride.tokenBucket(5, 5, Duration.ofMillis(66_667)),
                rules().override().orElseThrow());
        for (int i = 0; i < 5; i++) {
            assertTrue(pacer.turn(PARTNER, pacer.deadline()).allowed(), "burst call " + i);
        }
        Decision sixth = pacer.turn(PARTNER, pacer.deadline());
        assertFalse(sixth.allowed(), "the sixth call's turn comes too late: " + sixth);
        assertTrue(
                sixth.retryAfter().compareTo(Duration.ofSeconds(13)) > 0
                        && sixth.retryAfter().compareTo(Duration.ofMillis(13_334)) <= 0,
                "in one refill at 9/10 of the partner's rate, 13 333.4 ms: " + sixth);
        assertEquals(List.of(), engineSleeps, "answered at once, without waiting");
        assertEquals(List.of(), pacerSleeps);
    }

    @Test
    void theOlderXRateLimitFieldsPauseThePartnerUntilItsReset() {
        Pacer pacer = pacer(BUDGET);
        pacer.learn(
                PARTNER,
                answer("X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "3"),
                false);
        ClientRules r = rules();
        assertTrue(r.blocked(), "none left, reset in 3 s: the partner's bucket is blocked: " + r);
        assertTrue(r.blockLeft().compareTo(Duration.ofSeconds(3)) <= 0, "for its reset, 3 s: " + r);
        assertEquals(java.util.Optional.empty(), r.override(), "no rate was announced: " + r);
    }

    @Test
    void aConfiguredLimitWinsOverAnAnnouncement() throws Exception {
        Pacer pacer = pacer(
                Duration.ZERO,
                "tollgate.limits.tollgate-pacing.capacity",
                "2",
                "tollgate.limits.tollgate-pacing.refill-tokens",
                "1",
                "tollgate.limits.tollgate-pacing.refill-period",
                "1h");
        pacer.learn(PARTNER, answer("RateLimit-Policy", "\"partner\";q=100;w=1"), false);
        pacer.learn(PARTNER, answer("Retry-After", "1"), true);
        assertEquals(ClientRules.NONE, rules(), "nothing put on the configured limit's bucket");
        assertTrue(pacer.turn(PARTNER, pacer.deadline()).allowed());
        assertTrue(pacer.turn(PARTNER, pacer.deadline()).allowed());
        Decision third = pacer.turn(PARTNER, pacer.deadline());
        assertFalse(third.allowed(), "the configured 2 per hour, not the announced 100 per second: " + third);
    }

    @Test
    void aPartners429WithinTheBudgetIsWaitedForThenTheTurnComes() throws Exception {
        Pacer pacer = pacer(BUDGET);
        pacer.learn(PARTNER, answer("Retry-After", "2"), true);
        assertTrue(rules().blocked(), "the 429 blocks the partner's bucket: " + rules());
        long deadline = pacer.deadline();
        Decision d = pacer.turn(PARTNER, deadline);
        assertTrue(d.allowed(), "the turn comes once the partner's pause has passed: " + d);
        assertEquals(1, pacerSleeps.size(), "one wait, for the partner's pause: " + pacerSleeps);
        Duration waited = pacerSleeps.get(0);
        assertTrue(
                waited.compareTo(Duration.ZERO) > 0 && waited.compareTo(Duration.ofSeconds(2)) <= 0,
                "what is left of the 2 s Retry-After: " + waited);
        assertEquals(BUDGET.minus(waited), pacer.left(deadline), "the wait is spent from the budget");
    }

    @Test
    void aPartners429BeyondTheBudgetIsNotWaitedFor() throws Exception {
        Pacer pacer = pacer(Duration.ofSeconds(1));
        pacer.learn(PARTNER, answer("Retry-After", "30"), true);
        Decision d = pacer.turn(PARTNER, pacer.deadline());
        assertFalse(d.allowed(), "30 s do not fit a 1 s budget: " + d);
        assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(1)) > 0, "with the partner's pause: " + d);
        assertEquals(List.of(), pacerSleeps, "answered at once, without waiting");
    }

    @Test
    void hostileFieldsAreIgnored() throws Exception {
        Pacer pacer = pacer(Duration.ZERO);
        String[][] hostile = {
            {"RateLimit-Policy", "\"p\";q=0;w=1"},
            {"RateLimit-Policy", "\"p\";q=5;w=0"},
            {"RateLimit-Policy", "\"p\";q=99999999999;w=1"},
            {"RateLimit-Policy", "\"p\";q=5;w=999999999"},
            {"RateLimit-Policy", "\"p\";q=5;w=1, ".repeat(300)},
            {"RateLimit-Policy", "\"p\";q=-5;w=1"},
            {"RateLimit", "\"p\";r=0;t=99999999"},
            {"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "-3"},
            {"Retry-After", "999999999"},
            {"Retry-After", "-1"},
            {"Retry-After", "soon"},
        };
        for (String[] fields : hostile) {
            pacer.learn(PARTNER, answer(fields), true);
            assertEquals(ClientRules.NONE, rules(), "ignored: " + String.join(": ", fields));
        }
        assertTrue(pacer.turn(PARTNER, pacer.deadline()).allowed(), "and the partner's calls go on unpaced");
    }
}
