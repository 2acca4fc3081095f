package dev.tollgate.health;

import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.redis.RedisLink;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of Tollgate: which store serves, whether Redis answers, whether the breaker is open, and
 * whether Redis accepts Tollgate's credentials ({@code redisAuth}: {@code ok}, or {@code refused: } and
 * what Redis said, while every decision is degraded with cause {@code auth}).
 * Always UP: a Redis outage does not make a server unready. Every server shares the same Redis, so
 * taking them out of the balancer would turn a degraded limiter into an outage; the degraded
 * decisions (fail open or closed, per limit) are the answer to a Redis outage, and this check says
 * that they are being made.
 */
@Readiness
@ApplicationScoped
public class TollgateReadiness implements HealthCheck {

    @Inject
    TollgateRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("tollgate").up();
        Tollgate tollgate = runtime.tollgate();
        Optional<RedisLink> redis = tollgate.redis();
        b.withData("store", redis.isPresent() ? "redis" : "in-process");
        b.withData("limits", tollgate.settings().limits().size());
        redis.ifPresent(link -> b.withData("redisReachable", reachable(link)));
        tollgate.breakerState().ifPresent(g -> {
            b.withData("breakerOpen", g.isOpen());
            b.withData("redisAuth", g.authFailure().map(f -> "refused: " + f).orElse("ok"));
        });
        return b.build();
    }

    private static boolean reachable(RedisLink link) {
        try {
            return link.ping();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
