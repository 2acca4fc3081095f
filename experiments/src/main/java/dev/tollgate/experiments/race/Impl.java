package dev.tollgate.experiments.race;

/** The two checks the race compares. */
enum Impl {
    /** HMGET, decide in Java, HSET: two round trips, as in the article. */
    NAIVE("naive"),
    /** Tollgate's token-bucket.lua: one EVALSHA, atomic in Redis. */
    LUA("lua");

    final String id;

    Impl(String id) {
        this.id = id;
    }
}
