package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.RedisServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * {@code @OncePerCluster} in a real server: of three concurrent starts of the job, one runs. The IT
 * servers give the job's lock an at-least of 10 minutes, so a start that reaches the server after the
 * half-second run still finds the lock held: the count does not depend on how fast a loaded machine
 * delivers the three requests.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class OncePerClusterIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    static final String LOCK = "demo-report";

    @Test
    void threeConcurrentStartsRunTheJobOnce() throws Exception {
        int before = runs();
        long acquired = LibertyServer.lockMetric("tollgate_lock_acquired_total", LOCK);
        long heldElsewhere = LibertyServer.lockMetric("tollgate_lock_held_elsewhere_total", LOCK);
        long unavailable = LibertyServer.lockMetric("tollgate_lock_unavailable_total", LOCK);
        List<Reply> starts = Load.fire(3, 3, DemoClient::startJob);
        for (Reply s : starts) {
            assertEquals(200, s.status());
        }
        assertEquals(before + 1, runs(), "one ran, two found the lock held elsewhere");
        assertEquals(1, LibertyServer.lockMetric("tollgate_lock_acquired_total", LOCK) - acquired, "acquired");
        assertEquals(
                2,
                LibertyServer.lockMetric("tollgate_lock_held_elsewhere_total", LOCK) - heldElsewhere,
                "held elsewhere");
        assertEquals(
                0,
                LibertyServer.lockMetric("tollgate_lock_unavailable_total", LOCK) - unavailable,
                "Redis answered every start within the budget");
    }

    private static int runs() {
        return Integer.parseInt(demo.jobRuns().trim());
    }
}
