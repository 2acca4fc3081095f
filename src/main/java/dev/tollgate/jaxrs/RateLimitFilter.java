package dev.tollgate.jaxrs;

import dev.tollgate.CallerInfo;
import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.CountOn;
import dev.tollgate.RateLimited;
import dev.tollgate.cdi.Charges;
import dev.tollgate.cdi.FilterMarks;
import dev.tollgate.cdi.HttpCallerInfo;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.config.BeanMethod;
import dev.tollgate.config.RateLimitPlans;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.Admission;
import dev.tollgate.ratelimit.Charge;
import dev.tollgate.ratelimit.KeySpec;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Applies {@code tollgate.http.limits} to every request and {@link RateLimited} on the matched resource
 * method (or its class) before the resource runs: a denied request gets a 429 with {@code Retry-After},
 * {@code RateLimit}, {@code RateLimit-Policy} and a problem body; an allowed one carries the two fields.
 * A client key too long for a bucket is refused before any limit is spent: {@code 431} when it is a
 * header's value, else {@code 400} ({@link ClientKeyTooLongMapper}). Runs after authentication, so {@code
 * key=principal} sees the caller.
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
    FilterMarks marks;

    @Inject
    Charges charges;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource.getResourceMethod();
        Tollgate tollgate = runtime.tollgate();
        List<String> global = tollgate.settings().http().globalLimits();
        RateLimitPlans.Plan plan = method == null
                ? new RateLimitPlans.Plan(List.of(), -1)
                : RateLimitPlans.of(new BeanMethod(resource.getResourceClass(), method));
        if (global.isEmpty() && plan.limits().isEmpty()) {
            return;
        }
        Optional<Long> cost;
        try {
            cost = plan.costParameter() < 0 ? Optional.empty() : HttpCosts.read(request, method, plan.costParameter());
        } catch (HttpCosts.BadCost e) {
            request.abortWith(RateLimitResponses.badRequest(e.getMessage()));
            return;
        }
        // A cost the filter cannot read (an entity) is left, with the method's limits, to the interceptor.
        boolean methodLimits = plan.costParameter() < 0 || cost.isPresent();
        Principal principal = request.getSecurityContext() == null
                ? null
                : request.getSecurityContext().getUserPrincipal();
        CallerInfo caller = new HttpCallerInfo(servletRequest, tollgate.clientAddresses(), principal);
        List<Charge> toCharge = new ArrayList<>();
        for (String name : global) {
            if (!methodLimits || !plan.limits().contains(name)) {
                toCharge.add(charges.of(tollgate, name, caller, null, null, CountOn.ALWAYS));
            }
        }
        if (methodLimits && cost.orElse(1L) > 0) {
            for (String name : plan.limits()) {
                toCharge.add(charges.of(tollgate, name, caller, null, cost.orElse(null), plan.countOn()));
            }
        }
        // A request thread waits only where the deployment allowed it (tollgate.http.allow-wait).
        boolean mayWait = plan.waits() && tollgate.settings().http().allowWait();
        Admission admission;
        try {
            admission = tollgate.limiter().admit(toCharge, mayWait ? plan.maxWait() : java.time.Duration.ZERO);
        } catch (ClientKeyTooLongException e) {
            boolean header = tollgate.settings()
                    .limit(e.limitName())
                    .map(l -> l.key() instanceof KeySpec.Header)
                    .orElse(false);
            request.abortWith(ClientKeyTooLongMapper.of(e, header));
            return;
        }
        if (!admission.allowed()) {
            request.abortWith(RateLimitResponses.rejected(RateLimitResponses.of(admission)));
            return;
        }
        if (methodLimits && method != null) {
            plan.limits().forEach(name -> marks.checked(method, name));
        }
        try {
            tollgate.sleeper().sleep(admission.delay());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request.abortWith(
                    Response.status(Response.Status.SERVICE_UNAVAILABLE).build());
            return;
        }
        request.setProperty(APPLIED, admission);
    }

    /** Adds the fields, and gives back what a limit that does not count this outcome took (status 400+: failure). */
    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(APPLIED) instanceof Admission admission) {
            RateLimitResponses.addFields(response.getHeaders(), RateLimitResponses.of(admission));
            admission.settle(response.getStatus() >= 400);
        }
    }
}
