package dev.tollgate.jaxrs;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.StoreKeys;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;

/**
 * The operator's resource and console, under the application's path: {@code tollgate/admin/state} (the
 * limits and what they decided lately), {@code tollgate/admin/limits/{limit}/peek?client=} (a client's
 * bucket, nothing spent), {@code DELETE tollgate/admin/limits/{limit}/clients?client=} (reset it on every
 * server) and {@code tollgate/console} (a page over the state).
 *
 * <p>404 unless {@code tollgate.admin.enabled=true}; then 401 without an authenticated caller and 403
 * unless the caller is in {@code tollgate.admin.role} (the application server's security: in Liberty, a
 * user registry and the role's binding in {@code server.xml}). A reset is a {@code DELETE}, which no page
 * of another origin can send with the operator's browser credentials. Every change is logged as one audit
 * line: who, what, which limit and the client's hash (never the client key).
 */
@Path("tollgate")
@RequestScoped
public class AdminResource {

    private static final Logger LOG = Logger.getLogger(AdminResource.class.getName());

    @Inject
    TollgateRuntime runtime;

    @Context
    SecurityContext security;

    @GET
    @Path("admin/state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response state() {
        Tollgate t = authorized();
        return Response.ok(AdminJson.state(t))
                .header("Cache-Control", "no-store")
                .build();
    }

    @GET
    @Path("admin/limits/{limit}/peek")
    @Produces(MediaType.APPLICATION_JSON)
    public Response peek(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Tollgate t = authorized();
        if (client == null) {
            return problem(400, "Bad Request", "the client key is required: ?client=<key>");
        }
        try {
            return Response.ok(AdminJson.peek(
                            limit, StoreKeys.clientHash(client), t.admin().peek(limit, client)))
                    .build();
        } catch (TollgateConfigException e) {
            return problem(404, "Not Found", e.getMessage());
        } catch (UnsupportedOperationException e) {
            return problem(501, "Not Implemented", e.getMessage());
        }
    }

    @DELETE
    @Path("admin/limits/{limit}/clients")
    @Produces(MediaType.APPLICATION_JSON)
    public Response reset(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Tollgate t = authorized();
        if (client == null) {
            return problem(400, "Bad Request", "the client key is required: ?client=<key>");
        }
        String hash = StoreKeys.clientHash(client);
        try {
            boolean had = t.admin().reset(limit, client);
            LOG.info(() -> "Tollgate audit: " + security.getUserPrincipal().getName() + " reset limit '" + limit
                    + "' for client " + hash + (had ? "" : " (it had no state)"));
            return Response.ok(AdminJson.reset(limit, hash, had)).build();
        } catch (TollgateConfigException e) {
            return problem(404, "Not Found", e.getMessage());
        }
    }

    @GET
    @Path("console")
    @Produces(MediaType.TEXT_HTML)
    public Response console() {
        authorized();
        try (InputStream in = AdminResource.class.getResourceAsStream("console.html")) {
            return Response.ok(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .header("Cache-Control", "no-store")
                    .header(
                            "Content-Security-Policy",
                            "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'")
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The application's Tollgate when the caller may operate it; otherwise the answer says why not. */
    private Tollgate authorized() {
        return AdminAccess.authorized(runtime, security);
    }

    private static Response problem(int status, String title, String detail) {
        return AdminAccess.problem(status, title, detail);
    }
}
