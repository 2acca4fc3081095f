package it.dev.tollgate;

import static it.dev.tollgate.AdminHttp.OPERATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * A leased limit on the two Liberty servers and their Redis ({@code demo-leased}: 100 per client address,
 * never refilled on the IT servers, {@code lease=1s}): calls alternate between the servers, each server
 * spends slices of the client's bucket in memory, and still the two never admit more than the bucket
 * holds; once the leases are back, Redis holds exactly the rest, and the rest is spent to the last token.
 * Each trial is a fresh client address, so a fresh bucket; every decision is Redis's or a lease's, none
 * degraded ({@link Undegraded}). The servers' lease metrics account for every token.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class LeaseIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final String LIMIT = "demo-leased";
    private static final int CAPACITY = 100;
    /** The most one lease takes with two live servers: a tenth of the capacity ({@code LimitRules.LEASE_SHARE}), halved. */
    private static final int LEASE_CAP = CAPACITY / 10 / 2;

    private static final Pattern REMAINING = Pattern.compile("\"remaining\":(\\d+)");

    /**
     * Both servers warm for a burst ({@link RedisReady#awaitBurstReady}), and each counting both by the
     * live-servers heartbeat (Redis was just emptied: the next beats, a second apart), so a lease is capped
     * at a tenth of the bucket divided by 2.
     */
    @BeforeAll
    static void serversReady() throws Exception {
        RedisReady.awaitBurstReady();
        for (String server : servers()) {
            await(server + " counts 2 live servers", () -> liveServers(server) == 2, () -> "" + liveServers(server));
        }
    }

    @Test
    void twoServersNeverAdmitMoreThanTheBucketAndExactlyItOnceTheLeasesAreBack() throws Exception {
        for (int trial = 1; trial <= 10; trial++) {
            String client = "10.0.24." + trial;
            Trial t = trial(client, 1000, 0);
            int admitted = t.total();
            assertTrue(admitted <= CAPACITY, "trial " + trial + ": " + t);
            assertEquals(
                    1000 - admitted, t.limited[0] + t.limited[1], "trial " + trial + ", every other call a 429: " + t);
            assertEquals(
                    CAPACITY - admitted,
                    remaining(client),
                    "trial " + trial + ", Redis once the leases are back: " + t);
            for (int s = 0; s < 2; s++) {
                Counts c = t.back[s];
                assertEquals(0, c.lost, "trial " + trial + ", server " + (s + 1) + " lost no token: " + t);
                assertEquals(0, c.abandoned, "trial " + trial + ", server " + (s + 1) + " found none abandoned: " + t);
                assertTrue(
                        c.taken <= LEASE_CAP * c.leases,
                        "trial " + trial + ", server " + (s + 1) + ": no lease above " + LEASE_CAP + ": " + t);
                assertEquals(
                        t.admitted[s] + t.limited[s],
                        c.local + c.redis,
                        "trial " + trial + ", server " + (s + 1) + ": each call decided once, by a lease or Redis: "
                                + t);
                // What a server admitted is what it spent from leases, and its key's first call, decided per call.
                long cold = t.admitted[s] - c.spent();
                assertTrue(cold == 0 || cold == 1, "trial " + trial + ", server " + (s + 1) + ": " + t);
            }
            String drainer = servers().get(trial % 2);
            int after = drain(drainer, client);
            assertEquals(
                    CAPACITY,
                    admitted + after,
                    "trial " + trial + ": " + admitted + ", then " + after + " on " + drainer);
            String other = servers().get(1 - trial % 2);
            assertEquals(429, Reply.of(Load.client(other).leased(client)).status(), "the bucket is empty for " + other);
            assertEquals(0, remaining(client), "trial " + trial + ", spent to the last token");
        }
    }

    /** Equal demand: rounds of 10 calls to each server, so neither server's speed gives it more calls. */
    @Test
    void twoServersOfEqualDemandEachAdmitHalfMostlyFromTheirLeases() throws Exception {
        for (int trial = 1; trial <= 10; trial++) {
            Trial t = trial("10.0.25." + trial, 1000, 20);
            assertTrue(t.total() <= CAPACITY, "trial " + trial + ": " + t);
            for (int s = 0; s < 2; s++) {
                int share = 100 * t.admitted[s];
                assertTrue(
                        share >= 40 * t.total() && share <= 60 * t.total(),
                        "trial " + trial + ", server " + (s + 1) + " admitted 50% ± 10%: " + t);
                assertTrue(t.back[s].local > 0, "trial " + trial + ", server " + (s + 1) + " spent from leases: " + t);
                assertTrue(
                        t.back[s].leases < t.admitted[s],
                        "trial " + trial + ", server " + (s + 1) + " took fewer leases than it admitted: " + t);
            }
        }
    }

    @Test
    void tokensLeftInLeasesComeBackToTheBucket() throws Exception {
        long heldWhenTheLoadEnded = 0;
        for (int trial = 1; trial <= 10; trial++) {
            String client = "10.0.26." + trial;
            Trial t = trial(client, 60, 0);
            assertEquals(60, t.total(), "trial " + trial + ", 60 calls of a bucket of 100: " + t);
            heldWhenTheLoadEnded += t.atEnd[0].held() + t.atEnd[1].held();
            assertEquals(CAPACITY - 60, remaining(client), "trial " + trial + ", Redis once the leases are back: " + t);
            int after = drain(servers().get(trial % 2), client);
            assertEquals(CAPACITY - 60, after, "trial " + trial + ", the rest spent to the last token: " + t);
        }
        assertTrue(heldWhenTheLoadEnded > 0, "the servers held unspent tokens when a load ended, which came back");
    }

    private static List<String> servers() {
        return List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());
    }

    /**
     * {@code calls} calls of {@code client}, alternating between the servers, none degraded: 32 at a time,
     * or in rounds of {@code round} at once, each round once the last has been answered (0: no rounds); then
     * waits until each server has given back what it held (its lease time and a sweep later).
     */
    private static Trial trial(String client, int calls, int round) throws Exception {
        List<String> servers = servers();
        Counts[] before = counts();
        List<Reply> replies = Undegraded.during(servers, LIMIT, () -> {
            if (round == 0) {
                return Load.fire(calls, 32, i -> servers.get(i % 2), c -> c.leased(client));
            }
            List<Reply> all = new ArrayList<>();
            for (int sent = 0; sent < calls; sent += round) {
                all.addAll(Load.fire(round, round, i -> servers.get(i % 2), c -> c.leased(client)));
            }
            return all;
        });
        Trial t = new Trial(client, new int[2], new int[2], since(before), new Counts[2]);
        for (int i = 0; i < replies.size(); i++) {
            int status = replies.get(i).status();
            t.admitted[i % 2] += status == 200 ? 1 : 0;
            t.limited[i % 2] += status == 429 ? 1 : 0;
        }
        await(
                "the leases of " + client + " given back",
                () -> {
                    Counts[] now = since(before);
                    t.back[0] = now[0];
                    t.back[1] = now[1];
                    return now[0].held() == 0 && now[1].held() == 0;
                },
                t::toString);
        System.out.println("LeaseIT " + t);
        return t;
    }

    /** Calls {@code client} on {@code server} one at a time until one is denied: how many were admitted. */
    private static int drain(String server, String client) throws Exception {
        DemoClient demo = Load.client(server);
        return Undegraded.during(List.of(server), LIMIT, () -> {
            int admitted = 0;
            int status;
            while ((status = Reply.of(demo.leased(client)).status()) == 200 && admitted <= CAPACITY) {
                admitted++;
            }
            assertEquals(429, status, "after " + admitted + " admitted on " + server);
            return admitted;
        });
    }

    /** What Redis holds of {@code client}'s bucket, by the operator's peek. */
    private static long remaining(String client) throws Exception {
        HttpResponse<String> peek = AdminHttp.send(
                servers().get(0), "GET", "/tollgate/admin/limits/" + LIMIT + "/peek?client=" + client, OPERATOR);
        assertEquals(200, peek.statusCode(), peek.body());
        Matcher m = REMAINING.matcher(peek.body());
        assertTrue(m.find(), peek.body());
        return Long.parseLong(m.group(1));
    }

    private static void await(String what, BooleanSupplier done, Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what + "; " + state.get());
            }
            Thread.sleep(100);
        }
    }

    private static Counts[] counts() {
        List<String> servers = servers();
        return new Counts[] {Counts.of(servers.get(0)), Counts.of(servers.get(1))};
    }

    private static Counts[] since(Counts[] before) {
        Counts[] now = counts();
        return new Counts[] {now[0].minus(before[0]), now[1].minus(before[1])};
    }

    private static long liveServers(String server) {
        return sum(LibertyServer.metrics(server), "tollgate_live_servers");
    }

    /** The sum of metric {@code name}'s lines that carry every one of {@code tags} ({@code limit="x"}). */
    private static long sum(String metrics, String name, String... tags) {
        long sum = 0;
        for (String line : metrics.split("\n")) {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
                continue;
            }
            boolean all = true;
            for (String tag : tags) {
                all &= line.contains(tag);
            }
            if (all) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** One trial: per server, what it admitted and denied, and its lease counts when the load ended and once given back. */
    private record Trial(String client, int[] admitted, int[] limited, Counts[] atEnd, Counts[] back) {

        int total() {
            return admitted[0] + admitted[1];
        }

        @Override
        public String toString() {
            return client + ": admitted " + admitted[0] + " + " + admitted[1] + " = " + total() + ", denied "
                    + limited[0] + " + " + limited[1] + "; server 1 " + back[0] + " (held " + atEnd[0].held()
                    + " when the load ended); server 2 " + back[1] + " (held " + atEnd[1].held() + ")";
        }
    }

    /** A server's lease metrics of {@code demo-leased} ({@code dev.tollgate.metrics.LeaseMetrics}). */
    private record Counts(long leases, long taken, long returned, long lost, long abandoned, long local, long redis) {

        static Counts of(String server) {
            String m = LibertyServer.metrics(server);
            String limit = "limit=\"" + LIMIT + "\"";
            return new Counts(
                    sum(m, "tollgate_leases_total", limit),
                    sum(m, "tollgate_lease_tokens_total", limit, "outcome=\"taken\""),
                    sum(m, "tollgate_lease_tokens_total", limit, "outcome=\"returned\""),
                    sum(m, "tollgate_lease_tokens_total", limit, "outcome=\"lost\""),
                    sum(m, "tollgate_lease_tokens_total", limit, "outcome=\"abandoned\""),
                    sum(m, "tollgate_leased_decisions_total", limit, "decided=\"local\""),
                    sum(m, "tollgate_leased_decisions_total", limit, "decided=\"redis\""));
        }

        Counts minus(Counts o) {
            return new Counts(
                    leases - o.leases,
                    taken - o.taken,
                    returned - o.returned,
                    lost - o.lost,
                    abandoned - o.abandoned,
                    local - o.local,
                    redis - o.redis);
        }

        /** Tokens spent from leases: a call that took a lease spends its first, the local calls the rest. */
        long spent() {
            return leases + local;
        }

        /** Tokens leased and neither spent, given back nor lost: what the server holds. */
        long held() {
            return taken - returned - lost - spent();
        }

        @Override
        public String toString() {
            return "leases " + leases + ", tokens taken " + taken + " returned " + returned + " lost " + lost
                    + " abandoned " + abandoned + ", decided local " + local + " redis " + redis;
        }
    }
}
