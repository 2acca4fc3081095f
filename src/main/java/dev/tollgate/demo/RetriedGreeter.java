package dev.tollgate.demo;

import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;

/**
 * A limit beside a user's own Fault Tolerance annotations. Tollgate's interceptor runs before Fault
 * Tolerance's, so a rejection is never retried (a retry would only repeat a denied check), never counts as
 * a failure in the breaker, and is not turned into the fallback: put {@code @Fallback} on the caller for that.
 */
@ApplicationScoped
public class RetriedGreeter {

    @RateLimited("demo-user")
    @Retry(maxRetries = 3, delay = 0)
    @CircuitBreaker(requestVolumeThreshold = 2, failureRatio = 1.0, delay = 3_600_000)
    public String greet(@RateKey String user) {
        return "hello " + user + "\n";
    }

    @RateLimited("demo-user")
    @Fallback(fallbackMethod = "fallback")
    public String greetOrFallback(@RateKey String user) {
        return "hello " + user + "\n";
    }

    String fallback(String user) {
        return "fallback for " + user + "\n";
    }
}
