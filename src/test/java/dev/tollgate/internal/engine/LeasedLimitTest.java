package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A leased limit ({@code tollgate.limits.<name>.lease}) on a real Redis, shared by two engines (two
 * servers): never more admitted than the bucket holds, exactly the bucket once the leases are back, each
 * server its fair part, a call's tokens given back to its lease when another limit denies it, honest
 * headers, and an operator's block in force once a lease time is over.
 */
class LeasedLimitTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final List<Engine> engines = new ArrayList<>();
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong local = new AtomicLong();
    private final AtomicLong asked = new AtomicLong();

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @AfterEach
    void close() {
        engines.forEach(Engine::close);
    }

    private Engine engine(AtomicLong nanos, String... properties) {
        List<String> all = new ArrayList<>(List.of(
                "tollgate.redis.url",
                redis.url(),
                "tollgate.local-denials",
                "0",
                "tollgate.redis.timeout",
                "5s",
                "tollgate.fail-open",
                "false"));
        all.addAll(List.of(properties));
        TollgateSettings settings = TestSettings.read(all.toArray(String[]::new));
        EngineBuilder b = Engine.builder(settings).serverCount(() -> 2).leaseListener(new LeaseListener() {
            @Override
            public void onTaken(LimitSpec limit, long tokens) {
                taken.addAndGet(tokens);
            }

            @Override
            public void onDecided(LimitSpec limit, boolean fromLease) {
                (fromLease ? local : asked).incrementAndGet();
            }
        });
        if (nanos != null) {
            b.nanoTime(nanos::get);
        }
        Engine e = b.build();
        engines.add(e);
        return e;
    }

    private static Thread started(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    private static String[] quota(String name, int capacity, String lease) {
        String p = "tollgate.limits." + name + ".";
        return new String[] {
            p + "capacity",
            "" + capacity,
            p + "refill-tokens",
            "0",
            p + "persist",
            "true",
            p + "key",
            "global",
            p + "lease",
            lease
        };
    }

    @Test
    void twoServersNeverAdmitMoreThanTheBucketAndExactlyItOnceTheLeasesAreBack() throws Exception {
        for (int trial = 0; trial < 10; trial++) {
            String name = "q" + trial;
            Engine a = engine(null, quota(name, 100, "1s"));
            Engine b = engine(null, quota(name, 100, "1s"));
            AtomicInteger admitted = new AtomicInteger();
            CyclicBarrier start = new CyclicBarrier(4);
            List<Thread> threads = new ArrayList<>();
            for (Engine e : List.of(a, b, a, b)) {
                threads.add(started(() -> {
                    try {
                        start.await();
                    } catch (Exception x) {
                        throw new IllegalStateException(x);
                    }
                    for (int i = 0; i < 250; i++) {
                        if (e.check(name, "any").allowed()) {
                            admitted.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(admitted.get() <= 100, "trial " + trial + ": " + admitted + " admitted of 100");
            a.limiter().returnLeases();
            b.limiter().returnLeases();
            int after = 0;
            while (a.check(name, "any").allowed()) {
                after++;
            }
            a.limiter().returnLeases();
            assertEquals(100, admitted.get() + after, "trial " + trial + ": " + admitted + " then " + after);
        }
        assertTrue(local.get() > 0, local + " calls from leases, " + asked + " asked Redis");
    }

    @Test
    void twoServersOfEqualDemandEachAdmitHalf() throws Exception {
        for (int trial = 0; trial < 10; trial++) {
            String name = "fair" + trial;
            Engine a = engine(null, quota(name, 100, "1s"));
            Engine b = engine(null, quota(name, 100, "1s"));
            AtomicInteger[] admitted = {new AtomicInteger(), new AtomicInteger()};
            CyclicBarrier round = new CyclicBarrier(2);
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                Engine e = s == 0 ? a : b;
                AtomicInteger mine = admitted[s];
                threads.add(started(() -> {
                    for (int i = 0; i < 500; i++) {
                        if (i % 10 == 0) {
                            try {
                                round.await();
                            } catch (Exception x) {
                                throw new IllegalStateException(x);
                            }
                        }
                        if (e.check(name, "any").allowed()) {
                            mine.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            int total = admitted[0].get() + admitted[1].get();
            assertTrue(total <= 100, "trial " + trial + ": " + total);
            for (AtomicInteger n : admitted) {
                assertTrue(
                        n.get() >= 40 && n.get() <= 60,
                        "trial " + trial + ": " + admitted[0] + " and " + admitted[1] + " of 100");
            }
        }
    }

    @Test
    void remainingIsWhatTheClientMayStillSpendAndADenialWaitsForARealToken() {
        AtomicLong nanos = new AtomicLong();
        String p = "tollgate.limits.api.";
        Engine e = engine(
                nanos,
                p + "capacity",
                "100",
                p + "refill-tokens",
                "1",
                p + "refill-period",
                "1h",
                p + "key",
                "global",
                p + "lease",
                "1s");
        for (int i = 1; i <= 100; i++) {
            Decision d = e.check("api", "c");
            assertTrue(d.allowed(), "call " + i);
            assertEquals(100 - i, d.remaining(), "call " + i + "'s remaining");
        }
        assertTrue(local.get() > 0, local + " calls decided from leases");
        Decision denied = e.check("api", "c");
        assertFalse(denied.allowed());
        // Redis's clock: the bucket's next token is an hour after its first was spent, a moment ago.
        assertTrue(
                denied.retryAfter().compareTo(Duration.ofMinutes(59)) > 0,
                "retry after " + denied.retryAfter() + ", never before a token exists");
    }

    @Test
    void aCallDeniedByAnotherLimitGivesItsLeasedTokenBackToTheLease() {
        AtomicLong nanos = new AtomicLong();
        String a = "tollgate.limits.hot.";
        String b = "tollgate.limits.strict.";
        Engine e = engine(
                nanos,
                a + "capacity",
                "1000",
                a + "refill-tokens",
                "0",
                a + "persist",
                "true",
                a + "key",
                "global",
                a + "lease",
                "1s",
                b + "capacity",
                "1",
                b + "refill-tokens",
                "0",
                b + "persist",
                "true",
                b + "key",
                "global");
        for (int i = 0; i < 10; i++) {
            assertTrue(e.check("hot", "c").allowed());
        }
        assertTrue(taken.get() > 10, "a lease is held: " + taken);
        assertTrue(e.check("strict", "c").allowed(), "strict's one call");
        Admission denied =
                e.limiter().admit(List.of(e.charge("hot", "c", null), e.charge("strict", "c", null)), Duration.ZERO);
        assertFalse(denied.allowed(), "strict denies");
        long before = taken.get();
        e.limiter().returnLeases();
        int after = 0;
        while (e.check("hot", "c").allowed()) {
            after++;
        }
        assertEquals(990, after, "the denied call's token came back: 1000 - 10 admitted (leases taken " + before + ")");
    }

    @Test
    void anOperatorsBlockReachesALeasedKeyOnceItsLeaseTimeIsOver() {
        AtomicLong nanos = new AtomicLong();
        String p = "tollgate.limits.api.";
        Engine e = engine(
                nanos,
                p + "capacity",
                "1000",
                p + "refill-tokens",
                "1000",
                p + "refill-period",
                "1s",
                p + "lease",
                "1s",
                "tollgate.admin.enabled",
                "true");
        for (int i = 0; i < 20; i++) {
            assertTrue(e.check("api", "c").allowed());
        }
        assertTrue(taken.get() > 20, "a lease is held: " + taken);
        e.admin().block("api", "c", Duration.ofMinutes(5));
        assertTrue(e.check("api", "c").allowed(), "within the lease time the lease still decides");
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertFalse(e.check("api", "c").allowed(), "once the lease time is over, Redis applies the block");
    }

    /**
     * A lease spent to its last token is still written down among the bucket's leases out in Redis, and
     * giving it back strikes it out, though no token comes back: left there, another server would later
     * count a lease this server ended as abandoned.
     */
    @Test
    void aLeaseSpentToItsLastTokenIsStruckOutOfTheLeasesOutWhenItEnds() {
        Engine a = engine(null, quota("q", 100, "1s"));
        int calls = 0;
        while (taken.get() == 0 || a.limiter().leasedTokens() > 0) {
            assertTrue(a.check("q", "any").allowed());
            assertTrue(++calls < 100, "a lease was taken and spent within 100 calls");
        }
        assertEquals(1, leasesOut().size(), "the spent lease is still out: " + leasesOut());
        a.limiter().returnLeases();
        assertEquals(java.util.Set.of(), leasesOut(), "struck out when it ended");
    }

    private static java.util.Set<String> leasesOut() {
        try (redis.clients.jedis.Jedis j = redis.admin()) {
            return j.keys("tg:lo:*");
        }
    }

    @Test
    void aWindowLimitRefusesALeaseNamingTheProperty() {
        TollgateConfigException x = assertThrows(
                TollgateConfigException.class,
                () -> TestSettings.read(
                        "tollgate.limits.w.algorithm", "fixed-window",
                        "tollgate.limits.w.capacity", "10",
                        "tollgate.limits.w.lease", "1s",
                        "tollgate.limits.t.capacity", "10",
                        "tollgate.limits.t.refill-tokens", "1",
                        "tollgate.limits.t.lease", "5ms"));
        assertTrue(x.getMessage().contains("tollgate.limits.w.lease"), x.getMessage());
        assertTrue(x.getMessage().contains("only a token-bucket limit is leased"), x.getMessage());
        assertTrue(x.getMessage().contains("tollgate.limits.t.lease"), x.getMessage());
    }
}
