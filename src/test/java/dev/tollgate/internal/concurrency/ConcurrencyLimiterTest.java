package dev.tollgate.internal.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Permit;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.testing.DrivenScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The concurrency core on the in-process store, with one driven clock for leases and their renewal. */
class ConcurrencyLimiterTest {

    private final AtomicLong micros = new AtomicLong(1_700_000_000_000_000L);
    private final DrivenScheduler scheduler = new DrivenScheduler(micros);
    private final InProcessConcurrencyStore store = new InProcessConcurrencyStore(micros::get);
    private final AtomicBoolean storeDown = new AtomicBoolean();
    private final Guard guard = new Guard() {
        @Override
        public <T> T call(String storeKey, java.util.concurrent.Callable<T> call) {
            if (storeDown.get()) {
                throw new StoreUnavailableException("down", new RuntimeException("refused"));
            }
            return Guard.DIRECT.call(storeKey, call);
        }
    };
    private final Map<String, Integer> events = new ConcurrentHashMap<>();
    private final ConcurrencyListener listener = new ConcurrencyListener() {
        @Override
        public void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded) {
            events.merge((degraded ? "degraded-" : "") + (admitted ? "admitted" : "refused"), 1, Integer::sum);
        }

        @Override
        public void leaseLost(ConcurrencySpec spec) {
            events.merge("lost", 1, Integer::sum);
        }

        @Override
        public void running(ConcurrencySpec spec, int delta) {
            events.merge("running", delta, Integer::sum);
        }
    };
    private final ConcurrencyLimiter limiter = new ConcurrencyLimiter(store, guard, listener, () -> scheduler);

    private static ConcurrencySpec spec(long max, boolean failOpen) {
        return new ConcurrencySpec("reports", max, new KeySpec.Global(), Duration.ofSeconds(3), failOpen);
    }

    @Test
    void permitHoldsASlotUntilClosedOnce() {
        ConcurrencySpec spec = spec(1, true);
        Permit first = limiter.tryEnter(spec, "*");
        assertTrue(first.admitted());
        assertEquals(1, first.inFlight());
        Permit second = limiter.tryEnter(spec, "*");
        assertFalse(second.admitted());
        assertEquals(Duration.ofSeconds(1), second.retryAfter());
        assertEquals("reports", second.limit());
        second.close();
        first.close();
        first.close();
        assertTrue(limiter.tryEnter(spec, "*").admitted());
        assertEquals(Map.of("admitted", 2, "refused", 1, "running", 1), events);
    }

    @Test
    void aCallLongerThanItsLeaseKeepsItsSlotAndFreesItAtTheEnd() {
        ConcurrencySpec spec = spec(1, true);
        Permit call = limiter.tryEnter(spec, "*");
        scheduler.advance(Duration.ofSeconds(30));
        assertFalse(limiter.tryEnter(spec, "*").admitted(), "renewed every second, the lease still holds");
        call.close();
        assertEquals(0, scheduler.running(), "renewal stops with the call");
        assertTrue(limiter.tryEnter(spec, "*").admitted());
        assertEquals(null, events.get("lost"));
    }

    @Test
    void aLeaseThatExpiredWhileItsServerWasAwayIsReportedLostOnce() {
        ConcurrencySpec spec = spec(1, true);
        Permit call = limiter.tryEnter(spec, "*");
        micros.addAndGet(5_000_000); // paused past the lease: no renewal ran
        Permit other = limiter.tryEnter(spec, "*");
        assertTrue(other.admitted(), "the slot of an expired lease is free");
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger(ConcurrencyLimiter.class.getName());
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel() == Level.WARNING) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        log.addHandler(h);
        try {
            scheduler.advance(Duration.ofSeconds(3));
        } finally {
            log.removeHandler(h);
        }
        assertEquals(1, events.get("lost"));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("outlived its lease"), warnings.get(0));
        call.close();
        assertFalse(limiter.tryEnter(spec, "*").admitted(), "closing the lost call does not free the other's slot");
    }

    @Test
    void storeDownFailingOpenAdmitsWithoutALease() {
        ConcurrencySpec spec = spec(1, true);
        storeDown.set(true);
        Permit p = limiter.tryEnter(spec, "*");
        assertTrue(p.admitted());
        assertTrue(p.degraded());
        p.close();
        storeDown.set(false);
        assertTrue(limiter.tryEnter(spec, "*").admitted(), "the degraded call took no slot");
        assertEquals(Map.of("degraded-admitted", 1, "admitted", 1, "running", 1), events);
    }

    @Test
    void storeDownFailingClosedRefuses() {
        storeDown.set(true);
        Permit p = limiter.tryEnter(spec(5, false), "*");
        assertFalse(p.admitted());
        assertTrue(p.degraded());
        assertEquals(Map.of("degraded-refused", 1), events);
    }

    @Test
    void storeDownWhileACallRunsCostsNothingAndItsLeaseFreesTheSlot() {
        ConcurrencySpec spec = spec(1, true);
        Permit call = limiter.tryEnter(spec, "*");
        storeDown.set(true);
        scheduler.advance(Duration.ofSeconds(2));
        call.close();
        storeDown.set(false);
        assertFalse(limiter.tryEnter(spec, "*").admitted(), "the release did not reach the store");
        scheduler.advance(Duration.ofSeconds(2));
        assertTrue(limiter.tryEnter(spec, "*").admitted(), "the lease expired by itself");
    }

    @Test
    void keysAreHashedAndHashTagged() {
        String key = limiter.storeKey(spec(1, true), "10.0.0.1");
        assertTrue(key.matches("tg:in:\\{reports:[A-Za-z0-9_-]{22}}"), key);
    }
}
