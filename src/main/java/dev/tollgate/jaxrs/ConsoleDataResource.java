package dev.tollgate.jaxrs;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.engine.Engine;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;

/**
 * What the console polls beside {@code tollgate/admin/state}: {@code GET tollgate/admin/console} (the
 * breaker, this server's last outages and most denied clients, the locks held). Guarded as {@link
 * AdminResource}. The locks are read from Redis: while it cannot be asked, the rest still answers.
 */
@Path("tollgate/admin/console")
@RequestScoped
public class ConsoleDataResource {

    @Inject
    TollgateRuntime runtime;

    @Context
    SecurityContext security;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response console() {
        Engine t = AdminAccess.authorized(runtime, security);
        String locks;
        try {
            locks = ConsoleJson.locks(t.lockAdmin().held());
        } catch (StoreUnavailableException e) {
            locks = ConsoleJson.locks(List.of(), "Redis cannot be asked now");
        }
        return Response.ok(ConsoleJson.console(t, locks))
                .header("Cache-Control", "no-store")
                .build();
    }
}
