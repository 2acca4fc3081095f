package dev.tollgate.jaxrs;

import dev.tollgate.RateLimitExceededException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/** A rejection by the interceptor that escapes a JAX-RS resource gets the filter's 429 (or 503). */
@Provider
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

    @Override
    public Response toResponse(RateLimitExceededException e) {
        return RateLimitResponses.rejected(List.of(RateLimitResponses.Applied.of(e)));
    }
}
