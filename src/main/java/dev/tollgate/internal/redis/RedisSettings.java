package dev.tollgate.internal.redis;

import java.time.Duration;

/**
 * How to reach Redis.
 *
 * @param url one server, a cluster's seed nodes or a Sentinel set (see {@link RedisUrl})
 * @param budget the most any single wait may take: connect, read and pool borrow alike; &gt; 0
 * @param poolSize the most connections one server opens to each Redis node; &gt; 0
 */
public record RedisSettings(RedisUrl url, Duration budget, int poolSize) {

    public RedisSettings {
        if (url == null) {
            throw new IllegalArgumentException("url must not be null");
        }
        if (budget == null || budget.toMillis() < 1) {
            throw new IllegalArgumentException("budget must be at least 1ms, but was " + budget);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be > 0, but was " + poolSize);
        }
    }

    /**
     * Parses {@code url}: {@code redis://}, {@code redis-cluster://} or {@code redis-sentinel://} (and their
     * {@code rediss} TLS forms); throws {@link IllegalArgumentException} naming the masked URL when it is not
     * one.
     */
    public static RedisSettings of(String url, Duration budget, int poolSize) {
        RedisUrl parsed;
        try {
            parsed = RedisUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "url must be a Redis, Redis Cluster or Sentinel URL, but was " + RedisUrl.mask(url) + ": "
                            + e.getMessage(),
                    e);
        }
        return new RedisSettings(parsed, budget, poolSize);
    }

    /** The URL with any password masked, for logs. */
    public String safeUrl() {
        return url.safeText();
    }
}
