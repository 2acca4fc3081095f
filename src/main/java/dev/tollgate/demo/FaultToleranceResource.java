package dev.tollgate.demo;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Limits beside a user's Fault Tolerance annotations and transactions ({@code demo-user}: 3 per name).
 * A rejection escaping these methods is answered by the exception mapper: 429 with the limit's fields.
 */
@Path("/demo/ft")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class FaultToleranceResource {

    @Inject
    RetriedGreeter retried;

    @Inject
    TransactionalGreeter transactional;

    /** A limited method that also has {@code @Retry} and {@code @CircuitBreaker}. */
    @GET
    @Path("/retried/{name}")
    public String retried(@PathParam("name") String name) {
        return retried.greet(name);
    }

    /** A limited method that also has {@code @Fallback}: a rejection is not its fallback. */
    @GET
    @Path("/fallback/{name}")
    public String fallback(@PathParam("name") String name) {
        return retried.greetOrFallback(name);
    }

    /** A limited EJB method called inside another EJB's transaction. */
    @GET
    @Path("/transaction/{name}")
    public String transaction(@PathParam("name") String name) {
        return transactional.greetInTransaction(name);
    }
}
