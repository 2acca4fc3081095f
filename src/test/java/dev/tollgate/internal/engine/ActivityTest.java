package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The console's recent counts: per slot, a reused slot starts at zero, concurrent counts are all kept, and
 * a decision is counted in the slot of the last tick.
 */
class ActivityTest {

    private static final long SLOT = Activity.SLOT_SECONDS * 1_000_000_000L;
    private static final LimitSpec API = new LimitSpec(LimitPolicy.quota("api", 10), new KeySpec.Global(), false);
    private static final Decision ALLOWED = Decision.ofMicros(true, 1, 0, 0);
    private static final Decision DENIED = Decision.ofMicros(false, 0, 1000, 1000);

    @Test
    void countsEachOutcomeInTheSlotUnderWayAndClearsASlotWhenItIsReused() {
        AtomicLong now = new AtomicLong(1_000);
        Activity activity = new Activity(now::get);
        activity.onDecision(API, ALLOWED, 0);
        activity.onDecision(API, ALLOWED, 0);
        activity.onDecision(API, DENIED, 0);
        activity.onDecision(API, Decision.degraded(true), 0);
        activity.onHeldDenial(API);
        List<ActivitySlot> recent = activity.recent().get("api");
        assertEquals(Activity.SLOTS, recent.size());
        assertEquals(new ActivitySlot(2, 1, 1, 0, 1), recent.get(Activity.SLOTS - 1));

        now.addAndGet(SLOT); // the next slot
        activity.tick();
        activity.onDecision(API, DENIED, 0);
        recent = activity.recent().get("api");
        assertEquals(new ActivitySlot(2, 1, 1, 0, 1), recent.get(Activity.SLOTS - 2));
        assertEquals(new ActivitySlot(0, 1, 0, 0, 0), recent.get(Activity.SLOTS - 1));

        now.addAndGet(SLOT * (Activity.SLOTS - 1)); // the first slot's place again, thirty slots later
        activity.tick();
        activity.onDecision(API, ALLOWED, 0);
        recent = activity.recent().get("api");
        assertEquals(new ActivitySlot(1, 0, 0, 0, 0), recent.get(Activity.SLOTS - 1));
        assertEquals(new ActivitySlot(0, 0, 0, 0, 0), recent.get(Activity.SLOTS - 2));
        assertEquals(new ActivitySlot(0, 1, 0, 0, 0), recent.get(0)); // the oldest shown; the first slot is gone
    }

    @Test
    void keepsEveryCountOfThreadsCountingAtOnceAcrossANewSlot() throws Exception {
        AtomicLong now = new AtomicLong(0);
        Activity activity = new Activity(now::get);
        activity.onDecision(API, DENIED, 0); // slot 0, then every thread counts in slot 30, the same place
        now.set(SLOT * Activity.SLOTS);
        activity.tick();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    activity.onDecision(API, ALLOWED, 0);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(
                new ActivitySlot(80_000, 0, 0, 0, 0),
                activity.recent().get("api").get(Activity.SLOTS - 1));
    }

    @Test
    void countsADecisionInTheSlotOfTheLastTickAndAReadShowsTheSlotUnderWay() {
        AtomicLong now = new AtomicLong(0);
        Activity activity = new Activity(now::get);
        now.set(SLOT + 1); // the next slot has begun, and no tick has seen it
        activity.onDecision(API, ALLOWED, 0);
        List<ActivitySlot> recent = activity.recent().get("api"); // the read ticks first
        assertEquals(new ActivitySlot(1, 0, 0, 0, 0), recent.get(Activity.SLOTS - 2));
        assertEquals(ActivitySlot.EMPTY, recent.get(Activity.SLOTS - 1));

        activity.onDecision(API, DENIED, 0); // in the slot the read moved on to
        activity.tick();
        activity.tick(); // a tick in the same slot moves nothing
        now.set(SLOT - 1); // nor one of a clock that went back
        activity.tick();
        recent = activity.recent().get("api");
        assertEquals(new ActivitySlot(1, 0, 0, 0, 0), recent.get(Activity.SLOTS - 2));
        assertEquals(new ActivitySlot(0, 1, 0, 0, 0), recent.get(Activity.SLOTS - 1));
    }

    @Test
    void theEngineMovesTheSlotOnWithItsTicks() {
        AtomicLong micros = new AtomicLong(0);
        DrivenScheduler ticks = new DrivenScheduler(micros);
        try (Engine engine = engine(micros, ticks, "10", "1s", "true")) {
            engine.check("api", "alice");
            ticks.advance(Duration.ofSeconds(Activity.SLOT_SECONDS)); // ticks every second on the way
            engine.check("api", "alice");
            List<ActivitySlot> recent = engine.recentActivity().get("api");
            assertEquals(new ActivitySlot(1, 0, 0, 0, 0), recent.get(Activity.SLOTS - 2));
            assertEquals(new ActivitySlot(1, 0, 0, 0, 0), recent.get(Activity.SLOTS - 1));
        }
        assertEquals(0, ticks.running(), "the engine's tick is cancelled when it closes");
    }

    /**
     * The console's records are read by the operator resource alone: while it is off (the default) a
     * decision tells them nothing and no tick runs, so an in-process check pays for none of it.
     */
    @Test
    void whileTheOperatorResourceIsOffNothingIsCountedAndNothingTicks() {
        AtomicLong micros = new AtomicLong(0);
        DrivenScheduler ticks = new DrivenScheduler(micros);
        try (Engine engine = engine(micros, ticks, "1", "1h", "false")) {
            assertEquals(0, ticks.running(), "no tick is scheduled");
            assertTrue(engine.check("api", "alice").allowed());
            assertFalse(engine.check("api", "alice").allowed());
            assertEquals(Map.of(), engine.recentActivity());
            assertEquals(List.of(), engine.mostDeniedClients());
        }
    }

    @Test
    void countsEachLimitInItsOwnSeriesAndAReloadedLimitInItsName() {
        Activity activity = new Activity(() -> 0);
        List<LimitSpec> limits = new ArrayList<>();
        for (int i = 0; i < 200; i++) { // more limits than the memo has places
            limits.add(new LimitSpec(LimitPolicy.quota("limit-" + i, 10), new KeySpec.Global(), false));
        }
        for (int round = 0; round < 3; round++) {
            limits.forEach(l -> activity.onDecision(l, ALLOWED, 0));
        }
        LimitSpec reloaded = new LimitSpec(LimitPolicy.quota("limit-7", 10), new KeySpec.Global(), false);
        activity.onDecision(reloaded, DENIED, 0);
        var recent = activity.recent();
        assertEquals(200, recent.size());
        for (int i = 0; i < 200; i++) {
            ActivitySlot expected = i == 7 ? new ActivitySlot(3, 1, 0, 0, 0) : new ActivitySlot(3, 0, 0, 0, 0);
            assertEquals(expected, recent.get("limit-" + i).get(Activity.SLOTS - 1), "limit-" + i);
        }
    }

    /** An engine of limit {@code api} ({@code tokens} per {@code period}) on a driven clock and ticks. */
    private static Engine engine(AtomicLong micros, DrivenScheduler ticks, String tokens, String period, String admin) {
        return Engine.builder(TestSettings.read(
                        "tollgate.limits.api.capacity", tokens,
                        "tollgate.limits.api.refill-tokens", tokens,
                        "tollgate.limits.api.refill-period", period,
                        "tollgate.admin.enabled", admin))
                .nanoTime(() -> micros.get() * 1000)
                .activityTicks(ticks)
                .build();
    }
}
