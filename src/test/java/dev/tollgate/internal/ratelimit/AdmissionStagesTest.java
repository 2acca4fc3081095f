package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The stages of the decision chain, each shown by what the limiter answers and what its listener hears,
 * on in-process stores and a driven clock: a shadow limit passes what it denies, a call too costly for
 * any bucket is denied unasked, a denial is held until its retry-after only where that is exact, and a
 * store that cannot be asked gives the local fallback, the load share or the degraded decision.
 */
class AdmissionStagesTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> heard = new ArrayList<>();

    /** Null: the store answers; else what every call to it throws. */
    private StoreUnavailableException outage;

    private final Guard guard = new Guard() {
        @Override
        public <T> T call(String storeKey, Callable<T> call) {
            if (outage != null) {
                throw outage;
            }
            return Guard.DIRECT.call(storeKey, call);
        }
    };

    private final DecisionListener listener = new DecisionListener() {
        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {
            heard.add(limit.name() + (decision.allowed() ? " allowed" : " denied"));
        }

        @Override
        public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
            heard.add(limit.name() + " degraded " + cause.tag() + (decision.allowed() ? " allowed" : " denied"));
        }

        @Override
        public void onCharged(Charged charged, long nanos) {
            heard.add("charged " + charged.charge().name() + (charged.decision().allowed() ? " allowed" : " denied"));
        }

        @Override
        public void onWait(LimitSpec limit, Duration wait) {
            heard.add("wait " + limit.name() + " " + wait.toMillis());
        }

        @Override
        public void onRefund(LimitSpec limit, boolean given) {
            heard.add("refund " + limit.name() + (given ? "" : " lost"));
        }

        @Override
        public void onLocalDecision(LimitSpec limit, Decision decision) {
            heard.add("local " + limit.name() + (decision.allowed() ? " allowed" : " denied"));
        }

        @Override
        public void onHeldDenial(LimitSpec limit) {
            heard.add("held " + limit.name());
        }

        @Override
        public boolean timesDecisions() {
            return false;
        }
    };

    private long nanos() {
        return clock.nowMicros() * 1000;
    }

    /** 2 tokens, one back every 500 ms. */
    private static LimitSpec bucket(String name) {
        return new LimitSpec(new LimitPolicy(name, 2, 1, Duration.ofMillis(500), 1), new KeySpec.Global(), true);
    }

    private RateLimiter limiter(DeniedCache denials, Map<Algorithm, RateLimitStore> localStores) {
        return new RateLimiter(
                Map.of(
                        Algorithm.TOKEN_BUCKET,
                        InProcessRateLimitStore.tokenBucket(clock),
                        Algorithm.FIXED_WINDOW,
                        InProcessRateLimitStore.fixedWindow(clock)),
                localStores,
                denials,
                guard,
                listener,
                this::nanos,
                StoreKeys.DEFAULT);
    }

    private RateLimiter holding() {
        return limiter(DeniedCache.of(100, this::nanos), Map.of());
    }

    private RateLimiter plain() {
        return limiter(null, Map.of());
    }

    // Shadow

    @Test
    void aShadowLimitPassesWhatItDeniesAndTheListenerHearsTheDenial() {
        LimitSpec shadow = bucket("s").withMode(LimitMode.SHADOW);
        RateLimiter limiter = plain();
        limiter.check(shadow, "*");
        limiter.check(shadow, "*");
        try (LogCapture log = new LogCapture(ShadowLog.class)) {
            Decision passed = limiter.check(shadow, "*");
            assertEquals(new Decision(true, 0, Duration.ZERO, Duration.ofSeconds(1), false), passed);
            assertEquals(1, log.at(Level.INFO).size(), "the would-be denial is logged: " + log.at(Level.INFO));
        }
        assertEquals(List.of("s allowed", "s allowed", "s denied"), heard);
        assertFalse(limiter.check(bucket("s"), "*").allowed(), "what it took stays taken: enforced, it denies");
    }

    @Test
    void aShadowLimitNeverMakesACallWait() {
        LimitSpec shadow = bucket("s").withMode(LimitMode.SHADOW);
        RateLimiter limiter = plain();
        limiter.check(shadow, "*");
        limiter.check(shadow, "*");
        Admission a = limiter.admit(List.of(Charge.of(shadow, "*")), Duration.ofMillis(100));
        assertTrue(a.allowed(), "a wait of 500 ms is more than the call may wait, and a shadow denies nothing");
        assertEquals(Duration.ZERO, a.delay());
        assertFalse(a.charged().get(0).spent(), "nothing was taken");
    }

    @Test
    void aShadowLimitKeepsTheDegradedMarkOfWhatItPasses() {
        LimitSpec shadow = new LimitSpec(
                        new LimitPolicy("s", 2, 1, Duration.ofMillis(500), 1), new KeySpec.Global(), false)
                .withMode(LimitMode.SHADOW);
        outage = new StoreUnavailableException("down", new RuntimeException("refused"), DegradedCause.REFUSED);
        Decision d = plain().check(shadow, "*");
        assertTrue(d.allowed(), "fail-closed, but a shadow");
        assertTrue(d.degraded());
        assertEquals(List.of("s degraded refused denied"), heard);
    }

    @Test
    void anEnforcedLimitDenies() {
        RateLimiter limiter = plain();
        limiter.check(bucket("e"), "*");
        limiter.check(bucket("e"), "*");
        assertEquals(
                new Decision(false, 0, Duration.ofMillis(500), Duration.ofSeconds(1), false),
                limiter.check(bucket("e"), "*"));
    }

    // TooCostly

    @Test
    void aCallCostingMoreThanTheBucketHoldsIsDeniedUnaskedAndTold() {
        RateLimiter limiter = plain();
        LimitSpec withCandidate = bucket("e").withCandidate(bucket("c").withMode(LimitMode.CANDIDATE));
        Admission a = limiter.admit(List.of(Charge.of(withCandidate, "*").costing(3)), Duration.ZERO);
        assertEquals(new Decision(false, 0, Decision.NEVER, Duration.ZERO, false), a.decision(0));
        assertEquals(List.of("charged e denied"), heard, "told, and its candidate was not asked");
        heard.clear();
        assertEquals(2, limiter.check(bucket("e"), "*").remaining() + 1, "the bucket was not spent");
    }

    // Candidate

    @Test
    void aCandidateSpendsFromItsOwnBucketAndDecidesNothing() {
        LimitSpec strict = new LimitSpec(
                        new LimitPolicy("e", 1, 1, Duration.ofSeconds(1), 1), new KeySpec.Global(), true)
                .withMode(LimitMode.CANDIDATE);
        LimitSpec limit = bucket("e").withCandidate(strict);
        RateLimiter limiter = plain();
        assertTrue(limiter.check(limit, "*").allowed());
        assertTrue(limiter.check(limit, "*").allowed(), "the candidate denies, the limit does not");
        assertEquals(List.of("e.shadow allowed", "e allowed", "e.shadow denied", "e allowed"), heard);
    }

    // Told

    @Test
    void anAdmissionsPartsAreToldAsChargesAndItsWaitsAsWaits() {
        RateLimiter limiter = plain();
        limiter.check(bucket("e"), "*");
        limiter.check(bucket("e"), "*");
        Admission a = limiter.admit(List.of(Charge.of(bucket("e"), "*")), Duration.ofSeconds(1));
        assertEquals(Duration.ofMillis(500), a.delay());
        assertEquals(List.of("e allowed", "e allowed", "charged e allowed", "wait e 500"), heard);
    }

    // HeldDenials

    @Test
    void aDeniedKeyIsAnsweredHereUntilItsRetryAfter() {
        RateLimiter limiter = holding();
        limiter.check(bucket("e"), "*");
        limiter.check(bucket("e"), "*");
        limiter.check(bucket("e"), "*");
        clock.elapse(Duration.ofMillis(200));
        assertEquals(
                new Decision(false, 0, Duration.ofMillis(300), Duration.ofMillis(800), false),
                limiter.check(bucket("e"), "*"));
        clock.elapse(Duration.ofMillis(300));
        assertTrue(limiter.check(bucket("e"), "*").allowed(), "the retry-after passed: the store is asked");
        assertEquals(List.of("e allowed", "e allowed", "e denied", "held e", "e denied", "e allowed"), heard);
    }

    @Test
    void withoutACacheEveryCallAsksTheStore() {
        RateLimiter limiter = plain();
        for (int i = 0; i < 4; i++) {
            limiter.check(bucket("e"), "*");
        }
        assertEquals(List.of("e allowed", "e allowed", "e denied", "e denied"), heard);
    }

    @Test
    void aDenialIsHeldOnlyForACallUnderTheLimitsOwnPolicyAndCost() {
        RateLimiter limiter = holding();
        LimitSpec e = bucket("e");
        limiter.check(e, "*");
        limiter.check(e, "*");
        limiter.check(e, "*"); // denied and held
        heard.clear();
        limiter.admit(List.of(Charge.of(e, "*").costing(2)), Duration.ZERO);
        limiter.admit(
                List.of(Charge.of(e, "*").under("gold", new LimitPolicy("e", 2, 1, Duration.ofMillis(500), 1))),
                Duration.ZERO);
        limiter.check(e.withIdempotencyWindow(Duration.ofMinutes(1)), "*", new Repeat("r"));
        assertEquals(List.of("charged e denied", "charged e denied", "e denied"), heard, "each asked the store");
    }

    @Test
    void aCostlierDenialIsNotHeldForTheLimitsOwnCalls() {
        RateLimiter limiter = holding();
        LimitSpec e = bucket("e");
        limiter.check(e, "*");
        limiter.admit(List.of(Charge.of(e, "*").costing(2)), Duration.ZERO); // denied: 1 left
        heard.clear();
        assertTrue(limiter.check(e, "*").allowed(), "the costlier denial was not held for this one");
        assertEquals(List.of("e allowed"), heard);
    }

    @Test
    void aDegradedDenialIsNotHeld() {
        RateLimiter limiter = holding();
        LimitSpec closed =
                new LimitSpec(new LimitPolicy("e", 2, 1, Duration.ofMillis(500), 1), new KeySpec.Global(), false);
        outage = new StoreUnavailableException("down", new RuntimeException("refused"), DegradedCause.REFUSED);
        assertFalse(limiter.check(closed, "*").allowed());
        outage = null;
        assertTrue(limiter.check(closed, "*").allowed(), "Redis is back: asked, not held");
        assertEquals(List.of("e degraded refused denied", "e allowed"), heard);
    }

    @Test
    void forgottenDenialsAreAskedOfTheStoreAgain() {
        RateLimiter limiter = holding();
        LimitSpec e = bucket("e");
        LimitSpec f = bucket("f");
        for (int i = 0; i < 3; i++) {
            limiter.check(e, "*");
            limiter.check(f, "*");
        }
        limiter.forgetDenials(limiter.keys().of(e, "*"));
        heard.clear();
        limiter.check(e, "*");
        limiter.check(f, "*");
        assertEquals(List.of("e denied", "held f", "f denied"), heard, "only e forgotten");
        limiter.forgetDenials(null);
        heard.clear();
        limiter.check(e, "*");
        limiter.check(f, "*");
        assertEquals(List.of("e denied", "f denied"), heard, "every key forgotten");
    }

    @Test
    void aRefundForgetsTheDenialHeldForItsKey() {
        RateLimiter limiter = holding();
        LimitSpec e = new LimitSpec(new LimitPolicy("e", 3, 1, Duration.ofMillis(500), 2), new KeySpec.Global(), true);
        LimitSpec other = bucket("o");
        limiter.check(e, "*"); // 1 left
        limiter.check(e, "*"); // denied and held
        limiter.check(other, "*");
        limiter.check(other, "*");
        heard.clear();
        Admission a = limiter.admit(List.of(Charge.of(e, "*").costing(1), Charge.of(other, "*")), Duration.ZERO);
        assertFalse(a.allowed());
        limiter.check(e, "*");
        assertEquals(
                List.of("charged e allowed", "charged o denied", "refund e", "e denied"),
                heard,
                "the token given back ended the hold: asked again");
    }

    // the key too long for a bucket

    @Test
    void aKeyTooLongForABucketRefusesTheAdmissionBeforeAnythingIsSpent() {
        RateLimiter limiter = plain();
        String tooLong = "k".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH + 1);
        assertThrows(
                ClientKeyTooLongException.class,
                () -> limiter.admit(
                        List.of(Charge.of(bucket("e"), "*"), Charge.of(bucket("f"), tooLong)), Duration.ZERO));
        assertEquals(List.of(), heard, "nothing spent, nothing given back");
    }

    @Test
    void aRepeatOfAnAdmittedCallSpendsNothing() {
        RateLimiter limiter = plain();
        LimitSpec e = bucket("e").withIdempotencyWindow(Duration.ofMinutes(1));
        assertTrue(limiter.check(e, "*", new Repeat("r")).allowed());
        assertTrue(limiter.check(e, "*", new Repeat("r")).allowed(), "the repeat");
        assertTrue(limiter.check(e, "*", null).allowed(), "one token left");
        assertFalse(limiter.check(e, "*", null).allowed());
    }

    @Test
    void aDirectLimiterDecides() {
        RateLimiter direct = RateLimiter.direct(InProcessRateLimitStore.tokenBucket(clock));
        assertTrue(direct.check(bucket("e"), "*").allowed());
        assertTrue(direct.check(bucket("e"), "*").allowed());
        assertFalse(direct.check(bucket("e"), "*").allowed());
    }

    // Fallback

    private static StoreUnavailableException down(DegradedCause cause) {
        return new StoreUnavailableException("down", new RuntimeException(cause.tag()), cause);
    }

    private RateLimiter withLocal() {
        return limiter(null, Map.of(Algorithm.TOKEN_BUCKET, InProcessRateLimitStore.tokenBucket(clock)));
    }

    @Test
    void aLimitWithALocalFallbackIsDecidedInProcessWhileTheStoreIsDown() {
        LimitSpec e = bucket("e").withLocalFallback(new LimitPolicy("e", 1, 1, Duration.ofSeconds(1), 1));
        RateLimiter limiter = withLocal();
        outage = down(DegradedCause.TIMEOUT);
        assertEquals(new Decision(true, 0, Duration.ZERO, Duration.ofSeconds(1), true), limiter.check(e, "*"));
        assertEquals(new Decision(false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), true), limiter.check(e, "*"));
        assertEquals(
                List.of("local e allowed", "e degraded timeout allowed", "local e denied", "e degraded timeout denied"),
                heard);
    }

    @Test
    void withoutAnInProcessStoreForItsAlgorithmALocalFallbackGivesTheDegradedDecision() {
        LimitSpec window = new LimitSpec(
                        new LimitPolicy("w", 2, 2, Duration.ofSeconds(1), 1),
                        Algorithm.FIXED_WINDOW,
                        new KeySpec.Global(),
                        false)
                .withLocalFallback(new LimitPolicy("w", 1, 1, Duration.ofSeconds(1), 1));
        outage = down(DegradedCause.TIMEOUT);
        assertEquals(Decision.degraded(false), withLocal().check(window, "*"));
        assertEquals(List.of("w degraded timeout denied"), heard);
    }

    @Test
    void aFailOpenLimitKeptFromTheStoreByThisServersLoadDecidesByItsLoadShare() {
        LimitSpec e = bucket("e").withLoadShare(new LimitPolicy("e", 1, 1, Duration.ofSeconds(1), 1));
        RateLimiter limiter = withLocal();
        outage = down(DegradedCause.SATURATED);
        assertTrue(limiter.check(e, "*").allowed());
        assertFalse(limiter.check(e, "*").allowed(), "the share of 1 is spent");
        assertEquals(
                List.of(
                        "local e allowed",
                        "e degraded saturated allowed",
                        "local e denied",
                        "e degraded saturated denied"),
                heard);
    }

    @Test
    void anOutageOrAFailClosedLimitGivesTheDegradedDecisionNotTheLoadShare() {
        LimitSpec open = bucket("e").withLoadShare(new LimitPolicy("e", 1, 1, Duration.ofSeconds(1), 1));
        LimitSpec closed = new LimitSpec(
                        new LimitPolicy("c", 2, 1, Duration.ofMillis(500), 1), new KeySpec.Global(), false)
                .withLoadShare(new LimitPolicy("c", 1, 1, Duration.ofSeconds(1), 1));
        RateLimiter limiter = withLocal();
        outage = down(DegradedCause.REFUSED);
        assertEquals(Decision.degraded(true), limiter.check(open, "*"));
        assertEquals(Decision.degraded(true), limiter.check(open, "*"), "no share spent");
        outage = down(DegradedCause.SATURATED);
        assertEquals(Decision.degraded(false), limiter.check(closed, "*"));
        assertEquals(
                List.of("e degraded refused allowed", "e degraded refused allowed", "c degraded saturated denied"),
                heard);
    }

    @Test
    void refusedArgumentsDenyTheCallWhateverTheDegradedDecisionAndAreLoggedOnceAMinute() {
        LimitSpec e = bucket("e").withLocalFallback(new LimitPolicy("e", 5, 5, Duration.ofSeconds(1), 1));
        RateLimiter limiter = withLocal();
        outage = new ArgumentsRefusedException("ERR bad cost", new RuntimeException("bad"));
        try (LogCapture log = new LogCapture(RateLimiter.class)) {
            Decision d = limiter.check(e, "*");
            limiter.check(e, "*");
            assertEquals(new Decision(false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), true), d);
            assertEquals(1, log.at(Level.SEVERE).size(), "once a minute: " + log.at(Level.SEVERE));
            assertTrue(
                    log.at(Level.SEVERE).get(0).contains("limit 'e'"),
                    log.at(Level.SEVERE).get(0));
            assertEquals(List.of(), log.at(Level.WARNING));
            clock.elapse(Duration.ofMinutes(1));
            limiter.check(e, "*");
            assertEquals(2, log.at(Level.SEVERE).size(), "a minute later, again");
        }
        assertEquals(
                List.of("e degraded data-error denied", "e degraded data-error denied", "e degraded data-error denied"),
                heard,
                "no local decision: the call is refused for itself");
    }

    @Test
    void aDataErrorIsLoggedOnceAMinuteAndAnOutageNot() {
        RateLimiter limiter = plain();
        try (LogCapture log = new LogCapture(RateLimiter.class)) {
            outage = down(DegradedCause.TIMEOUT);
            limiter.check(bucket("e"), "*");
            assertEquals(List.of(), log.at(Level.WARNING), "an outage is the breaker's to tell");
            outage = down(DegradedCause.DATA_ERROR);
            limiter.check(bucket("e"), "*");
            limiter.check(bucket("e"), "*");
            limiter.check(bucket("e"), "*");
            assertEquals(1, log.at(Level.WARNING).size(), "once a minute: " + log.at(Level.WARNING));
            assertTrue(
                    log.at(Level.WARNING).get(0).contains("limit 'e'"),
                    log.at(Level.WARNING).get(0));
            clock.elapse(Duration.ofMinutes(1));
            limiter.check(bucket("e"), "*");
            assertEquals(2, log.at(Level.WARNING).size(), "a minute later, again");
            assertEquals(List.of(), log.at(Level.SEVERE), "not a bug");
        }
        assertEquals(
                List.of(
                        "e degraded timeout allowed",
                        "e degraded data-error allowed",
                        "e degraded data-error allowed",
                        "e degraded data-error allowed",
                        "e degraded data-error allowed"),
                heard);
    }

    // settle

    @Test
    void aSettledChargeGivesBackWhatItDidNotCostAndEndsTheHeldDenial() {
        RateLimiter limiter = holding();
        LimitSpec e = new LimitSpec(new LimitPolicy("e", 4, 1, Duration.ofSeconds(1), 3), new KeySpec.Global(), true);
        Charged c = limiter.admit(List.of(Charge.of(e, "*")), Duration.ZERO)
                .charged()
                .get(0);
        limiter.check(e, "*"); // 1 left: denied and held
        heard.clear();
        assertTrue(limiter.settle(c, 1), "2 given back");
        assertEquals(new Decision(true, 0, Duration.ZERO, Duration.ofSeconds(4), false), limiter.check(e, "*"));
        assertEquals(List.of("e allowed"), heard, "asked, not held");
    }

    @Test
    void aChargeSettledAboveItsCostKeepsTheHeldDenial() {
        RateLimiter limiter = holding();
        LimitSpec e = new LimitSpec(new LimitPolicy("e", 4, 1, Duration.ofSeconds(1), 3), new KeySpec.Global(), true);
        Charged c = limiter.admit(List.of(Charge.of(e, "*")), Duration.ZERO)
                .charged()
                .get(0);
        limiter.check(e, "*");
        heard.clear();
        assertTrue(limiter.settle(c, 4), "1 charged on top");
        limiter.check(e, "*");
        assertEquals(List.of("held e", "e denied"), heard, "still held");
    }

    @Test
    void aChargeSettledAtItsCostAsksNothing() {
        RateLimiter limiter = plain();
        Charged c = limiter.admit(List.of(Charge.of(bucket("e"), "*")), Duration.ZERO)
                .charged()
                .get(0);
        outage = down(DegradedCause.TIMEOUT);
        assertTrue(limiter.settle(c, 1), "nothing to ask the store");
        assertFalse(limiter.settle(c, 0), "the store cannot be asked");
        outage = null;
        assertEquals(1, limiter.check(bucket("e"), "*").remaining() + 1, "the unsettled token stays spent");
    }

    @Test
    void onlyASpentChargeSettlesAndOnlyAtACostTheRulesAllow() {
        RateLimiter limiter = plain();
        Charged spent = limiter.admit(List.of(Charge.of(bucket("e"), "*")), Duration.ZERO)
                .charged()
                .get(0);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> limiter.settle(spent, -1));
        assertTrue(bad.getMessage().startsWith("limit 'e': a settled cost is "), bad.getMessage());
        limiter.check(bucket("e"), "*");
        Charged denied = limiter.admit(List.of(Charge.of(bucket("e"), "*")), Duration.ZERO)
                .charged()
                .get(0);
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> limiter.settle(denied, 0));
        assertEquals("limit 'e': a call that spent nothing has nothing to settle", none.getMessage());
    }
}
