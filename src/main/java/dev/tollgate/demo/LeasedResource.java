package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A leased limit ({@code GET /demo/leased}): {@code demo-leased}, 100 per client address, refilling 100
 * a minute, {@code lease=1s}: each server takes slices of a client's bucket in advance and spends them in
 * memory, and the servers together still never admit more than the bucket holds.
 */
@Path("/demo/leased")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class LeasedResource {

    @GET
    @RateLimited("demo-leased")
    public String leased() {
        return "leased\n";
    }
}
