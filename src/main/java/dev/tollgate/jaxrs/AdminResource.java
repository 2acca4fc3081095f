package dev.tollgate.jaxrs;

import dev.tollgate.ClientOverride;
import dev.tollgate.ClientRules;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.StoreKeys;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
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
import java.time.Duration;

/**
 * The operator's resource and console, under the application's path: {@code tollgate/admin/state} (the
 * limits and what they decided lately), and per client of a limit ({@code ?client=<key>}) under {@code
 * tollgate/admin/limits/{limit}/}: {@code GET peek} (its bucket, nothing spent), {@code DELETE clients}
 * (reset it on every server), {@code PATCH clients?credit=} (credit it), {@code GET rules}, {@code
 * PUT|DELETE override} and {@code PUT|DELETE block} (its override and block, in Redis for every server);
 * and {@code tollgate/console} (a page over the state).
 *
 * <p>404 unless {@code tollgate.admin.enabled=true}; then 401 without an authenticated caller and 403
 * unless the caller is in {@code tollgate.admin.role} (the application server's security: in Liberty, a
 * user registry and the role's binding in {@code server.xml}). Every change is a {@code DELETE}, {@code
 * PUT} or {@code PATCH}, which no page of another origin can send with the operator's browser credentials.
 * Every call, allowed or refused, leaves one audit line ({@link OperatorAudit}): who, what, which limit and
 * the client's hash (never the client key), and what happened.
 */
@Path("tollgate")
@RequestScoped
public class AdminResource {

    @Inject
    TollgateRuntime runtime;

    @Context
    SecurityContext security;

    @Inject
    OperatorCall call;

    @GET
    @Path("admin/state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response state() {
        Engine t = authorized();
        return Response.ok(AdminJson.state(t))
                .header("Cache-Control", "no-store")
                .build();
    }

    @GET
    @Path("admin/limits/{limit}/peek")
    @Produces(MediaType.APPLICATION_JSON)
    public Response peek(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Engine t = authorized();
        return operate(client, "peek at limit '" + limit + "'", () -> {
            String peeked = AdminJson.peek(
                    limit, StoreKeys.clientHash(client), t.admin().peek(limit, client));
            audit("peeked at", limit, client, "");
            return peeked;
        });
    }

    @DELETE
    @Path("admin/limits/{limit}/clients")
    @Produces(MediaType.APPLICATION_JSON)
    public Response reset(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Engine t = authorized();
        return operate(client, "reset limit '" + limit + "'", () -> {
            boolean had = t.admin().reset(limit, client);
            audit("reset", limit, client, had ? "" : " (it had no state)");
            return AdminJson.reset(limit, StoreKeys.clientHash(client), had);
        });
    }

    @PATCH
    @Path("admin/limits/{limit}/clients")
    @Produces(MediaType.APPLICATION_JSON)
    public Response credit(
            @PathParam("limit") String limit,
            @QueryParam("client") String client,
            @QueryParam("credit") String tokens) {
        Engine t = authorized();
        return operate(client, "credit limit '" + limit + "'", () -> {
            long asked = number("credit", tokens);
            long credited = t.admin().credit(limit, client, asked);
            audit("credited", limit, client, ": " + asked + " tokens asked, " + credited + " given");
            return AdminJson.credit(limit, StoreKeys.clientHash(client), asked, credited);
        });
    }

    @GET
    @Path("admin/limits/{limit}/rules")
    @Produces(MediaType.APPLICATION_JSON)
    public Response rules(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Engine t = authorized();
        return operate(client, "read the rules of limit '" + limit + "'", () -> {
            String read = AdminJson.rules(
                    limit, StoreKeys.clientHash(client), t.admin().rules(limit, client));
            audit("read the rules of", limit, client, "");
            return read;
        });
    }

