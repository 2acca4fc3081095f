package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.RateLimitExceededException;
import dev.tollgate.cdi.RateLimitInterceptor;
import dev.tollgate.internal.config.MethodLimits;
import dev.tollgate.internal.engine.Admissions;
import dev.tollgate.internal.engine.Cost;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.engine.Outcome;
import dev.tollgate.testing.TestSettings;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The same refusal gets the same answer from both adapters: the filter's response, and the
 * interceptor's exception as the mappers answer it, for one outcome of the one admission pipeline.
 */
class AdmissionAnswersTest {

    private final Engine tollgate = Engine.builder(TestSettings.read(
                    "tollgate.limits.partner.capacity", "1",
                    "tollgate.limits.partner.refill-tokens", "1",
                    "tollgate.limits.partner.refill-period", "3s",
                    "tollgate.http.allow-wait", "true"))
            .sleeper(d -> {
                throw new InterruptedException("stopping");
            })
            .build();

    private final MethodLimits waits = new MethodLimits(List.of("partner"), -1, Duration.ofSeconds(10));
    private final Admissions.Caller caller = name -> tollgate.charge(name, "client", null);

    @AfterEach
    void close() {
        Thread.interrupted();
        tollgate.close();
    }

    /**
     * A waiter whose thread is interrupted never got its permit: a 503 from both adapters, retry after
     * the wait it was given, the interrupt flag set again; its reserved token stays spent (the next
     * waiter is given twice the wait).
     */
    @Test
    void anInterruptedWaitIs503FromBothAdapters() {
        assertInstanceOf(Outcome.Admitted.class, new Admissions(tollgate).request(waits, Cost.CONFIGURED, caller));
        Outcome http = new Admissions(tollgate).request(waits, Cost.CONFIGURED, caller);
        assertInstanceOf(Outcome.Interrupted.class, http);
        assertTrue(Thread.interrupted(), "the interrupt flag is set again");
        Outcome call = new Admissions(tollgate).call(waits, Cost.CONFIGURED, caller, name -> false);
        assertInstanceOf(Outcome.Interrupted.class, call);
        assertTrue(Thread.interrupted());

        Response filter = RateLimitResponses.refusal(http);
        assertEquals(503, filter.getStatus());
        assertEquals(3L, filter.getHeaders().getFirst("Retry-After"), "the wait it was given");
        Response interceptor = asMapped(call);
        assertEquals(503, interceptor.getStatus());
        assertEquals(6L, interceptor.getHeaders().getFirst("Retry-After"), "behind the first waiter's spent token");
        assertSameAnswer(filter, asMapped(http));
    }

    /** A denial: a 429 from both, with the same Retry-After. */
    @Test
    void aDenialIs429FromBothAdapters() {
        MethodLimits noWait = new MethodLimits(List.of("partner"), -1);
        new Admissions(tollgate).call(noWait, Cost.CONFIGURED, caller, name -> false);
        Outcome http = new Admissions(tollgate).request(noWait, Cost.CONFIGURED, caller);
        Outcome call = new Admissions(tollgate).call(noWait, Cost.CONFIGURED, caller, name -> false);
        Response filter = RateLimitResponses.refusal(http);
        assertEquals(429, filter.getStatus());
        assertEquals(filter.getStatus(), asMapped(call).getStatus());
        assertEquals(filter.getHeaderString("Retry-After"), asMapped(call).getHeaderString("Retry-After"));
    }

    /** A cost that is not one: 400 from the filter, an IllegalArgumentException from the interceptor. */
    @Test
    void aBadCostIsRefusedBeforeAnythingIsSpent() {
        Outcome bad = new Admissions(tollgate).call(waits, Cost.bad("not a cost"), caller, name -> false);
        assertEquals(400, RateLimitResponses.refusal(bad).getStatus());
        assertEquals(
                "not a cost",
                assertThrows(IllegalArgumentException.class, () -> RateLimitInterceptor.admitted(bad))
                        .getMessage());
        assertTrue(tollgate.check("partner", "client").allowed(), "nothing was spent");
    }

    private static Response asMapped(Outcome outcome) {
        RateLimitExceededException e =
                assertThrows(RateLimitExceededException.class, () -> RateLimitInterceptor.admitted(outcome));
        return new RateLimitExceededMapper().toResponse(e);
    }

    private static void assertSameAnswer(Response filter, Response interceptor) {
        assertEquals(filter.getStatus(), interceptor.getStatus());
        assertEquals(filter.getHeaders(), interceptor.getHeaders());
        assertEquals(filter.getEntity(), interceptor.getEntity());
    }
}
