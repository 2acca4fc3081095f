package dev.tollgate.internal.config;

import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.lock.LockNames;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.RedisUrl;
import java.util.Optional;

/**
 * The settings that are set once ({@link Setting.Scope#GLOBAL}) but the HTTP ones ({@link HttpReader}):
 * Redis, the guard, the modes every limit starts from, the operator resource, the lock holder. Each
 * takes its default and its rule from its {@link Setting} row; a bad value is reported and its default
 * used in its place.
 */
final class GlobalReader {

    private static final String REDIS_URL_FORMS = "redis://[user:password@]host:port[/db],"
            + " redis-cluster://[user:password@]host:port,host:port,..."
            + " or redis-sentinel://[user:password@]host:port,host:port,.../<master-name>[/db]"
            + " (rediss, rediss-cluster, rediss-sentinel for TLS)";

    private GlobalReader() {}

    static Optional<RedisUrl> redisUrl(PropertyValues values) {
        Optional<String> url = values.source()
                .get(Setting.REDIS_URL.property())
                .map(String::trim)
                .filter(s -> !s.isEmpty());
        try {
            return url.map(RedisUrl::parse);
        } catch (IllegalArgumentException e) {
            values.error(
                    Setting.REDIS_URL.property(), RedisUrl.mask(url.get()), REDIS_URL_FORMS + "; " + e.getMessage());
            return Optional.empty();
        }
    }

    /** {@code guard} with {@code tollgate.breaker.failures} and {@code .delay}. */
    static GuardSettings breaker(PropertyValues values, GuardSettings guard) {
        return guard.withBreaker(values.whole(Setting.BREAKER_FAILURES), values.duration(Setting.BREAKER_DELAY));
    }

    /** The global mode and local fallback, which each limit may set for itself. */
    static LimitModes.Defaults modes(PropertyValues values) {
        return new LimitModes.Defaults(
                values.value(Setting.MODE, LimitMode::parse),
                values.flag(Setting.LOCAL_FALLBACK),
                values.value(Setting.LOCAL_FALLBACK_SERVERS, Setting.LOCAL_FALLBACK_SERVERS::wholeOrAuto));
    }

    static AdminSettings admin(PropertyValues values) {
        return new AdminSettings(values.flag(Setting.ADMIN_ENABLED), values.value(Setting.ADMIN_ROLE, r -> {
            if (!AdminSettings.ROLE.matcher(r).matches()) {
                throw new IllegalArgumentException();
            }
            return r;
        }));
    }

    static String lockHolder(PropertyValues values) {
        return values.value(
                Setting.LOCK_HOLDER.property(),
                LockNames.thisProcess(),
                LockNames::checkHolder,
                Setting.LOCK_HOLDER.rule());
    }

    static KeyPrefix keyPrefix(PropertyValues values) {
        return values.value(
                Setting.REDIS_KEY_PREFIX.property(),
                KeyPrefix.NONE,
                GlobalReader::keyPrefix,
                Setting.REDIS_KEY_PREFIX.rule());
    }

    private static KeyPrefix keyPrefix(String s) {
        try {
            return KeyPrefix.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(); // the rule says why
        }
    }
}
