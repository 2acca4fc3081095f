package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * An API product per API key ({@code X-Api-Key}): the key's plan ({@code demo-plan}, per minute) and a
 * monthly quota beside it ({@code demo-monthly}: 100,000 units a month from midnight on the 15th in
 * Berlin), both on every call, all or nothing. {@code POST /demo/metered/charge} spends one unit of
 * each and is idempotent ({@code Idempotency-Key}, kept an hour by the quota); {@code POST
 * /demo/metered/settle?units=} settles the quota at the units used ({@link ReportedWork#meter}).
 *
 * <p>Usage you can bill: {@code POST /demo/metered} spends {@code demo-metered}, 1,000 units per API key,
 * one back a day, which keeps what each key spends per day for 35 days, read by the operator's {@code GET
 * /tollgate/admin/limits/demo-metered/usage} (JSON or CSV).
 */
@Path("/demo/metered")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class MeteredResource {

    @Inject
    ReportedWork work;

    @POST
    @RateLimited("demo-metered")
    public String call() {
        return "metered\n";
    }

    @POST
    @Path("/charge")
    @RateLimited({"demo-plan", "demo-monthly"})
    public String charge() {
        return "charged\n";
    }

    @POST
    @Path("/settle")
    public Response settle(@QueryParam("units") long units) {
        try {
            return Response.ok(work.meter(units)).build();
        } catch (IllegalArgumentException bad) {
            return Response.status(400).entity(bad.getMessage() + "\n").build();
        }
    }
}
