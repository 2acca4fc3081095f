package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * Two Liberty servers, the same WAR, the same Redis, no balancer in front: requests alternate between
 * them, and the limit holds across both as one, every decision Redis's ({@link Undegraded}).
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class TwoServersIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    /** Both servers warm for a burst ({@link RedisReady#awaitBurstReady}): a cold pool is not what is counted. */
    @BeforeAll
    static void serversReady() throws Exception {
        RedisReady.awaitBurstReady();
    }

    @Test
    void oneLimitAcrossTwoServers() throws Exception {
        List<String> servers = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());
        List<Reply> replies = Undegraded.during(
                servers, "demo", () -> Load.fire(1000, 32, i -> servers.get(i % 2), c -> c.helloFor("10.0.7.1")));
        int[] admitted = new int[2];
        int[] limited = new int[2];
        for (int i = 0; i < replies.size(); i++) {
            int status = replies.get(i).status();
            admitted[i % 2] += status == 200 ? 1 : 0;
            limited[i % 2] += status == 429 ? 1 : 0;
        }
        assertEquals(100, admitted[0] + admitted[1], "admitted by each server: " + admitted[0] + ", " + admitted[1]);
        assertEquals(900, limited[0] + limited[1]);
        assertTrue(
                admitted[0] > 0 && admitted[1] > 0, "both servers admitted some: " + admitted[0] + ", " + admitted[1]);
        System.out.println("two servers admitted " + admitted[0] + " + " + admitted[1] + " = 100");
    }
}
