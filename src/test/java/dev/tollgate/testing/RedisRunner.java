package dev.tollgate.testing;

import java.io.IOException;

/**
 * One Redis that {@link RedisServer} drives: a {@code redis-server} process or a container. Either way
 * it listens on {@code 127.0.0.1:<port>} and keeps that port across {@link #restart()}, so clients made
 * before a restart find the new server where the old one was.
 */
interface RedisRunner {

    /** Starts Redis on {@code 127.0.0.1:port} and returns once it answers. */
    void start(int port) throws IOException, InterruptedException;

    /** SIGKILL: gone at once, connections refused. */
    void kill() throws IOException, InterruptedException;

    /** Frozen (SIGSTOP, or a paused container): the kernel keeps its connections open, nothing answers. */
    void freeze() throws IOException, InterruptedException;

    /** Undoes {@link #freeze()}; nothing when not frozen. */
    void thaw() throws IOException, InterruptedException;

    /** Killed and started again on the same port: every key and the script cache are gone. */
    void restart() throws IOException, InterruptedException;

    /** Killed and removed. */
    void stop();

    /** Started, not killed (a frozen Redis is running). */
    boolean running();
}
