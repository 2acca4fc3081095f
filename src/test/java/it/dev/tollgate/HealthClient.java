package it.dev.tollgate;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** MicroProfile Health on the IT server, as a typed client. */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public interface HealthClient {

    @GET
    Response all();

    @GET
    @Path("/ready")
    Response ready();
}
