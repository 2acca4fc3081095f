package dev.tollgate.experiments.common;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;

/**
 * A separate connection running {@code MONITOR}: every command Redis executes, in order, with the
 * client that sent it, or {@code lua} for a command a script ran.
 */
public final class MonitorTap implements AutoCloseable {

    private static final String START = "tollgate-monitor-start";
    private static final String END = "tollgate-monitor-end";

    private final List<String> lines = new ArrayList<>();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Jedis connection;
    private final LocalRedis redis;

    private MonitorTap(LocalRedis redis) {
        this.redis = redis;
        this.connection = redis.admin();
    }

    /** Starts monitoring; returns once Redis is sending what it executes. */
    public static MonitorTap start(LocalRedis redis) throws InterruptedException {
        MonitorTap tap = new MonitorTap(redis);
        Thread t = new Thread(tap::listen, "monitor");
        t.setDaemon(true);
        t.start();
        try (Jedis poke = redis.admin()) {
            while (!tap.started.await(20, TimeUnit.MILLISECONDS)) {
                poke.echo(START);
            }
        }
        return tap;
    }

    /** Everything executed between {@link #start} and now, markers left out. */
    public List<String> stop() throws InterruptedException {
        try (Jedis poke = redis.admin()) {
            poke.echo(END);
        }
        if (!ended.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("MONITOR did not see its end marker");
        }
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Whether a MONITOR line is a command a script ran, rather than one a client sent. */
    public static boolean fromScript(String line) {
        return line.contains(" lua]");
    }

    @Override
    public void close() {
        connection.disconnect();
    }

    private void listen() {
        try {
            connection.monitor(new JedisMonitor() {
                @Override
                public void onCommand(String command) {
                    started.countDown();
                    if (command.contains(END)) {
                        ended.countDown();
                    } else if (!command.contains(START) && started.getCount() == 0) {
                        synchronized (lines) {
                            lines.add(command);
                        }
                    }
                }
            });
        } catch (RuntimeException closed) {
            // close() ends MONITOR by closing its connection.
        }
    }
}
