package dev.tollgate.jaxrs;

import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.ratelimit.StoreKeys;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audit trail of the operator paths ({@code tollgate/admin/...}, {@code tollgate/console}): every call
 * while {@code tollgate.admin.enabled=true}, allowed or refused, read or write, leaves one line on the
 * logger {@value #LOGGER} at the level {@link #AUDIT} (above WARNING, so that a WARNING threshold keeps
 * it): {@code Tollgate audit: <who> <what happened> [<METHOD> <path>?<query> -> <status>]}. Who is the
 * signed-in principal's name ({@code anonymous} without one), never a credential; a client key appears
 * only as its hash, and of the other query parameters only the operator resource's own have their values.
 *
 * <p>The record opens before the resource runs (before the role check, so refusals are in it) and is
 * written when the answer leaves; when the logger would drop it, one SEVERE line says so.
 */
@Provider
@PreMatching
@ApplicationScoped
@Priority(Priorities.AUTHENTICATION - 100)
public class OperatorAudit implements ContainerRequestFilter, ContainerResponseFilter {

    /** The audit logger's name. */
    public static final String LOGGER = "dev.tollgate.audit";

    /** The audit lines' level: 950, between WARNING and SEVERE. */
    public static final Level AUDIT = new Level("AUDIT", 950) {};

    private static final Logger LOG = Logger.getLogger(LOGGER);
    private static final AtomicBoolean SILENCE_TOLD = new AtomicBoolean();
    private static final String OPENED = OperatorAudit.class.getName() + ".opened";

    /** Query parameters whose values are shown: numbers, durations and the like, never a secret. */
    private static final List<String> SHOWN =
            List.of("credit", "capacity", "refill-tokens", "refill-period", "for", "fencingToken");

    @Inject
    TollgateRuntime runtime;

    @Inject
    OperatorCall call;

    /**
     * Whether an operator call was ever audited here: until one is, a response looks for no mark (every
     * response of the application passes this filter, and the mark is a servlet request attribute).
     */
    private volatile boolean anyOpened;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!OperatorPaths.isOperatorPath(request)
                || !runtime.tollgate().settings().admin().enabled()) {
            return;
        }
        Principal who = request.getSecurityContext() == null
                ? null
                : request.getSecurityContext().getUserPrincipal();
        call.open(
                who == null ? "anonymous" : clean(who.getName(), 128),
                request.getMethod() + " "
                        + clean(request.getUriInfo().getRequestUri().getRawPath(), 300)
                        + query(request.getUriInfo().getRequestUri().getRawQuery()));
        anyOpened = true;
        request.setProperty(OPENED, Boolean.TRUE);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (anyOpened && request.getProperty(OPENED) != null) {
            call.close(response.getStatus());
        }
    }

    /** Writes {@code "Tollgate audit: " + line}. */
    static void write(String line) {
        if (!LOG.isLoggable(AUDIT) && SILENCE_TOLD.compareAndSet(false, true)) {
            Logger.getLogger(OperatorAudit.class.getName())
                    .severe("Tollgate: the audit logger " + LOGGER + " is switched off by the log configuration:"
                            + " operator calls are not audited (set " + LOGGER + "=info or lower)");
        }
        LOG.log(AUDIT, "Tollgate audit: " + line);
    }

    /** The query as sent, in its order: {@code client} as its hash, only {@link #SHOWN} parameters' values. */
    private static String query(String raw) {
        if (raw == null || raw.isEmpty()) {
            return "";
        }
        StringJoiner out = new StringJoiner("&", "?", "");
        for (String pair : raw.split("&", 50)) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (name.equals("client")) {
                out.add("client=" + StoreKeys.clientHash(value));
            } else if (SHOWN.contains(name)) {
                out.add(name + "=" + clean(value, 40));
            } else {
                out.add(clean(name, 40) + "=...");
            }
        }
        return out.toString();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // a malformed escape: kept as sent, then cleaned
        }
    }

    /** {@code s} as printable ASCII (anything else as {@code ?}, so no line can be forged), cut at {@code max}. */
    static String clean(String s, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < max; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return s.length() > max ? b + "..." : b.toString();
    }
}
