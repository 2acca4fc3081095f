package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.tollgate.testing.Await;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The live-servers heartbeat on a real Redis, its beats driven by the test: servers count each other,
 * a closed one leaves at once, one that stops beating is counted out after its expiry (Redis {@code
 * TIME}), and while Redis cannot be asked the last count stands.
 */
class LiveServersTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final Duration INTERVAL = Duration.ofMillis(100);
    private static final AtomicLong TESTS = new AtomicLong();

    /** Each test's servers under a prefix of their own, so that no test counts another's. */
    private final String prefix = "app" + TESTS.incrementAndGet() + ":";

    private final DrivenScheduler scheduler = new DrivenScheduler(new AtomicLong());
    private RedisLink link;

    @BeforeEach
    void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofMillis(200), 4));
    }

    @AfterEach
    void disconnect() {
        link.close();
    }

    private LiveServers server(String holder, Duration expiry) {
        return LiveServers.start(
                GuardedRedis.unguarded(link), KeyPrefix.parse(prefix), holder, scheduler, INTERVAL, expiry);
    }

    @Test
    void serversCountEachOtherAtTheirNextBeatAndAClosedOneLeavesAtOnce() {
        LiveServers a = server("same-holder", Duration.ofMinutes(1));
        LiveServers b = server("same-holder", Duration.ofMinutes(1));
        LiveServers c = server("other", Duration.ofMinutes(1));
        assertEquals(1, a.live(), "no beat yet: a server knows of no other");
        assertNotEquals(a.id(), b.id(), "two engines of one holder are two servers");
        scheduler.advance(INTERVAL);
        scheduler.advance(INTERVAL);
        assertEquals(3, a.live());
        assertEquals(3, b.live());
        assertEquals(3, c.live());
        assertEquals(3, redis.admin().zcard(prefix + "tollgate:{servers}"), "one key, under the key prefix");
        c.close();
        scheduler.advance(INTERVAL);
        assertEquals(2, a.live(), "a closed server took itself out");
        assertEquals(2, b.live());
        a.close();
        b.close();
        assertEquals(0, redis.admin().exists(prefix + "tollgate:{servers}") ? 1 : 0, "the last one out leaves no key");
        assertEquals(0, scheduler.running(), "closing stops the beats");
    }

    @Test
    void aServerThatStopsBeatingIsCountedOutAfterItsExpiry() {
        LiveServers stays = server("stays", Duration.ofMinutes(1));
        LiveServers dies = server("dies", Duration.ofMillis(300));
        scheduler.advance(INTERVAL);
        scheduler.advance(INTERVAL);
        assertEquals(2, stays.live());
        // "dies" beats no more (a killed JVM): its member expires by Redis's clock.
        DrivenScheduler own = new DrivenScheduler(new AtomicLong());
        LiveServers after = LiveServers.start(
                GuardedRedis.unguarded(link), KeyPrefix.parse(prefix), "after", own, INTERVAL, Duration.ofMinutes(1));
        own.advance(INTERVAL);
        assertEquals(3, after.live(), "within its expiry the silent server still counts");
        Await.until("the silent server counted out", () -> {
            own.advance(INTERVAL);
            return after.live() == 2;
        });
        stays.close();
        after.close();
        dies.close();
    }

    @Test
    void whileRedisCannotBeAskedTheLastCountStands() throws Exception {
        LiveServers a = server("a", Duration.ofMinutes(1));
        LiveServers b = server("b", Duration.ofMinutes(1));
        scheduler.advance(INTERVAL);
        scheduler.advance(INTERVAL);
        assertEquals(2, a.live());
        redis.pause();
        try {
            scheduler.advance(INTERVAL);
            scheduler.advance(INTERVAL);
            assertEquals(2, a.live(), "a failed beat keeps the count learned before");
            assertEquals(2, b.live());
        } finally {
            redis.resume();
        }
        b.close();
        Await.until("the beat answered again", () -> {
            scheduler.advance(INTERVAL);
            return a.live() == 1;
        });
        a.close();
    }
}
