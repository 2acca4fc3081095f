package dev.tollgate.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Set;

/**
 * How to reach Redis.
 *
 * @param url {@code redis://[user:password@]host:port[/db]}, or {@code rediss://} for TLS
 * @param budget the most any single wait may take: connect, read and pool borrow alike; &gt; 0
 * @param poolSize the most connections one server opens; &gt; 0
 */
public record RedisSettings(URI url, Duration budget, int poolSize) {

    private static final Set<String> SCHEMES = Set.of("redis", "rediss");

    public RedisSettings {
        if (url == null || !SCHEMES.contains(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException(
                    "url must look like redis://[user:password@]host:port[/db] or rediss://..., but was " + url);
        }
        if (budget == null || budget.toMillis() < 1) {
            throw new IllegalArgumentException("budget must be at least 1ms, but was " + budget);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be > 0, but was " + poolSize);
        }
    }

    /** Parses {@code url}; throws {@link IllegalArgumentException} naming it when it is not a Redis URL. */
    public static RedisSettings of(String url, Duration budget, int poolSize) {
        try {
            return new RedisSettings(new URI(url), budget, poolSize);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("url is not a URI: " + e.getMessage(), e);
        }
    }

    /** The URL with any password masked, for logs. */
    public String safeUrl() {
        String userInfo = url.getUserInfo();
        if (userInfo == null) {
            return url.toString();
        }
        int colon = userInfo.indexOf(':');
        String masked = colon < 0 ? "***" : userInfo.substring(0, colon) + ":***";
        return url.toString().replace(userInfo + "@", masked + "@");
    }
}
