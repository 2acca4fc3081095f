package dev.tollgate.jaxrs;

import dev.tollgate.internal.engine.Cost;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * A request's cost from a resource method's {@code @RateCost} parameter, read before the method runs:
 * a {@code @QueryParam}, {@code @PathParam} or {@code @HeaderParam} (its {@code @DefaultValue} when the
 * request has none; 0 without one). Another kind of parameter (an entity) is left to the interceptor.
 */
final class HttpCosts {

    private HttpCosts() {}

    /**
     * The cost; {@link Cost#UNREAD} when the parameter is not one the filter can read, {@link Cost#bad}
     * when the value is not a whole number &ge; 0.
     */
    static Cost read(ContainerRequestContext request, Method method, int parameter) {
        Annotation[] annotations = method.getParameterAnnotations()[parameter];
        String fallback = null;
        String value = null;
        String where = null;
        for (Annotation a : annotations) {
            if (a instanceof QueryParam q) {
                value = request.getUriInfo().getQueryParameters().getFirst(q.value());
                where = "query parameter '" + q.value() + "'";
            } else if (a instanceof PathParam p) {
                value = request.getUriInfo().getPathParameters().getFirst(p.value());
                where = "path parameter '" + p.value() + "'";
            } else if (a instanceof HeaderParam h) {
                value = request.getHeaderString(h.value());
                where = "header '" + h.value() + "'";
            } else if (a instanceof DefaultValue d) {
                fallback = d.value();
            }
        }
        if (where == null) {
            return Cost.UNREAD;
        }
        String text = value != null ? value : fallback;
        if (text == null) {
            return Cost.of(0);
        }
        try {
            long cost = Long.parseLong(text.trim());
            if (cost >= 0) {
                return Cost.of(cost);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        String shown = text.length() > 32 ? text.substring(0, 32) + "..." : text;
        return Cost.bad(
                "The " + where + " is what this request costs: expected a whole number >= 0, but was '" + shown + "'");
    }
}
