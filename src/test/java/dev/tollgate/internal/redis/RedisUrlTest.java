package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.redis.RedisUrl.Kind;
import dev.tollgate.internal.redis.RedisUrl.Node;
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
        assertEquals("redis-cluster://***@10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,node4:6379", u.toString());
    }

    @Test
    void sentinelNamesItsMaster() {
        RedisUrl u = RedisUrl.parse("rediss-sentinel://:pw@s1:26380,s2,s3/mymaster/3");
        assertEquals(Kind.SENTINEL, u.kind());
        assertTrue(u.tls());
        assertEquals(List.of(new Node("s1", 26380), new Node("s2", 26379), new Node("s3", 26379)), u.nodes());
        assertEquals("mymaster", u.masterName());
        assertEquals(3, u.database());
        assertEquals("rediss-sentinel://***@s1:26380,s2:26379,s3:26379/mymaster/3", u.safeText());
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
                "redis-cluster://h1:70000|the port of host 1 must be 1..65535",
                "redis-cluster://h1:x|the port of host 1 is not a number",
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
        assertTrue(e.contains("tollgate.redis.url=" + url.substring(0, url.indexOf("://")) + "://*** ("), e);
        assertFalse(e.contains("topsecret"), e);
        assertTrue(e.contains("redis-sentinel://[user:password@]host:port,host:port,.../<master-name>"), e);
    }

    /**
     * Each shape of URL that once showed a secret in a message: a one-word token, an {@code @} in the
     * password, a {@code /} in a cluster password (once read as a host and echoed as its "port"), a bad
     * percent-escape (once echoed by the decoder). Every message and every mask hides all of the user
     * information, whatever else is wrong: a URL that fails to parse is shown as its scheme and {@code ***}
     * (HostileRedisUrlTest: the URLs without an {@code @}).
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://s3cretToken@host:63x79|s3cretToken|redis://***",
                "redis://s3cretToken@host:6379|s3cretToken|redis://***",
                "redis://s3cretToken@host:6379/x|s3cretToken|redis://***",
                "rediss://default:pa@ss@host:x|pa@ss|rediss://***",
                "rediss://default:pa@ss@host/db|pa@ss|rediss://***",
                "redis-cluster://app:Sup3rSecret/x@h1:7000,h2:7001/3|Sup3rSecret|redis-cluster://***",
                "redis-cluster://app:Sup3rSecret@h1:70x0|Sup3rSecret|redis-cluster://***",
                "redis-cluster://app:Sup3r,Secret@h1:7000,|Sup3r|redis-cluster://***",
                "redis-sentinel://app:Sup3r:Secret@s1:x/m|Sup3r|redis-sentinel://***",
                "redis://:pa%zzss@host:6379/x|zzss|redis://***",
                "redis://us%zzer:pw@host|zzer|redis://***",
                "redis://u:p/w@host:6379/x|p/w|redis://***",
                "redis://u:p?w@host:6379/x|p?w|redis://***",
            })
    void noMessageShowsAnyPartOfTheUserInformation(String url, String secret, String masked) {
        assertEquals(masked, RedisUrl.mask(url));
        String parse = assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url))
                .getMessage();
        assertFalse(parse.contains(secret), parse);
        String settings = assertThrows(
                        IllegalArgumentException.class, () -> RedisSettings.of(url, java.time.Duration.ofSeconds(1), 1))
                .getMessage();
        assertFalse(settings.contains(secret), settings);
        assertTrue(settings.contains(masked), settings);
        String config = assertThrows(
                        TollgateConfigException.class,
                        () -> SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url))))
                .getMessage();
        assertFalse(config.contains(secret), config);
        assertTrue(config.contains("tollgate.redis.url=" + masked + " ("), config);
    }

    @Test
    void aPasswordMayHoldAnyCharacterBeforeTheLastAt() {
        RedisUrl u = RedisUrl.parse("rediss://default:pa@ss/w,o:rd@host");
        assertEquals("default", u.user());
        assertEquals("pa@ss/w,o:rd", u.password());
        assertEquals(List.of(new Node("host", 6379)), u.nodes());
        assertEquals("rediss://***@host:6379", u.toString());
        assertEquals("redis://***@h:6379", RedisUrl.parse("redis://token:@h").toString(), "a user alone is masked too");
    }

    @ParameterizedTest
    @CsvSource({
        "redis://redis_cache:6379, redis_cache",
        "redis://redis_cache, redis_cache",
        "redis://my-redis.internal_zone.example:6380/1, my-redis.internal_zone.example",
    })
    void hostNamesWithUnderscoresAsComposeFilesWriteThem(String url, String host) {
        assertEquals(host, RedisUrl.parse(url).nodes().get(0).host());
        assertEquals(
                RedisUrl.parse(url),
                SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url)))
                        .redisUrl()
                        .orElseThrow());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://h1:6379,h2:6379|names one server",
                "redis://ho st:6379|host 1 is not a host name",
                "redis://[fe80::1:6379|bracketed host",
                "redis://[h1]:6379|bracketed host",
                "redis://h1:6379?timeout=1|no query",
                "redis:/h1:6379|unknown scheme ''",
            })
    void badStandaloneUrlsSayWhatIsWrong(String url, String expected) {
        String message = assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url))
                .getMessage();
        assertTrue(message.contains(expected), message);
    }

    @Test
    void settingsAcceptClusterAndSentinel() {
        for (String url : List.of("redis-cluster://h1:7000,h2:7001", "redis-sentinel://s1,s2,s3/m")) {
            TollgateSettings s = SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url)));
            assertEquals(RedisUrl.parse(url), s.redisUrl().orElseThrow());
        }
    }
}
