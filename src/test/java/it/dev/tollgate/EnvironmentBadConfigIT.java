package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bad value in each setting's environment variable, on a Liberty server of its own: the deployment
 * fails, and its one message names each setting by its property name with the value the variable gave
 * (so every variable reached the setting it names), never a password, and refuses unknown names.
 */
@OwnServer
class EnvironmentBadConfigIT {

    static ExtraServer server;
    static String log;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> env = new TreeMap<>();
        env.put("TOLLGATE_REDIS_URL", "rediss://default:pa@ss@127.0.0.1:63x79");
        env.put("TOLLGATE_REDIS_TIMEOUT", "soon");
        env.put("TOLLGATE_REDIS_POOL_SIZE", "many");
        env.put("TOLLGATE_FAIL_OPEN", "maybe");
        env.put("TOLLGATE_HTTP_LIMITS", "demo,ghost");
        env.put("TOLLGATE_HTTP_TRUSTED_PROXIES", "1a2b.bad.cafe");
        env.put("TOLLGATE_HTTP_CLIENT_HEADER", "X-Real-IP");
        env.put("TOLLGATE_HTTP_IPV6_PREFIX", "200");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_ALGORITHM", "leaky");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_CAPACITY", "lots");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_REFILL_TOKENS", "some");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_REFILL_PERIOD", "often");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_COST", "cheap");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_KEY", "header:");
        env.put("TOLLGATE_LIMITS_DEMO_EJB_FAIL_OPEN", "perhaps");
        env.put("TOLLGATE_LOCKS_DEMO_REPORT_TTL", "forever");
        env.put("TOLLGATE_REDIS_TIMOUT", "1s");
        server = ExtraServer.start("envbadconfig", List.of("-Dtollgate.redis.timout=1s"), env);
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

    @ParameterizedTest
    @ValueSource(
            strings = {
                "tollgate.redis.url=rediss://*** (expected redis://",
                "tollgate.redis.timeout=soon (expected",
                "tollgate.redis.pool-size=many (expected",
                "tollgate.fail-open=maybe (expected true or false)",
                "tollgate.http.limits=demo,ghost (expected no limit named 'ghost'",
                "tollgate.http.trusted-proxies=1a2b.bad.cafe (expected an address or address/prefix",
                "tollgate.http.client-header=X-Real-IP (expected X-Forwarded-For or Forwarded)",
                "tollgate.http.ipv6-prefix=200 (expected",
                "tollgate.limits.demo-ejb.algorithm=leaky (expected",
                "tollgate.limits.demo-ejb.capacity=lots (expected",
                "tollgate.limits.demo-ejb.refill-period=often (expected",
                "tollgate.limits.demo-ejb.cost=cheap (expected",
                "tollgate.limits.demo-ejb.key=header: (expected",
                "tollgate.limits.demo-ejb.fail-open=perhaps (expected",
                "tollgate.locks.demo-report.ttl=forever (expected",
                "tollgate.redis.timout (not a Tollgate setting; did you mean tollgate.redis.timeout?)",
                "TOLLGATE_REDIS_TIMOUT (an environment variable that names no Tollgate setting; did you mean"
                        + " TOLLGATE_REDIS_TIMEOUT (tollgate.redis.timeout)?)",
            })
    void eachVariableIsNamedByItsSettingWithItsValue(String expected) {
        assertTrue(log.contains(expected), expected + " in\n" + log);
    }

    @Test
    void refillTokensOfAWindowLimitOrTheTokenBucketIsNamed() {
        // leaky is no algorithm, so demo-ejb stays a token bucket and its refill-tokens is read and refused.
        assertTrue(log.contains("tollgate.limits.demo-ejb.refill-tokens=some (expected"), log);
    }

    @Test
    void noPasswordAndNoPhantomLimit() {
        assertFalse(log.contains("pa@ss"), "the password is masked whole");
        assertFalse(log.contains("ss@127"), "the password is masked whole");
        assertFalse(log.contains("demo_ejb"), "TOLLGATE_LIMITS_DEMO_EJB_* is demo-ejb's");
        assertFalse(log.contains("demo.ejb"), "TOLLGATE_LIMITS_DEMO_EJB_* is demo-ejb's");
    }
}
