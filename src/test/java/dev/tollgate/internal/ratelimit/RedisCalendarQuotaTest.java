package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A calendar quota in Redis, at instants the test sets: every store of the test adds one shift to Redis
 * {@code TIME} ({@link RedisRateLimitStore#shiftedForTests}), so Redis decides a month ahead without
 * anyone waiting for it. Two stores on two connections stand for two servers.
 */
class RedisCalendarQuotaTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final CalendarPeriod FROM_31ST = new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 31);

    private static final AtomicLong shift = new AtomicLong();
    private static final List<RedisLink> links = new ArrayList<>();
    private static RedisRateLimitStore serverA;
    private static RedisRateLimitStore serverB;

    @BeforeAll
    static void connect() {
        serverA = shifted(MicrosClock.system());
        serverB = shifted(MicrosClock.system());
    }

    private static RedisRateLimitStore shifted(MicrosClock serverClock) {
        RedisLink link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 8));
        links.add(link);
        return RedisRateLimitStore.shiftedForTests(link, shift::get, serverClock);
    }

    @AfterAll
    static void close() {
        links.forEach(RedisLink::close);
    }

    private static Instant berlin(String localDateTime) {
        return LocalDateTime.parse(localDateTime).atZone(BERLIN).toInstant();
    }

    private static long micros(Instant i) {
        return i.getEpochSecond() * 1_000_000 + i.getNano() / 1000;
    }

    /** Redis decides as if it were {@code instant} now (and on, as its clock runs). */
    private static void redisAt(Instant instant) {
        shift.set(micros(instant) - redis.timeMicros());
    }

    private static String freshKey() {
        return "tg:cq:monthly:" + UUID.randomUUID();
    }

    @Test
    void aMonthResetsAtLocalMidnightOfItsAnchorDayAcrossDstAndEveryMonthLength() {
        LimitPolicy quota = LimitPolicy.calendar("monthly", 3, FROM_31ST);
        // Each instant a period starts, and the one after: a leap February (29 days), a March across the
        // spring change, a 30-day April, a 31-day month, a common February, an October across the autumn
        // change.
        String[][] periods = {
            {"2028-02-29T00:00", "2028-03-31T00:00"},
            {"2028-03-31T00:00", "2028-04-30T00:00"},
            {"2028-04-30T00:00", "2028-05-31T00:00"},
            {"2028-05-31T00:00", "2028-06-30T00:00"},
            {"2027-02-28T00:00", "2027-03-31T00:00"},
            {"2026-10-31T00:00", "2026-11-30T00:00"}
        };
        for (String[] p : periods) {
            Instant starts = berlin(p[0]);
            String key = freshKey();
            redisAt(starts.minusSeconds(5));
            for (int call = 0; call < 3; call++) {
                Spent s = (call % 2 == 0 ? serverA : serverB).spend(quota, key);
                assertTrue(s.decision().allowed(), p[0] + ": call " + call + " before midnight");
                assertEquals(micros(starts), s.mark(), p[0] + ": the period ends at local midnight");
            }
            Spent denied = serverB.spend(quota, key);
            assertFalse(denied.decision().allowed(), p[0] + ": the quota is spent");
            assertTrue(
                    denied.decision().retryAfter().compareTo(Duration.ofSeconds(5)) <= 0
                            && !denied.decision().retryAfter().isZero(),
                    p[0] + ": back at midnight, " + denied.decision().retryAfter());

            redisAt(starts.plusMillis(1));
            Spent next = serverA.spend(quota, key);
            assertTrue(next.decision().allowed(), p[0] + ": the whole quota is back at local midnight");
            assertEquals(2, next.decision().remaining(), p[0]);
            assertEquals(micros(berlin(p[1])), next.mark(), p[0] + ": the new period ends on the next anchor day");
        }
    }

    @Test
    void twoServersShareTheQuotaExactly() throws Exception {
        LimitPolicy quota = LimitPolicy.calendar("monthly", 100, FROM_31ST);
        String key = freshKey();
        redisAt(berlin("2028-03-15T12:00"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> admitted = new ArrayList<>();
            for (RedisRateLimitStore server : List.of(serverA, serverB)) {
                Callable<Integer> calls = () -> {
                    int n = 0;
                    for (int i = 0; i < 150; i++) {
                        n += server.spend(quota, key).decision().allowed() ? 1 : 0;
                    }
                    return n;
                };
                admitted.add(pool.submit(calls));
            }
            assertEquals(100, admitted.get(0).get() + admitted.get(1).get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aServerWhoseClockIsMonthsOffSpendsInRedisPeriod() {
        RedisRateLimitStore behind = shifted(
                () -> MicrosClock.system().nowMicros() - Duration.ofDays(90).toNanos() / 1000);
        LimitPolicy quota = LimitPolicy.calendar("monthly", 3, FROM_31ST);
        String key = freshKey();
        redisAt(berlin("2028-03-15T12:00"));
        Spent s = behind.spend(quota, key);
        assertTrue(s.decision().allowed());
        assertEquals(micros(berlin("2028-03-31T00:00")), s.mark(), "Redis's period, not the server's");
        assertEquals(1, serverA.spend(quota, key).decision().remaining(), "the same period as a server on time");
    }

    @Test
    void anOperatorPeeksAtAndCreditsTheCurrentPeriod() {
        LimitPolicy quota = LimitPolicy.calendar("monthly", 3, FROM_31ST);
        String key = freshKey();
        redisAt(Instant.now());
        serverA.spend(quota, key);
        serverA.spend(quota, key);
        assertEquals(1, serverA.peek(quota, key).orElseThrow().remaining(), "a peek spends nothing");
        assertEquals(1, serverA.peek(quota, key).orElseThrow().remaining());
        assertEquals(2, serverA.credit(quota, key, 5), "never beyond the quota");
        assertEquals(2, serverA.spend(quota, key).decision().remaining());
    }

    @Test
    void aRefundGivesBackOnlyInTheCallsOwnPeriod() {
        LimitPolicy quota = LimitPolicy.calendar("monthly", 3, FROM_31ST);
        String key = freshKey();
        redisAt(berlin("2028-04-29T23:59:55"));
        Spent first = serverA.spend(quota, key);
        serverA.refund(quota, key, first.mark());
        assertEquals(2, serverA.spend(quota, key).decision().remaining(), "given back in its period");
        Spent last = serverA.spend(quota, key);
        redisAt(berlin("2028-04-30T00:00:01"));
        assertEquals(2, serverB.spend(quota, key).decision().remaining());
        serverB.refund(quota, key, last.mark());
        assertEquals(1, serverB.spend(quota, key).decision().remaining(), "a period over gets nothing back");
    }
}