    @PUT
    @Path("admin/limits/{limit}/override")
    @Produces(MediaType.APPLICATION_JSON)
    public Response override(
            @PathParam("limit") String limit,
            @QueryParam("client") String client,
            @QueryParam("capacity") String capacity,
            @QueryParam("refill-tokens") String refillTokens,
            @QueryParam("refill-period") String refillPeriod,
            @QueryParam("for") String lasting) {
        Engine t = authorized();
        return operate(client, "override limit '" + limit + "'", () -> {
            long c = number("capacity", capacity);
            ClientOverride policy = new ClientOverride(
                    c,
                    refillTokens == null && t.limit(limit).algorithm() != Algorithm.TOKEN_BUCKET
                            ? c
                            : number("refill-tokens", refillTokens),
                    refillPeriod == null
                            ? t.limit(limit).policy().refillPeriod()
                            : duration("refill-period", refillPeriod));
            Duration d = duration("for", lasting);
            t.admin().override(limit, client, policy, d);
            audit(
                    "overrode",
                    limit,
                    client,
                    ": capacity=" + policy.capacity() + " refill-tokens=" + policy.refillTokens() + " refill-period="
                            + Durations.format(policy.refillPeriod()) + " for " + Durations.format(d));
            return AdminJson.rules(
                    limit,
                    StoreKeys.clientHash(client),
                    new ClientRules(java.util.Optional.of(policy), d, Duration.ZERO));
        });
    }

    @DELETE
    @Path("admin/limits/{limit}/override")
    @Produces(MediaType.APPLICATION_JSON)
    public Response removeOverride(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Engine t = authorized();
        return operate(client, "remove the override of limit '" + limit + "'", () -> {
            boolean had = t.admin().removeOverride(limit, client);
            audit("removed the override of", limit, client, had ? "" : " (it had none)");
            return AdminJson.removed(limit, StoreKeys.clientHash(client), "removed", had);
        });
    }

    @PUT
    @Path("admin/limits/{limit}/block")
    @Produces(MediaType.APPLICATION_JSON)
    public Response block(
            @PathParam("limit") String limit, @QueryParam("client") String client, @QueryParam("for") String lasting) {
        Engine t = authorized();
        return operate(client, "block limit '" + limit + "'", () -> {
            Duration d = duration("for", lasting);
            t.admin().block(limit, client, d);
            audit("blocked", limit, client, " for " + Durations.format(d));
            return AdminJson.rules(
                    limit, StoreKeys.clientHash(client), new ClientRules(java.util.Optional.empty(), Duration.ZERO, d));
        });
    }

    @DELETE
    @Path("admin/limits/{limit}/block")
    @Produces(MediaType.APPLICATION_JSON)
    public Response unblock(@PathParam("limit") String limit, @QueryParam("client") String client) {
        Engine t = authorized();
        return operate(client, "unblock limit '" + limit + "'", () -> {
            boolean had = t.admin().unblock(limit, client);
            audit("unblocked", limit, client, had ? "" : " (it was not blocked)");
            return AdminJson.removed(limit, StoreKeys.clientHash(client), "unblocked", had);
        });
    }

    /**
     * Runs an operator's request on {@code client}'s bucket, which {@code asked} names for the audit line:
     * 400 without a client or with a bad value, 404 for a limit not configured, 501 when the limits are
     * kept in process; when Redis cannot be asked, the {@link StoreUnavailableMapper}'s 503, and the audit
     * line says what failed (and what was done before it).
     */
    private Response operate(String client, String asked, java.util.function.Supplier<String> action) {
        if (client == null) {
            call.asked(asked);
            return problem(400, "Bad Request", "the client key is required: ?client=<key>");
        }
        call.asked(asked + " for client " + StoreKeys.clientHash(client));
        try {
            return Response.ok(action.get()).build();
        } catch (StoreUnavailableException e) {
            call.failed(e.getMessage());
            throw e;
        } catch (TollgateConfigException e) {
            return problem(404, "Not Found", e.getMessage());
        } catch (UnsupportedOperationException e) {
            return problem(501, "Not Implemented", e.getMessage());
        } catch (IllegalArgumentException e) {
            return problem(400, "Bad Request", e.getMessage());
        }
    }

    /** What the audit line says was done: to which limit for which client's hash (never the client key). */
    private void audit(String did, String limit, String client, String detail) {
        call.did(did + " limit '" + limit + "' for client " + StoreKeys.clientHash(client) + detail);
    }

    private static long number(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " is required: ?" + name + "=<whole number>");
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, but was '" + value + "'");
        }
    }

    private static Duration duration(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " is required: ?" + name + "=<duration, e.g. 30m>");
        }
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage() + ", but was '" + value + "'");
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
                            "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self';"
                                    + " frame-ancestors 'none'; base-uri 'none'")
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The application's Tollgate when the caller may operate it; otherwise the answer says why not. */
    private Engine authorized() {
        return AdminAccess.authorized(runtime, security);
    }

    private static Response problem(int status, String title, String detail) {
        return AdminAccess.problem(status, title, detail);
    }
}
