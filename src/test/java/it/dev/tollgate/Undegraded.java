package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * The one policy of the exactness ITs: the IT servers' budget ({@code tollgate.redis.timeout=2s}) is one a
 * loaded 2-core machine meets, so every decision under test is Redis's. A degraded decision (a pass or a
 * refusal made without Redis) would make an exact count wrong by chance; here it fails the test at once,
 * with how many there were, before any count is compared. Only the outage ITs expect degraded decisions.
 */
final class Undegraded {

    private Undegraded() {}

    /** Runs {@code load} against the first server and fails when any decision of {@code limit} was degraded. */
    static <T> T during(String limit, Callable<T> load) throws Exception {
        return during(List.of(LibertyServer.baseUrl()), limit, load);
    }

    /** Runs {@code load} and fails when any server in {@code servers} made a degraded decision of {@code limit}. */
    static <T> T during(List<String> servers, String limit, Callable<T> load) throws Exception {
        long[] before = degraded(servers, limit);
        T result = load.call();
        long[] after = degraded(servers, limit);
        for (int i = 0; i < servers.size(); i++) {
            assertEquals(
                    0,
                    after[i] - before[i],
                    "degraded decisions of '" + limit + "' on " + servers.get(i)
                            + " (Redis missed the IT servers' 2 s budget: the counts below would be by chance)");
        }
        return result;
    }

    private static long[] degraded(List<String> servers, String limit) {
        long[] n = new long[servers.size()];
        for (int i = 0; i < n.length; i++) {
            for (String outcome : List.of("allowed", "denied")) {
                n[i] += LibertyServer.metric(servers.get(i), "tollgate_degraded_decisions_total", limit, outcome);
            }
        }
        return n;
    }
}
