package dev.tollgate.jaxrs;

import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.config.AdminSettings;
import dev.tollgate.internal.engine.Engine;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * Who may operate Tollgate over HTTP, for every operator resource alike: nobody unless {@code
 * tollgate.admin.enabled=true} (404), then only an authenticated caller (401) in {@code
 * tollgate.admin.role} (403). Each call's audit line is {@link OperatorAudit}'s.
 */
final class AdminAccess {

    private AdminAccess() {}

    /** The application's Tollgate when the caller may operate it; otherwise the answer says why not. */
    static Engine authorized(TollgateRuntime runtime, SecurityContext security) {
        Engine t = runtime.tollgate();
        AdminSettings admin = t.settings().admin();
        if (!admin.enabled()) {
            throw new NotFoundException();
        }
        if (security == null || security.getUserPrincipal() == null) {
            Response challenge = Response.fromResponse(
                            problem(401, "Unauthorized", "sign in as a user in role " + admin.role()))
                    .header("WWW-Authenticate", "Basic realm=\"tollgate\"")
                    .build();
            throw new NotAuthorizedException(challenge);
        }
        if (!security.isUserInRole(admin.role())) {
            throw new ForbiddenException(problem(403, "Forbidden", "the admin resource needs role " + admin.role()));
        }
        return t;
    }

    static Response problem(int status, String title, String detail) {
        return Response.status(status)
                .type("application/problem+json")
                .entity(AdminJson.problem(status, title, detail))
                .build();
    }
}
