package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.Await;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A subscription borrows its connection from the pool and gives it back when it ends. Closed while
 * messages arrive, it must give it back with nothing left unread on it: a reply left behind (the
 * {@code UNSUBSCRIBE} confirmation, a message) is what the next borrower would read as its own answer
 * (seen in CI as a heartbeat handed a list at engine close, after the administration channel closed).
 */
class SubscriptionTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @Test
    void closedWhileMessagesArriveItHandsThePoolBackAConnectionWithNoReplyLeftOnIt() throws Exception {
        // One connection in the pool: whatever the subscription leaves on it, the next call reads.
        try (RedisLink link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofSeconds(5), 1));
                Jedis publisher = redis.admin()) {
            for (int round = 0; round < 100; round++) {
                String channel = "subscription-test-" + round;
                AtomicInteger heard = new AtomicInteger();
                Subscription subscription =
                        Subscription.start(link, channel, m -> heard.incrementAndGet(), Duration.ofMillis(50));
                Await.until("round " + round + " listening", subscription::isListening);
                AtomicBoolean flooding = new AtomicBoolean(true);
                Thread flood = new Thread(() -> {
                    try (Jedis p = redis.admin()) {
                        while (flooding.get()) {
                            p.publish(channel, "m");
                        }
                    }
                });
                flood.start();
                Await.until("round " + round + ": a message heard", () -> heard.get() > 0);
                subscription.close();
                flooding.set(false);
                flood.join();
                String key = "subscription-test-key";
                publisher.set(key, "round " + round);
                // Waits for the pool's one connection, then must read its own answer.
                assertEquals("round " + round, link.current().get(key), "round " + round);
            }
        }
    }
}
