package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/** Concurrency limits in two real servers on one Redis: {@code /demo/slow} and {@code /demo/inflight}. */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class ConcurrencyIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    @Test
    void sixConcurrentSlowRequestsOfOneClientGiveTwo200AndFour429() throws Exception {
        List<Reply> replies = Load.fire(6, 6, i -> SERVERS.get(i % 2), c -> c.slow("10.0.16.1"));
        // Exact on what the servers saw, not on when the six calls happened to arrive: on a loaded machine
        // a late one may start after an admitted one ended, and is then rightly admitted too.
        assertEquals(2, mostInside(replies), "two at once for one client, on whichever server, never three");
        assertEquals(6, Load.count(replies, 200) + Load.count(replies, 429), "each call admitted or refused");
        assertTrue(Load.count(replies, 429) >= 1, "six at once, two slots: some are refused");
        for (Reply r : replies) {
            if (r.status() == 429) {
                assertEquals("1", r.header("Retry-After").orElse(""));
                assertTrue(r.body().contains("Concurrency limit 'demo-slow' is full"), r.body());
                assertTrue(r.header("Content-Type").orElse("").startsWith("application/problem+json"));
            }
        }
        assertEquals(
                200,
                Load.fire(1, 1, c -> c.slow("10.0.16.1")).get(0).status(),
                "the slots are free once the calls have ended");
    }

    /** The most admitted calls inside at one instant, from the {@code done <start us> <end us>} bodies. */
    private static int mostInside(List<Reply> replies) {
        List<long[]> events = new ArrayList<>();
        for (Reply r : replies) {
            if (r.status() == 200) {
                String[] f = r.body().trim().split(" ");
                events.add(new long[] {Long.parseLong(f[1]), 1});
                events.add(new long[] {Long.parseLong(f[2]), -1});
            }
        }
        // Ends before starts at one instant: a slot freed and taken in the same microsecond is not two.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int inside = 0;
        int most = 0;
        for (long[] e : events) {
            inside += (int) e[1];
            most = Math.max(most, inside);
        }
        return most;
    }

    @Test
    void anotherClientHasSlotsOfItsOwn() throws Exception {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        List<Reply> replies =
                Load.fire(4, 4, i -> SERVERS.get(i % 2), c -> c.slow("10.0.16." + (10 + n.getAndIncrement() % 2)));
        assertEquals(4, Load.count(replies, 200), "two clients, two slots each");
    }

    @Test
    void thirtyTwoInFlightAcrossTwoServersNeverPutMoreThanFourInside() throws Exception {
        List<Reply> replies = Load.fire(192, 32, i -> SERVERS.get(i % 2), c -> c.inflight(150, "10.0.17.1"));
        int admitted = 0;
        for (Reply r : replies) {
            if (r.status() == 200) {
                admitted++;
                String[] f = r.body().trim().split(" ");
                assertTrue(Long.parseLong(f[0]) <= 4, "at most 4 inside on one server, seen " + f[0]);
            } else {
                assertEquals(429, r.status(), r.body());
            }
        }
        int most = mostInside(replies);
        System.out.println("concurrency through Liberty: " + admitted + " of 192 admitted, at most " + most
                + " inside across both servers");
        assertTrue(most <= 4, "at most 4 inside across both servers at any instant, seen " + most);
        // 32 callers each inside for 150 ms: the four slots are all taken at some instant (a limit of
        // fewer slots, or one slot per server, would never show four), and refusals show it held.
        assertEquals(4, most, "four inside at some instant across both servers");
        assertTrue(admitted > 4 && admitted < 192, "admitted after slots were freed, some refused: " + admitted);
    }
}
