package com.example.shop;

import dev.tollgate.RateLimited;
import dev.tollgate.RateLimits;
import dev.tollgate.Counters;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;

@Path("/orders")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class OrderResource {

    @Inject
    RateLimits limits;

    @Inject
    Counters counters;

    @Inject
    NightlyExport export;

    @POST
    @RateLimited("orders")
    public String place() {
        return "placed\n";
    }

    @GET
    @Path("/quote/{customer}")
    public String quote(@PathParam("customer") String customer) {
        limits.enforce("quotes", customer);
        return "quote for " + customer + "\n";
    }

    @POST
    @Path("/count")
    public String count() {
        return counters.increment("orders-today", 1, Duration.ofDays(1)) + "\n";
    }

    @POST
    @Path("/export")
    public String startExport() throws InterruptedException {
        export.run();
        return export.runs() + "\n";
    }

    @GET
    @Path("/export")
    public String exports() {
        return export.runs() + "\n";
    }
}
