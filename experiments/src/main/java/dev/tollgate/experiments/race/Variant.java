package dev.tollgate.experiments.race;

/** How the checks that are in flight at once reach Redis. */
enum Variant {
    /**
     * N checks multiplexed on ONE connection by one thread, like one Node process: every command that
     * is ready is written in one pipeline, the replies are read, and each check moves on. This is the
     * article's read, read, write, write order.
     */
    ONE_CONNECTION("1conn"),
    /** N threads, each borrowing its own connection from the pool: how a Java app server calls Redis. */
    POOL("pool");

    final String id;

    Variant(String id) {
        this.id = id;
    }
}
