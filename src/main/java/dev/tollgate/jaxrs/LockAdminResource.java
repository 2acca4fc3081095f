package dev.tollgate.jaxrs;

import dev.tollgate.LockAdmin;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.cdi.TollgateRuntime;
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

/**
 * The operator's locks, under the application's path: {@code GET tollgate/admin/locks} (the held ones:
 * name, holder, fencing token, time left) and {@code DELETE tollgate/admin/locks/{name}[?fencingToken=]}
 * (force-release it, only from the holder with that fencing token when given). Guarded and audited as
 * {@link AdminResource}.
 */
@Path("tollgate/admin/locks")
@RequestScoped
public class LockAdminResource {

    @Inject
    TollgateRuntime runtime;

    /** The application's bean, as an application injects it. */
    @Inject
    LockAdmin locks;

    @Context
    SecurityContext security;

    @Inject
    OperatorCall call;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response held() {
        AdminAccess.authorized(runtime, security);
        return Response.ok(ConsoleJson.locks(locks.held()))
                .header("Cache-Control", "no-store")
                .build();
    }

    @DELETE
    @Path("{name}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response forceRelease(@PathParam("name") String name, @QueryParam("fencingToken") String fencingToken) {
        call.asked("force-release lock '" + OperatorAudit.clean(name, 128) + "'"
                + (fencingToken == null
                        ? ""
                        : " from the holder with fencing token " + OperatorAudit.clean(fencingToken, 40)));
        AdminAccess.authorized(runtime, security);
        Long token;
        try {
            token = fencingToken == null ? null : Long.valueOf(fencingToken);
        } catch (NumberFormatException e) {
            return AdminAccess.problem(400, "Bad Request", "fencingToken must be a whole number");
        }
        boolean released;
        try {
            released = token == null ? locks.forceRelease(name) : locks.forceRelease(name, token);
        } catch (IllegalArgumentException e) {
            return AdminAccess.problem(400, "Bad Request", e.getMessage());
        } catch (StoreUnavailableException e) {
            call.failed(e.getMessage());
            throw e;
        }
        String holder = token == null ? "" : " from the holder with fencing token " + token;
        if (!released) {
            return AdminAccess.problem(404, "Not Found", "lock '" + name + "' is not held" + holder);
        }
        call.did("force-released lock '" + name + "'" + holder);
        return Response.ok(ConsoleJson.released(name)).build();
    }
}
