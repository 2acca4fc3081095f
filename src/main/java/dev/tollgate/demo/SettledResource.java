package dev.tollgate.demo;

import dev.tollgate.Estimate;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimits;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Settled costs ({@code POST /demo/settle?customer=&estimate=&actual=}): {@code demo-settle}, 10,000
 * units per customer, one back a day, spends the estimate before the work and settles at the actual
 * cost after it, as an LLM call settles at the tokens it used. A negative or absurd actual cost is a
 * {@code 400}.
 */
@Path("/demo/settle")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class SettledResource {

    @Inject
    RateLimits limits;

    @POST
    public Response settle(
            @QueryParam("customer") String customer,
            @QueryParam("estimate") long estimate,
            @QueryParam("actual") long actual) {
        Estimate e = limits.estimate("demo-settle", customer, estimate);
        if (!e.decision().allowed()) {
            throw new RateLimitExceededException(limits.policy("demo-settle"), e.decision());
        }
        // ... the work, whose cost is known only now ...
        try {
            e.settle(actual);
        } catch (IllegalArgumentException bad) {
            e.settle(estimate);
            return Response.status(400).entity(bad.getMessage() + "\n").build();
        }
        return Response.ok("estimated " + estimate + ", settled at " + actual + "\n")
                .build();
    }

    @Inject
    ReportedWork work;

    /**
     * {@code POST /demo/settle/reported}: the same from an annotated method ({@link ReportedWork#complete}),
     * which reports its actual cost; a bad one is a {@code 400} and the estimate stays.
     */
    @POST
    @Path("/reported")
    public Response reported(
            @QueryParam("customer") String customer,
            @QueryParam("estimate") long estimate,
            @QueryParam("actual") long actual) {
        try {
            return Response.ok(work.complete(customer, estimate, actual)).build();
        } catch (IllegalArgumentException bad) {
            return Response.status(400).entity(bad.getMessage() + "\n").build();
        }
    }
}
