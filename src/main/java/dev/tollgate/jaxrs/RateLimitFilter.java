package dev.tollgate.jaxrs;

import dev.tollgate.CallerInfo;
import dev.tollgate.Decision;
import dev.tollgate.RateLimited;
import dev.tollgate.cdi.ClientKeys;
import dev.tollgate.cdi.FilterMarks;
import dev.tollgate.cdi.HttpCallerInfo;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.config.BeanMethod;
import dev.tollgate.config.RateLimitPlans;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.LimitSpec;
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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies {@code tollgate.http.limits} to every request and {@link RateLimited} on the matched resource
 * method (or its class) before the resource runs: a denied request gets a 429 with {@code Retry-After},
 * {@code RateLimit}, {@code RateLimit-Policy} and a problem body; an allowed one carries the two fields.
 * Runs after authentication, so {@code key=principal} sees the caller.
 */
@Provider
@ApplicationScoped
@Priority(Priorities.AUTHENTICATION + 100)
public class RateLimitFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String APPLIED = RateLimitFilter.class.getName() + ".applied";

    @Context
    ResourceInfo resource;

    @Context
    HttpServletRequest servletRequest;

    @Inject
    TollgateRuntime runtime;

    @Inject
    ClientKeys keys;

    @Inject
    FilterMarks marks;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource.getResourceMethod();
        Tollgate tollgate = runtime.tollgate();
        Set<String> names = new LinkedHashSet<>(tollgate.settings().http().globalLimits());
        if (method != null) {
            names.addAll(RateLimitPlans.of(new BeanMethod(resource.getResourceClass(), method))
                    .limits());
        }
        if (names.isEmpty()) {
            return;
        }
        Principal principal = request.getSecurityContext() == null
                ? null
                : request.getSecurityContext().getUserPrincipal();
        CallerInfo caller = new HttpCallerInfo(servletRequest, tollgate.clientAddresses(), principal);
        List<RateLimitResponses.Applied> applied = new ArrayList<>();
        for (String name : names) {
            LimitSpec limit = tollgate.limit(name);
            Decision d = tollgate.limiter().check(limit, keys.keyFor(limit, caller));
            applied.add(new RateLimitResponses.Applied(limit.policy(), d));
            if (!d.allowed()) {
                request.abortWith(RateLimitResponses.rejected(applied));
                return;
            }
            if (method != null) {
                marks.checked(method, name);
            }
        }
        request.setProperty(APPLIED, applied);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object applied = request.getProperty(APPLIED);
        if (applied instanceof List<?> list) {
            RateLimitResponses.addFields(response.getHeaders(), (List<RateLimitResponses.Applied>) list);
        }
    }
}
