package dev.tollgate.jaxrs;

import dev.tollgate.ConcurrencyLimitExceededException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A call refused by a full concurrency limit: {@code 429} with {@code Retry-After} and a problem body;
 * {@code 503} with {@code Retry-After: 1} when the store could not be asked and the limit fails closed.
 */
@Provider
public class ConcurrencyLimitExceededMapper implements ExceptionMapper<ConcurrencyLimitExceededException> {

    @Override
    public Response toResponse(ConcurrencyLimitExceededException e) {
        long retry = RateLimitResponses.seconds(e.retryAfter());
        String name = e.limitName();
        if (e.degraded()) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                    .header("Retry-After", retry)
                    .type("application/problem+json")
                    .entity(RateLimitResponses.problem(
                            "about:blank",
                            "Service Unavailable",
                            503,
                            "Concurrency limit '" + name + "' cannot be checked now and fails closed",
                            name,
                            null))
                    .build();
        }
        return Response.status(Response.Status.TOO_MANY_REQUESTS)
                .header("Retry-After", retry)
                .type("application/problem+json")
                .entity(RateLimitResponses.problem(
                        RateLimitResponses.PROBLEM_TYPE,
                        "Too Many Requests",
                        429,
                        "Concurrency limit '" + name + "' is full; retry after " + retry + " s",
                        name,
                        retry))
                .build();
    }
}
