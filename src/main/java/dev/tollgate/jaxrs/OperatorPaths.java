package dev.tollgate.jaxrs;

import dev.tollgate.cdi.TollgateRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * What every request on the operator paths ({@code tollgate/admin/...}, {@code tollgate/console}) meets
 * before and after its resource: while {@code tollgate.admin.enabled} is false, a 404 whatever the method
 * (JAX-RS would otherwise answer {@code OPTIONS} itself, 200 with an {@code Allow} list, and {@code HEAD}
 * alike); and on every answer there, refusals included, {@code X-Frame-Options: DENY} and a {@code
 * Content-Security-Policy} with {@code frame-ancestors 'none'}, so no page of another origin can frame the
 * console to steer an operator's clicks.
 */
@Provider
@ApplicationScoped
@PreMatching
public class OperatorPaths implements ContainerRequestFilter, ContainerResponseFilter {

    /** The policy of every operator answer but the console page, which sets its own (with the same frame rule). */
    static final String POLICY = "default-src 'none'; frame-ancestors 'none'";

    @Inject
    TollgateRuntime runtime;

    @Override
    public void filter(ContainerRequestContext request) {
        if (isOperatorPath(request) && !runtime.tollgate().settings().admin().enabled()) {
            request.abortWith(Response.status(Response.Status.NOT_FOUND).build());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (isOperatorPath(request)) {
            MultivaluedMap<String, Object> headers = response.getHeaders();
            headers.putSingle("X-Frame-Options", "DENY");
            if (!headers.containsKey("Content-Security-Policy")) {
                headers.putSingle("Content-Security-Policy", POLICY);
            }
        }
    }

    /**
     * Whether the request is under {@code tollgate/admin} or {@code tollgate/console} of the application,
     * read as the resources are matched: empty segments and matrix parameters aside. The one rule of what
     * an operator path is: the 404 while off, the framing headers and the audit ({@link OperatorAudit}).
     */
    static boolean isOperatorPath(ContainerRequestContext request) {
        boolean first = true;
        for (PathSegment segment : request.getUriInfo().getPathSegments()) {
            String s = segment.getPath();
            if (s.isEmpty()) {
                continue;
            }
            if (!first) {
                return s.equals("admin") || s.equals("console");
            }
            if (!s.equals("tollgate")) {
                return false; // every request of the application asks: most end at their first segment
            }
            first = false;
        }
        return false;
    }
}
