package dev.tollgate.jaxrs;

import dev.tollgate.RateLimited;
import dev.tollgate.cdi.Charges;
import dev.tollgate.cdi.FilterMarks;
import dev.tollgate.cdi.HttpCallerInfo;
import dev.tollgate.cdi.RequestMarks;
import dev.tollgate.internal.config.BeanMethod;
import dev.tollgate.internal.config.MethodLimits;
import dev.tollgate.internal.config.RateLimitedMethods;
import dev.tollgate.internal.engine.Admissions;
import dev.tollgate.internal.engine.Cost;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.engine.IdempotencyKey;
import dev.tollgate.internal.engine.Outcome;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.spi.CallerInfo;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.function.Supplier;

/**
 * Applies {@code tollgate.http.limits} to every request and {@link RateLimited} on the matched resource
 * method (or its class) before the resource runs, through {@link Admissions}: this filter says who the
 * caller is and what the request costs, and answers a refusal ({@link RateLimitResponses#refusal}). A
 * denied request gets a 429 with {@code Retry-After},
 * {@code RateLimit}, {@code RateLimit-Policy} and a problem body; an allowed one carries the two fields.
 * A client key too long for a bucket is refused before any limit is spent: {@code 431} when it is a
 * header's value, else {@code 400} ({@link ClientKeyTooLongMapper}). Runs after authentication, so {@code
 * key=principal} sees the caller.
 */
@Provider
@ApplicationScoped
@Priority(Priorities.AUTHENTICATION + 100)
public class RateLimitFilter implements ContainerRequestFilter, ContainerResponseFilter {

    @Context
    ResourceInfo resource;

    @Context
    HttpServletRequest servletRequest;

    @Inject
    Engine tollgate;

    @Inject
    Charges charges;

    @Inject
    RequestMarks marks;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource.getResourceMethod();
        MethodLimits limits = method == null
                ? MethodLimits.NONE
                : RateLimitedMethods.of(new BeanMethod(resource.getResourceClass(), method));
        Admissions admissions = new Admissions(tollgate);
        if (admissions.free(limits)) {
            return; // most requests of an application: nothing more of them is read
        }
        // A cost the filter cannot read (an entity) is left, with the method's limits, to the interceptor.
        Cost cost = limits.costed() ? HttpCosts.read(request, method, limits.costParameter()) : Cost.CONFIGURED;
        Outcome outcome = admissions.request(
                limits,
                cost,
                charges.of(tollgate, () -> caller(request, tollgate), null),
                () -> idempotencyKey(request, tollgate));
        if (outcome instanceof Outcome.Admitted a) {
            if (!a.applied().isEmpty()) {
                marks.readFrom(servletRequest);
            }
            request.setProperty(FilterMarks.ATTRIBUTE, new FilterMarks(method, a.applied(), a.admission()));
        } else if (!(outcome instanceof Outcome.Free)) {
            request.abortWith(RateLimitResponses.refusal(outcome));
        }
    }

    /** The request's idempotency key: read only when one of its limits keeps records. */
    private static IdempotencyKey idempotencyKey(ContainerRequestContext request, Engine tollgate) {
        String key = request.getHeaderString(tollgate.settings().http().idempotencyHeader());
        // The path only names a key's repeats: read (parsed as a URI) only when there is a key.
        return key == null
                ? IdempotencyKey.NONE
                : IdempotencyKey.ofHeader(
                        key,
                        request.getMethod(),
                        request.getUriInfo().getRequestUri().getRawPath());
    }

    private CallerInfo caller(ContainerRequestContext request, Engine tollgate) {
        Supplier<Principal> principal = () -> request.getSecurityContext() == null
                ? null
                : request.getSecurityContext().getUserPrincipal();
        return new HttpCallerInfo(servletRequest, tollgate.clientAddresses(), principal);
    }

    /** Adds the fields, and gives back what a limit that does not count this outcome took (status 400+: failure). */
    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(FilterMarks.ATTRIBUTE) instanceof FilterMarks marked) {
            Admission admission = marked.admission();
            RateLimitResponses.addFields(response.getHeaders(), RateLimitResponses.of(admission));
            admission.settle(response.getStatus() >= 400);
        }
    }
}
