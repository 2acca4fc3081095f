package dev.tollgate.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of Tollgate: UP, and nothing more. Health endpoints answer anonymous callers, so this check
 * shows none of what an attacker could use (which store serves, whether Redis answers, the breaker, what
 * Redis said when it refused the credentials: when an attack that degrades decisions works); the operator
 * resource ({@code tollgate/admin/state}, {@code tollgate/admin/console}) shows them to an operator, and
 * the metrics ({@code tollgate_breaker_open}, degraded decisions by cause) to the monitoring.
 *
 * <p>Always UP: a Redis outage does not make a server unready. Every server shares the same Redis, so
 * taking them out of the balancer would turn a degraded limiter into an outage; the degraded decisions
 * (fail open or closed, per limit) are the answer to a Redis outage.
 */
@Readiness
@ApplicationScoped
public class TollgateReadiness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("tollgate").up().build();
    }
}
