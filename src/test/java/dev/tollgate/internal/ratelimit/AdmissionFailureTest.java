package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * All or nothing when a store fails half way: no token stays spent on a call that is refused, whatever
 * refused it (a degraded denial, an exception), and a refund that cannot be made is counted.
 */
class AdmissionFailureTest {

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.tokenBucket(clock);
    private final List<String> down = new ArrayList<>();
    private final List<String> refunds = new ArrayList<>();
    private RuntimeException thrown;

    private final Guard guard = new Guard() {
        @Override
        public <T> T call(String storeKey, Callable<T> call) {
            if (thrown != null && storeKey.contains("{b:")) {
                throw thrown;
            }
            if (down.stream().anyMatch(storeKey::contains)) {
                throw new StoreUnavailableException("down", null);
            }
            return Guard.DIRECT.call(storeKey, call);
        }
    };

    private final RateLimiter limiter = new RateLimiter(
            Map.of(Algorithm.TOKEN_BUCKET, store),
            guard,
            new DecisionListener() {
                @Override
                public void onDecision(LimitSpec limit, dev.tollgate.Decision decision, long nanos) {}

                @Override
                public void onRefund(LimitSpec limit, boolean given) {
                    refunds.add(limit.name() + (given ? " given" : " lost"));
                }
            },
            System::nanoTime);

    private static LimitSpec limit(String name, boolean failOpen) {
        return new LimitSpec(LimitPolicy.quota(name, 10), new KeySpec.Global(), failOpen);
    }

    private final LimitSpec a = limit("a", false);

    private long left(LimitSpec l) {
        return limiter.check(l, "k").remaining() + 1;
    }

    @Test
    void aLimitThatFailsClosedWhileRedisIsDownGivesTheOthersTokensBack() {
        down.add("{b:");
        Admission adm = limiter.admit(List.of(Charge.of(a, "k"), Charge.of(limit("b", false), "k")), Duration.ZERO);
        assertFalse(adm.allowed());
        assertTrue(adm.denied().orElseThrow().decision().degraded(), "the degraded denial is the one named");
        assertEquals(List.of("a given"), refunds);
        assertEquals(10, left(a));
    }

    @Test
    void aLimitThatFailsOpenLetsTheCallPassAndTheOthersStaySpent() {
        down.add("{b:");
        Admission adm = limiter.admit(List.of(Charge.of(a, "k"), Charge.of(limit("b", true), "k")), Duration.ZERO);
        assertTrue(adm.allowed());
        assertEquals(List.of(), refunds);
        assertEquals(9, left(a));
        adm.refund();
        assertEquals(List.of("a given"), refunds, "a degraded pass took nothing, so only a is given back");
    }

    @Test
    void anExceptionHalfWayGivesBackWhatWasSpentAndPropagates() {
        thrown = new IllegalStateException("a reply Tollgate cannot read");
        assertThrows(
                IllegalStateException.class,
                () -> limiter.admit(List.of(Charge.of(a, "k"), Charge.of(limit("b", false), "k")), Duration.ZERO));
        thrown = null;
        assertEquals(List.of("a given"), refunds);
        assertEquals(10, left(a));
    }

    @Test
    void aRefundRedisCannotTakeIsCountedAsLost() {
        Admission adm = limiter.admit(List.of(Charge.of(a, "k")), Duration.ZERO);
        down.add("{a:");
        adm.refund();
        assertEquals(List.of("a lost"), refunds);
        down.clear();
        assertEquals(9, left(a), "the tokens stay spent");
    }
}
