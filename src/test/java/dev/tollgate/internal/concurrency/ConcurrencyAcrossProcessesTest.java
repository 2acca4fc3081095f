package dev.tollgate.internal.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.Await;
import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Four servers (JVMs) of 8 threads each, 32 calls in flight against a limit of 4 on one real Redis;
 * one server is SIGKILLed while it holds a slot. From the calls' start and end times (Redis clock; a
 * killed call ends when its server died): never more than 4 inside at any instant, the dead server's
 * slots blocked others only until its leases (3 s) expired, and after that the live servers used all 4.
 */
class ConcurrencyAcrossProcessesTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final int MAX = 4;
    /** Long enough that a loaded machine's stalls do not outlast it (a lost lease would admit one too many). */
    private static final long LEASE_MS = 3000;

    @Test
    void thirtyTwoInFlightNeverPutMoreThanFourInsideEvenWhenAServerDiesHoldingSlots() throws Exception {
        List<ChildJvm> servers = new ArrayList<>();
        long killedAt;
        try {
            for (String id : List.of("s0", "s1", "s2", "s3")) {
                servers.add(ChildJvm.start(
                        ConcurrencyChild.class,
                        redis.url(),
                        id,
                        "8",
                        "8000",
                        Integer.toString(MAX),
                        Long.toString(LEASE_MS),
                        "200"));
            }
            try (Jedis j = redis.admin()) {
                for (int i = 0; i < 6000 && j.llen("inflight:ready") < 4; i++) {
                    Thread.sleep(10);
                }
                assertEquals(4, j.llen("inflight:ready"), "servers ready");
                j.set("inflight:go", Long.toString(redis.timeMicros() + 300_000));
            }
            ChildJvm victim = servers.get(0);
            // Killed while all four contend: once each of them has been inside (about half a second after the
            // go: some 4 s of the 8 s run remain once the dead server's leases (3 s) have expired).
            try (Jedis j = redis.admin()) {
                Await.until("a call of every server inside", () -> {
                    Set<String> inside = new HashSet<>();
                    j.lrange("inflight:starts", 0, -1).forEach(c -> inside.add(c.substring(0, c.indexOf('-'))));
                    return inside.size() == servers.size();
                });
            }
            victim.drain();
            for (String line = victim.nextLine(Duration.ofSeconds(10));
                    !line.startsWith("IN ");
                    line = victim.nextLine(Duration.ofSeconds(10))) {
                // until it is inside a call
            }
            victim.kill();
            killedAt = redis.timeMicros();
            for (ChildJvm s : servers.subList(1, servers.size())) {
                assertEquals(0, s.waitFor(Duration.ofSeconds(60)));
            }
        } finally {
            for (ChildJvm s : servers) {
                s.close();
            }
        }
        Map<String, long[]> calls = calls(killedAt);
        List<long[]> events = new ArrayList<>();
        calls.values().forEach(c -> {
            events.add(new long[] {c[0], 1});
            events.add(new long[] {c[1], -1});
        });
        // Ends before starts at one instant: a slot freed and taken in the same microsecond is not two.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int inside = 0;
        int most = 0;
        int mostAfterLeases = 0;
        long leasesGone = killedAt + (LEASE_MS + 200) * 1000;
        for (long[] e : events) {
            inside += (int) e[1];
            most = Math.max(most, inside);
            if (e[0] > leasesGone) {
                mostAfterLeases = Math.max(mostAfterLeases, inside);
            }
        }
        long killedInside = calls.entrySet().stream()
                .filter(c -> c.getKey().startsWith("s0-") && c.getValue()[1] == killedAt)
                .count();
        System.out.println("concurrency across processes: " + calls.size() + " calls, at most " + most
                + " inside; the killed server held " + killedInside + " slots; at most " + mostAfterLeases
                + " inside once its leases expired");
        assertTrue(killedInside >= 1, "the killed server died inside a call");
        try (Jedis j = redis.admin()) {
            assertEquals(List.of(), j.lrange("inflight:lost", 0, -1), "no live server's call outlived its lease");
        }
        assertEquals(MAX, most, "never more than " + MAX + " inside, and " + MAX + " at some point");
        assertEquals(MAX, mostAfterLeases, "the dead server's slots were free again once its leases expired");
    }

    /** Call id to {start, end} in Redis microseconds; a call of the killed server without an end ended at its death. */
    private static Map<String, long[]> calls(long killedAt) {
        Map<String, long[]> calls = new HashMap<>();
        try (Jedis j = redis.admin()) {
            for (String s : j.lrange("inflight:starts", 0, -1)) {
                String[] f = s.split(" ");
                calls.put(f[0], new long[] {Long.parseLong(f[1]), killedAt});
            }
            for (String e : j.lrange("inflight:ends", 0, -1)) {
                String[] f = e.split(" ");
                calls.get(f[0])[1] = Long.parseLong(f[1]);
            }
        }
        calls.forEach((id, c) -> assertTrue(
                id.startsWith("s0-") || c[1] != killedAt, "only the killed server leaves calls unfinished: " + id));
        return calls;
    }
}
