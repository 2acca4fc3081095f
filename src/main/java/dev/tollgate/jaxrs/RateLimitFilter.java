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
import dev.tollgate.ratelimit.Reservation;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.security.Principal;
import java.time.Duration;
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
        RateLimitPlans.Plan plan = method == null
                ? new RateLimitPlans.Plan(List.of(), -1)
                : RateLimitPlans.of(new BeanMethod(resource.getResourceClass(), method));
        names.addAll(plan.limits());
        // A request thread waits only where the deployment allowed it (tollgate.http.allow-wait).
        boolean mayWait = plan.waits() && tollgate.settings().http().allowWait();
        if (names.isEmpty()) {
            return;
        }
        Principal principal = request.getSecurityContext() == null
                ? null
                : request.getSecurityContext().getUserPrincipal();
        CallerInfo caller = new HttpCallerInfo(servletRequest, tollgate.clientAddresses(), principal);
        List<RateLimitResponses.Applied> applied = new ArrayList<>();
        Duration longest = Duration.ZERO;
        for (String name : names) {
            LimitSpec limit = tollgate.limit(name);
            Decision d;
            if (mayWait && plan.limits().contains(name)) {
                Reservation r = tollgate.limiter().reserve(limit, keys.keyFor(limit, caller), plan.maxWait());
                d = r.decision();
                longest = longest.compareTo(r.delay()) < 0 ? r.delay() : longest;
            } else {
                d = tollgate.limiter().check(limit, keys.keyFor(limit, caller));
            }
            if (!limit.shadow()) {
                // A shadow limit tells the client nothing: its policy is not the one in force.
                applied.add(new RateLimitResponses.Applied(limit.policy(), d));
            }
            if (!d.allowed()) {
                request.abortWith(RateLimitResponses.rejected(applied));
                return;
            }
            if (method != null) {
                marks.checked(method, name);
            }
        }
        try {
            tollgate.sleeper().sleep(longest);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request.abortWith(
                    Response.status(Response.Status.SERVICE_UNAVAILABLE).build());
            return;
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
