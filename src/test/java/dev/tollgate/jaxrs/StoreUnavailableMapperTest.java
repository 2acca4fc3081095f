package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.testing.LogCapture;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class StoreUnavailableMapperTest {

    private final AtomicLong now = new AtomicLong();
    private final StoreUnavailableMapper mapper = new StoreUnavailableMapper(now::get);

    private static StoreUnavailableException failed(DegradedCause cause) {
        return new StoreUnavailableException(
                "counter 'orders' could not be asked", new IllegalStateException("WRONGPASS"), cause);
    }

    @Test
    void refusedCredentialsOnEveryRequestAreOneLineAMinuteNotOnePerRequest() {
        try (LogCapture log = new LogCapture(StoreUnavailableMapper.class)) {
            for (int i = 0; i < 100; i++) {
                assertEquals(503, mapper.toResponse(failed(DegradedCause.AUTH)).getStatus());
                now.addAndGet(Duration.ofMillis(100).toNanos());
            }
            assertEquals(1, log.at(Level.WARNING).size(), "lines for 10 s of refused calls");
            now.addAndGet(Duration.ofMinutes(1).toNanos());
            mapper.toResponse(failed(DegradedCause.AUTH));
            assertEquals(2, log.at(Level.WARNING).size(), "a minute later, the problem is said again");
            assertTrue(log.oneLineEach(Level.WARNING));
        }
    }

    @Test
    void eachCauseHasItsOwnLineAndAnOpenBreakerNone() {
        try (LogCapture log = new LogCapture(StoreUnavailableMapper.class)) {
            mapper.toResponse(failed(DegradedCause.AUTH));
            mapper.toResponse(failed(DegradedCause.TIMEOUT));
            mapper.toResponse(StoreUnavailableException.notAttempted("breaker open"));
            assertEquals(2, log.at(Level.WARNING).size(), log.at(Level.WARNING).toString());
            assertTrue(
                    log.at(Level.WARNING).get(0).contains("WRONGPASS"),
                    log.at(Level.WARNING).toString());
        }
    }
}
