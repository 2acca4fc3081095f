package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * The README's interceptor order and EJB promise, through Liberty ({@code /demo/ft}, limit {@code
 * demo-user}: 3 per name per hour): a rejection never reaches the method's own {@code @Retry} (which
 * would repeat the denied check), never counts in its {@code @CircuitBreaker}, is not its {@code
 * @Fallback}, and, thrown by an EJB inside a caller's transaction, arrives unwrapped without marking
 * that transaction for rollback. Every rejection that escapes is the exception mapper's 429.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
public class FaultToleranceOrderIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @Test
    void aRejectionIsNeitherRetriedNorABreakerFailure() throws Exception {
        String name = "ft-" + UUID.randomUUID();
        long denied = LibertyServer.metric("tollgate_decisions_total", "demo-user", "denied");
        assertEquals(List.of(200, 200, 200, 429, 429, 429), statuses("/demo/ft/retried/" + name, 6));
        assertEquals(
                3,
                LibertyServer.metric("tollgate_decisions_total", "demo-user", "denied") - denied,
                "one check per denied call: @Retry (3 retries) did not repeat them");
        // Two failures in a row would have opened the breaker (requestVolumeThreshold=2, delay 1 h).
        assertEquals(200, status("/demo/ft/retried/other-" + name), "the rejections were not breaker failures");
    }

    @Test
    void aRejectionIsNotTheMethodsFallbackAndTheMapperSaysWhy() throws Exception {
        String name = "fb-" + UUID.randomUUID();
        long start = System.nanoTime();
        assertEquals(List.of(200, 200, 200), statuses("/demo/ft/fallback/" + name, 3));
        HttpResponse<String> r = LibertyServer.get("/demo/ft/fallback/" + name);
        assertEquals(429, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"limit\":\"demo-user\""), r.body());
        assertTrue(!r.body().contains("fallback"), r.body());
        long retryAfter = Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow());
        // 20 min after the first call, less the time the four calls took (seconds on a loaded machine).
        long took = (System.nanoTime() - start) / 1_000_000_000 + 1;
        assertTrue(
                retryAfter >= 1200 - took && retryAfter <= 1200,
                "one of 3 per hour comes back in 20 min: " + retryAfter + " (the calls took up to " + took + " s)");
        assertEquals(
                "\"demo-user\";q=3;w=3600",
                r.headers().firstValue("RateLimit-Policy").orElseThrow());
        assertEquals(
                "\"demo-user\";r=0;t=" + retryAfter,
                r.headers().firstValue("RateLimit").orElseThrow());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));
    }

    @Test
    void anEjbRejectionLeavesTheCallersTransactionAlone() throws Exception {
        String name = "tx-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            assertEquals("greeted rollbackOnly=false", body("/demo/ft/transaction/" + name));
        }
        assertEquals(
                "denied rollbackOnly=false",
                body("/demo/ft/transaction/" + name),
                "caught as RateLimitExceededException, unwrapped, and the transaction not marked for rollback");
    }

    private static List<Integer> statuses(String path, int n) throws Exception {
        Integer[] out = new Integer[n];
        for (int i = 0; i < n; i++) {
            out[i] = status(path);
        }
        return List.of(out);
    }

    private static int status(String path) throws Exception {
        return LibertyServer.get(path).statusCode();
    }

    private static String body(String path) throws Exception {
        HttpResponse<String> r = LibertyServer.get(path);
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }
}
