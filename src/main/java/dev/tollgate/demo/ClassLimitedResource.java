package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A resource limited as a whole ({@code /demo/class/...}): every method spends from the class's {@code
 * demo-class} (3 per minute per client address), except {@code /demo/class/tenant}, whose own annotation
 * replaces the class's: {@code demo-tenant}, 3 per minute per tenant, the key chosen by the {@link
 * DemoTenants} bean.
 */
@Path("/demo/class")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
@RateLimited("demo-class")
public class ClassLimitedResource {

    @GET
    @Path("/a")
    public String a() {
        return "a\n";
    }

    @GET
    @Path("/b")
    public String b() {
        return "b\n";
    }

    @GET
    @Path("/tenant")
    @RateLimited("demo-tenant")
    public String tenant() {
        return "tenant\n";
    }
}
