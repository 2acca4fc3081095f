package dev.tollgate.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.config.PropertySource;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.config.TollgateSettings;
import dev.tollgate.redis.RedisUrl.Kind;
import dev.tollgate.redis.RedisUrl.Node;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedisUrlTest {

    @Test
    void standaloneKeepsItsDefaults() {
        RedisUrl u = RedisUrl.parse("rediss://:s3cret@redis.internal/2");
        assertEquals(Kind.STANDALONE, u.kind());
        assertTrue(u.tls());
        assertEquals(List.of(new Node("redis.internal", 6379)), u.nodes());
        assertNull(u.user());
        assertEquals("s3cret", u.password());
        assertEquals(2, u.database());
    }

    @Test
    void clusterTakesAHostList() {
        RedisUrl u = RedisUrl.parse("redis-cluster://app:p%40ss@10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002,node4");
        assertEquals(Kind.CLUSTER, u.kind());
        assertFalse(u.tls());
        assertEquals(
                List.of(
                        new Node("10.0.0.1", 7000),
                        new Node("10.0.0.2", 7001),
                        new Node("::1", 7002),
                        new Node("node4", 6379)),
                u.nodes());
        assertEquals("app", u.user());
        assertEquals("p@ss", u.password(), "percent-decoded");
        assertEquals("redis-cluster://app:***@10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,node4:6379", u.toString());
    }

    @Test
    void sentinelNamesItsMaster() {
        RedisUrl u = RedisUrl.parse("rediss-sentinel://:pw@s1:26380,s2,s3/mymaster/3");
        assertEquals(Kind.SENTINEL, u.kind());
        assertTrue(u.tls());
        assertEquals(List.of(new Node("s1", 26380), new Node("s2", 26379), new Node("s3", 26379)), u.nodes());
        assertEquals("mymaster", u.masterName());
        assertEquals(3, u.database());
        assertEquals("rediss-sentinel://:***@s1:26380,s2:26379,s3:26379/mymaster/3", u.safeText());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis-sentinel://s1:26379,s2:26379|/<master-name>",
                "redis-sentinel://s1:26379/m/x|database is not a number",
                "redis-cluster://h1:7000,,h2:7001|empty host",
                "redis-cluster://h1:7000,h1:7000|must not repeat",
                "redis-cluster://h1:7000/3|only database 0",
                "redis-cluster://h1:70000|port must be 1..65535",
                "redis-cluster://h1:x|port of h1:x is not a number",
                "redis-cluster://user@h1:7000|credentials are user:password",
                "redis-cluster://::1:7000|brackets",
                "http://h:6379|unknown scheme 'http'",
                "redis-cluster://h1:7000?timeout=1|no query",
            })
    void badUrlsSayWhatIsWrong(String url, String expected) {
        String message = assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url))
                .getMessage();
        assertTrue(message.contains(expected), message);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "redis-cluster://u:topsecret@h1:7000,h2:x",
                "redis-sentinel://:topsecret@s1:26379",
                "redis-sentinel://:topsecret@s1:26379,,s2"
            })
    void settingsNameThePropertyAndMaskThePassword(String url) {
        String e = assertThrows(
                        TollgateConfigException.class,
                        () -> SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url))))
                .getMessage();
        assertTrue(e.contains("tollgate.redis.url="), e);
        assertTrue(e.contains(":***@"), e);
        assertFalse(e.contains("topsecret"), e);
        assertTrue(e.contains("redis-sentinel://[user:password@]host:port,host:port,.../<master-name>"), e);
    }

    @Test
    void settingsAcceptClusterAndSentinel() {
        for (String url : List.of("redis-cluster://h1:7000,h2:7001", "redis-sentinel://s1,s2,s3/m")) {
            TollgateSettings s = SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url)));
            assertEquals(RedisUrl.parse(url), s.redisUrl().orElseThrow());
        }
    }
}
