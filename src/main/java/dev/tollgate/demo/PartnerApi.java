package dev.tollgate.demo;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A MicroProfile Rest Client of the demo's partner, {@code GET /demo/pacing/partner}, that does not pace itself. */
@Path("/demo/pacing/partner")
public interface PartnerApi {

    @GET
    String call();
}
