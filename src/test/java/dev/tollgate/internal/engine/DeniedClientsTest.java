package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Charge;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The console's most denied clients on a driven clock: counted, bounded, hashed, and forgotten in time. */
class DeniedClientsTest {

    private final AtomicLong nanos = new AtomicLong();
    private final DeniedClients clients = new DeniedClients(nanos::get);
    private final LimitSpec api = new LimitSpec(LimitPolicy.quota("api", 10), new KeySpec.Global(), true);
    private static final Decision DENIED = new Decision(false, 0, Duration.ofSeconds(1), Duration.ZERO, false);
    private static final Decision ALLOWED = new Decision(true, 1, Duration.ZERO, Duration.ZERO, false);

    private void decide(LimitSpec limit, String client, Decision d, int times) {
        for (int i = 0; i < times; i++) {
            clients.onCharged(new Charged(Charge.of(limit, client), d, 0, Duration.ZERO, false), 0);
        }
    }

    @Test
    void mostDeniedFirstByTheKeysHashNeverTheKey() {
        decide(api, "secret-api-key-1", DENIED, 5);
        decide(api, "203.0.113.9", DENIED, 7);
        decide(api, "203.0.113.9", ALLOWED, 50);
        decide(api.withMode(LimitMode.SHADOW), "shadowed", DENIED, 9);
        decide(api, "degraded", Decision.degraded(false), 9);
        assertEquals(
                List.of(
                        new DeniedClient("api", StoreKeys.clientHash("203.0.113.9"), 7),
                        new DeniedClient("api", StoreKeys.clientHash("secret-api-key-1"), 5)),
                clients.most());
        assertTrue(clients.most().stream().noneMatch(c -> c.clientHash().contains("secret")));
    }

    @Test
    void atMostAHundredClientsAreTrackedAndAClientDeniedOftenIsNeverMissed() {
        decide(api, "flood", DENIED, 1000);
        for (int i = 0; i < 10 * DeniedClients.TRACKED; i++) {
            decide(api, "one-off-" + i, DENIED, 1);
        }
        List<DeniedClient> most = clients.most();
        assertEquals(new DeniedClient("api", StoreKeys.clientHash("flood"), 1000), most.get(0));
        assertEquals(DeniedClients.SHOWN, most.size());
    }

    @Test
    void aPeriodIsKeptOnePeriodLongerThenForgotten() {
        decide(api, "early", DENIED, 3);
        nanos.addAndGet(Duration.ofMinutes(DeniedClients.PERIOD_MINUTES).toNanos());
        decide(api, "later", DENIED, 1);
        assertEquals(2, clients.most().size(), "the last period still counts");
        nanos.addAndGet(Duration.ofMinutes(DeniedClients.PERIOD_MINUTES).toNanos());
        decide(api, "latest", DENIED, 1);
        assertEquals(
                java.util.Set.of(StoreKeys.clientHash("later"), StoreKeys.clientHash("latest")),
                clients.most().stream().map(DeniedClient::clientHash).collect(java.util.stream.Collectors.toSet()),
                "the first period is forgotten");
    }
}
