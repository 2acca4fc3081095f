package dev.tollgate.jaxrs;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.LogThrottle;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * A counter or lock call that Redis could not answer ({@link StoreUnavailableException}, {@code
 * LockUnavailableException}) and that escapes a resource: {@code 503 Service Unavailable} with {@code
 * Retry-After: 1} and a problem body, not a 500 with a stack trace. The client did nothing wrong.
 *
 * <p>Logs one line (the cause's class and message) when the call failed by itself, at most once a minute
 * per cause ({@code timeout}, {@code auth}, ...): refused credentials or a data error never open the
 * breaker, and must not write a line per request. None while the breaker is open, since the guard has
 * said so once already.
 */
@Provider
public class StoreUnavailableMapper implements ExceptionMapper<StoreUnavailableException> {

    private static final Logger LOG = Logger.getLogger(StoreUnavailableMapper.class.getName());

    private final LogThrottle lines;

    public StoreUnavailableMapper() {
        this(System::nanoTime);
    }

    StoreUnavailableMapper(LongSupplier nanoTime) {
        this.lines = new LogThrottle(LogThrottle.MINUTE, nanoTime);
    }

    @Override
    public Response toResponse(StoreUnavailableException e) {
        if (e.attempted() && lines.allow(e.degradedCause().tag())) {
            LOG.warning(() -> "Tollgate: " + e.getMessage() + " (" + Failures.describe(e) + "); answered 503");
        }
        return RateLimitResponses.unavailable("The shared store cannot be asked now; retry shortly");
    }
}
