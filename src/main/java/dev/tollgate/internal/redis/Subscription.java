package dev.tollgate.internal.redis;

import dev.tollgate.internal.core.Failures;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import redis.clients.jedis.JedisPubSub;

/**
 * A Redis channel listened to on a daemon thread of its own, on one connection that blocks in the
 * subscription. A broken connection is replaced after {@code retry}; messages published meanwhile are
 * lost (Redis keeps none), so listeners must not depend on every one arriving.
 */
public final class Subscription implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Subscription.class.getName());

    private final RedisLink link;
    private final String channel;
    private final Consumer<String> onMessage;
    private final Duration retry;
    private final Thread thread;
    private volatile boolean closed;
    /** Ends the wait between retries at close; the thread is never interrupted (see {@link #close}). */
    private final CountDownLatch closing = new CountDownLatch(1);

    private volatile boolean subscribed;
    private volatile JedisPubSub current;
    private boolean wasDown;

    private Subscription(RedisLink link, String channel, Consumer<String> onMessage, Duration retry) {
        this.link = link;
        this.channel = channel;
        this.onMessage = onMessage;
        this.retry = retry;
        this.thread = new Thread(this::run, "tollgate-subscription-" + channel);
        thread.setDaemon(true);
    }

    /** Starts listening to {@code channel}, handing each message to {@code onMessage} on the listening thread. */
    public static Subscription start(RedisLink link, String channel, Consumer<String> onMessage, Duration retry) {
        Subscription s = new Subscription(link, channel, onMessage, retry);
        s.thread.start();
        return s;
    }

    /** Whether Redis has confirmed the subscription and it has not broken since. */
    public boolean isListening() {
        return subscribed;
    }

    private void run() {
        while (!closed) {
            JedisPubSub pubSub = new Listener();
            current = pubSub;
            try {
                link.current().subscribe(pubSub, channel);
            } catch (RuntimeException e) {
                down(e);
            } finally {
                subscribed = false;
            }
            if (!closed) {
                try {
                    if (closing.await(retry.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void down(RuntimeException e) {
        if (!closed && !wasDown) {
            wasDown = true;
            LOG.info(() -> "Tollgate: listening to " + channel + " on " + link.description() + " failed ("
                    + Failures.describe(e) + "); waiters poll until it is back");
        }
    }

    private final class Listener extends JedisPubSub {
        @Override
        public void onSubscribe(String ch, int count) {
            if (closed) {
                unsubscribe();
                return;
            }
            subscribed = true;
            if (wasDown) {
                wasDown = false;
                LOG.info(() -> "Tollgate: listening to " + channel + " on " + link.description() + " again");
            }
        }

        @Override
        public void onMessage(String ch, String message) {
            try {
                onMessage.accept(message);
            } catch (RuntimeException e) {
                LOG.warning(() -> "Tollgate: a listener of " + channel + " failed (" + Failures.describe(e) + ")");
            }
        }
    }

    /**
     * Stops listening; the thread ends once Redis confirms, or at once when not connected. It is not
     * interrupted: Jedis ends a subscription's read loop on an interrupted thread without reading the rest
     * of what Redis sent (the {@code UNSUBSCRIBE} confirmation, messages before it), and gives the
     * connection back to the pool with those replies on it, for the next borrower to read as its own.
     */
    @Override
    public void close() {
        closed = true;
        closing.countDown();
        JedisPubSub pubSub = current;
        if (pubSub != null && subscribed) {
            try {
                pubSub.unsubscribe();
            } catch (RuntimeException notConnected) {
                // The connection is gone already; the loop sees closed and ends.
            }
        }
    }
}
