package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientOverride;
import dev.tollgate.Decision;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator's rules on a 3-master Redis Cluster: each client's rules key shares its bucket's hash tag,
 * so the one decision script reads both on the bucket's master (a key of another slot would be refused,
 * CROSSSLOT). Clients spread over every master.
 */
class RedisClusterClientRulesTest {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    @Test
    void overridesBlocksAndCreditsApplyOnEveryMaster() {
        try (Engine t = Engine.build(TestSettings.read(
                "tollgate.redis.url", cluster.url(),
                "tollgate.redis.timeout", "5s",
                "tollgate.limits.api.capacity", "2",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h"))) {
            for (int i = 0; i < 12; i++) {
                String vip = "vip-" + i;
                String spammer = "spammer-" + i;
                t.admin()
                        .override(
                                "api",
                                vip,
                                ClientOverride.tokenBucket(4, 1, Duration.ofHours(1)),
                                Duration.ofMinutes(5));
                t.admin().block("api", spammer, Duration.ofMinutes(5));
                for (int k = 0; k < 4; k++) {
                    assertTrue(t.check("api", vip).allowed(), vip + " call " + k);
                }
                assertFalse(t.check("api", vip).allowed(), vip);
                assertEquals(1, t.admin().credit("api", vip, 1), vip);
                assertEquals(1, t.admin().peek("api", vip).remaining(), vip);
                Decision blocked = t.check("api", spammer);
                assertFalse(blocked.allowed(), spammer);
                assertTrue(blocked.retryAfter().compareTo(Duration.ofMinutes(4)) > 0, spammer + ": " + blocked);
                assertTrue(t.admin().rules("api", spammer).blocked(), spammer);
            }
        }
    }
}
