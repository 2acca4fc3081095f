package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.engine.Engine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mistyped {@code tollgate.redis.url} must not print its password: the typo {@code
 * redis://default:S3cret:6379} (no {@code @}) once printed it in five log files, because the mask only
 * hid what stood left of an {@code @}. A URL that fails to parse is shown as its scheme and {@code ***}
 * only, and no message (nor any exception in its cause chain, which servers log whole) quotes a part of
 * it; every log record Tollgate writes is read too, at every level.
 */
class HostileRedisUrlTest {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger root = Logger.getLogger("");
    private Level rootLevel;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void capture() {
        rootLevel = root.getLevel();
        root.setLevel(Level.ALL);
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
    }

    @AfterEach
    void release() {
        root.removeHandler(handler);
        root.setLevel(rootLevel);
    }

    /** url | the secret in it (also looked for percent-decoded). */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://default:S3cretPw:6379|S3cretPw",
                "rediss://default:S3cretPw:6379|S3cretPw",
                "redis://default:S3cretPw|S3cretPw",
                "redis://:S3cretPw|S3cretPw",
                "redis://:S3cretPw:6379/0|S3cretPw",
                "redis://default:S3cretPw/0|S3cretPw",
                "redis://default:123456|123456",
                "redis://default:98765:6379|98765",
                "redis://default:S3c%72etPw:6379|S3c%72etPw",
                "redis://default:S3cretPw%zz:6379|S3cretPw",
                "redis://default:S3cret@Pw:x|S3cret",
                "redis://host:6379?password=S3cretPw|S3cretPw",
                "redis://host:6379/0?password=S3cretPw|S3cretPw",
                "redis://u:S3cretPw@host:6379?timeout=1|S3cretPw",
                "redis://host:6379#S3cretPw|S3cretPw",
                "redis://default:S3cretPw:6379/x|S3cretPw",
                "redis-cluster://default:S3cretPw:7000,h2:7001|S3cretPw",
                "redis-cluster://default:S3cretPw,h2:7001|S3cretPw",
                "redis-cluster://h1:7000/S3cretPw|S3cretPw",
                "redis-sentinel://default:S3cretPw:26379/m|S3cretPw",
                "rediss-sentinel://default:S3cretPw|S3cretPw",
                "redis:/default:S3cretPw@host|S3cretPw",
                "redis:/default:S3cretPw:6379|S3cretPw",
                "redis//default:S3cretPw:6379|S3cretPw",
                "default:S3cretPw:6379|S3cretPw",
                "redis:/u:a://S3cretPw@h|S3cretPw",
                "redis://ho st:S3cretPw|S3cretPw",
                "redis://[S3cretPw]:6379|S3cretPw",
                "redis://S3cret_Pw!:6379|S3cret_Pw",
            })
    void aUrlThatFailsToParseShowsNothingOfItsUserInformation(String url, String secret) {
        List<String> secrets = List.of(secret, URLDecoder.decode(secret.replace("%zz", ""), StandardCharsets.UTF_8));
        List<String> shown = new ArrayList<>();
        shown.add(RedisUrl.mask(url));
        shown.add(trace(assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url))));
        shown.add(trace(
                assertThrows(IllegalArgumentException.class, () -> RedisSettings.of(url, Duration.ofMillis(100), 1))));
        TollgateConfigException config = assertThrows(
                TollgateConfigException.class,
                () -> Engine.build(SettingsReader.read(PropertySource.of(Map.of("tollgate.redis.url", url)))));
        shown.add(trace(config));
        assertTrue(
                config.getMessage().contains("tollgate.redis.url=" + RedisUrl.mask(url) + " ("), config.getMessage());
        for (LogRecord r : records) {
            shown.add(r.getMessage() + " " + (r.getParameters() == null ? "" : List.of(r.getParameters())));
            if (r.getThrown() != null) {
                shown.add(trace(r.getThrown()));
            }
        }
        for (String s : shown) {
            for (String word : secrets) {
                assertFalse(s.contains(word), "'" + word + "' shown: " + s);
            }
        }
        assertTrue(RedisUrl.mask(url).endsWith("***"), RedisUrl.mask(url));
    }

    /** A URL that parses is shown as parsed, user information masked whole. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://:S3cretPw@host|redis://***@host:6379",
                "rediss://default:S3c:ret@host:6380/2|rediss://***@host:6380/2",
                "redis-cluster://u:p@ss@h1,h2:7001|redis-cluster://***@h1:6379,h2:7001",
            })
    void aUrlThatParsesIsShownAsParsed(String url, String masked) {
        assertEquals(masked, RedisUrl.mask(url));
        assertEquals(masked, RedisUrl.parse(url).toString());
    }

    /** Only the scheme wrong: the address is shown as it would parse, user information masked. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:6379|http://127.0.0.1:6379",
                "http://user:S3cretPw@host:6379|http://***@host:6379",
                "tcp://host|tcp://host:6379",
                "http://default:S3cretPw:6379|http://***",
            })
    void aWrongSchemeAloneShowsTheAddress(String url, String masked) {
        assertEquals(masked, RedisUrl.mask(url));
        assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url));
    }

    private static String trace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
