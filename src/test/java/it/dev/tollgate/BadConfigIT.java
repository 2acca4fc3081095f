package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo WAR deployed on a second Liberty server with bad settings: the deployment fails, and the
 * one message names every bad property and its value.
 */
@OwnServer
class BadConfigIT {

    static ExtraServer server;
    static String log;

    @BeforeAll
    static void deployWithBadSettings() throws Exception {
        server = ExtraServer.start(
                "badconfig",
                List.of(
                        "-Dtollgate.limits.demo.capacity=lots",
                        "-Dtollgate.limits.extra.capacity=5",
                        "-Dtollgate.limits.demo-user.cost=9",
                        "-Dtollgate.limits.demo-ejb.capcity=5",
                        "-Dtollgate.http.limits=demo,ghost",
                        "-Dtollgate.redis.url=http://127.0.0.1:6379",
                        "-Dtollgate.locks.demo-report.ttl=forever"),
                Map.of());
        log = server.log();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void deploymentFails() {
        assertTrue(log.contains("CWWKZ0002E"), log);
        assertFalse(log.contains("CWWKZ0001I: Application tollgate started"), "the application must not start");
    }

    @Test
    void badValueIsNamedWithTheValue() {
        assertTrue(log.contains("tollgate.limits.demo.capacity=lots (expected a whole number > 0)"), log);
    }

    @Test
    void missingRequiredPropertyIsNamed() {
        assertTrue(log.contains("tollgate.limits.extra.refill-tokens is required"), log);
    }

    @Test
    void costAboveCapacityIsNamed() {
        assertTrue(
                log.contains("tollgate.limits.demo-user.cost=9 (expected a whole number from 1 to the capacity (3)"),
                log);
    }

    @Test
    void misspelledSettingIsNamed() {
        assertTrue(log.contains("tollgate.limits.demo-ejb.capcity (unknown setting 'capcity'"), log);
        assertFalse(log.contains("capcity=5"), "an unknown name's value is not shown: it may be a password");
    }

    @Test
    void unknownLimitInTheFilterSettingIsNamed() {
        assertTrue(log.contains("tollgate.http.limits=demo,ghost (expected no limit named 'ghost' is configured"), log);
        assertFalse(log.contains("no limit named 'demo'"), "demo is defined, if badly: reported once, on its own");
    }

    @Test
    void badRedisUrlIsNamed() {
        assertTrue(log.contains("tollgate.redis.url=http://127.0.0.1:6379 (expected redis://"), log);
    }

    @Test
    void badLockOverrideIsNamed() {
        assertTrue(log.contains("tollgate.locks.demo-report.ttl=forever (expected a duration such as"), log);
    }
}
