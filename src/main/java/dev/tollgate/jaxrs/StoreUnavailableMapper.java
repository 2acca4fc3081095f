package dev.tollgate.jaxrs;

import dev.tollgate.core.Failures;
import dev.tollgate.core.StoreUnavailableException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Logger;

/**
 * A counter or lock call that Redis could not answer ({@link StoreUnavailableException}, {@code
 * LockUnavailableException}) and that escapes a resource: {@code 503 Service Unavailable} with {@code
 * Retry-After: 1} and a problem body, not a 500 with a stack trace. The client did nothing wrong.
 *
 * <p>Logs one line (the cause's class and message) when the call failed by itself; none while the
 * breaker is open, since the guard has said so once already.
 */
@Provider
public class StoreUnavailableMapper implements ExceptionMapper<StoreUnavailableException> {

    private static final Logger LOG = Logger.getLogger(StoreUnavailableMapper.class.getName());

    @Override
    public Response toResponse(StoreUnavailableException e) {
        if (e.attempted()) {
            LOG.warning(() -> "Tollgate: " + e.getMessage() + " (" + Failures.describe(e) + "); answered 503");
        }
        return RateLimitResponses.unavailable("The shared store cannot be asked now; retry shortly");
    }
}
