package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Idempotent charges ({@code /demo/charge}): {@code demo-charge}, 1,000 units per client address, one
 * back a day, keeps each admitted request's {@code Idempotency-Key} for an hour, so a retried request
 * spends nothing more. {@code POST} and {@code PUT} with one key are two requests.
 */
@Path("/demo/charge")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class ChargeResource {

    @POST
    @RateLimited("demo-charge")
    public String charge() {
        return "charged\n";
    }

    @PUT
    @RateLimited("demo-charge")
    public String replace() {
        return "replaced\n";
    }
}
