package it.dev.tollgate;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** MicroProfile Metrics on the IT server (Prometheus text), as a typed client. */
@Path("/metrics")
@Produces(MediaType.TEXT_PLAIN)
public interface MetricsClient {

    @GET
    String scrape(@QueryParam("scope") String scope);
}
