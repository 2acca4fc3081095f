package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;

/** {@code @OncePerCluster} in a real server: of three concurrent starts of the job, one runs. */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
public class OncePerClusterIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    @Test
    void threeConcurrentStartsRunTheJobOnce() throws Exception {
        int before = runs();
        List<Reply> starts = Load.fire(3, 3, DemoClient::startJob);
        for (Reply s : starts) {
            assertEquals(200, s.status());
        }
        assertEquals(before + 1, runs(), "one ran, two found the lock held elsewhere");
        String metrics = LibertyServer.metrics();
        assertTrue(metrics.contains("tollgate_lock_acquired_total{lock=\"demo-report\""), metrics);
        assertTrue(metrics.contains("tollgate_lock_held_elsewhere_total{lock=\"demo-report\""), metrics);
    }

    private static int runs() {
        return Integer.parseInt(demo.jobRuns().trim());
    }
}
