package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Usage you can bill ({@code /demo/metered}): {@code demo-metered}, 1,000 units per API key ({@code
 * X-Api-Key}), one back a day, keeps what each key spends per day for 35 days, read by the operator's
 * {@code GET /tollgate/admin/limits/demo-metered/usage} (JSON or CSV).
 */
@Path("/demo/metered")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class MeteredResource {

    @POST
    @RateLimited("demo-metered")
    public String call() {
        return "metered\n";
    }
}
