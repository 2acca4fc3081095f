package dev.tollgate.jaxrs;

import dev.tollgate.ClientUsage;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.StoreKeys;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * A limit's usage for a billing run ({@code usage-days}): {@code GET
 * tollgate/admin/limits/{limit}/usage?from=YYYY-MM-DD&to=YYYY-MM-DD&top=N} (every client, the most first;
 * {@code from} defaults to the 1st of this UTC month, {@code to} to today, {@code top} to 100) or {@code
 * &client=<key>} (one client). JSON, or CSV with {@code Accept: text/csv} or {@code format=csv}. Guarded
 * and audited as {@link AdminResource}; a bad day or {@code top}, or a limit that keeps no usage, is a 400.
 */
@Path("tollgate/admin/limits/{limit}/usage")
@RequestScoped
public class UsageResource {

    static final String CSV = "text/csv";

    /** The clients listed unless {@code top} says. */
    static final int DEFAULT_TOP = 100;

    @Inject
    TollgateRuntime runtime;

    @Context
    SecurityContext security;

    @Context
    HttpHeaders headers;

    @Inject
    OperatorCall call;

    @GET
    @Produces({MediaType.APPLICATION_JSON, CSV})
    public Response usage(
            @PathParam("limit") String limit,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("top") String top,
            @QueryParam("client") String client,
            @QueryParam("format") String format) {
        call.asked("read the usage of limit '" + limit + "'"
                + (client == null ? "" : " for client " + StoreKeys.clientHash(client)));
        Engine t = AdminAccess.authorized(runtime, security);
        boolean csv = "csv".equalsIgnoreCase(format)
                || (format == null
                        && headers.getAcceptableMediaTypes().stream()
                                .anyMatch(m -> m.isCompatible(MediaType.valueOf(CSV)) && !m.isWildcardType()));
        try {
            LocalDate today = LocalDate.now(ZoneOffset.UTC);
            LocalDate first = day("from", from, today.withDayOfMonth(1));
            LocalDate last = day("to", to, today);
            List<ClientUsage> clients = client == null
                    ? t.admin().usage(limit, first, last, top(top))
                    : List.of(t.admin().usage(limit, client, first, last));
            call.did("read the usage of limit '" + limit + "' from " + first + " to " + last + ": " + clients.size()
                    + " clients");
            return Response.ok(
                            csv ? UsageExport.csv(clients) : UsageExport.json(limit, first, last, clients),
                            csv ? CSV + ";charset=utf-8" : MediaType.APPLICATION_JSON)
                    .header("Cache-Control", "no-store")
                    .build();
        } catch (StoreUnavailableException e) {
            call.failed(e.getMessage());
            throw e;
        } catch (TollgateConfigException e) {
            return AdminAccess.problem(404, "Not Found", e.getMessage());
        } catch (UnsupportedOperationException e) {
            return AdminAccess.problem(501, "Not Implemented", e.getMessage());
        } catch (IllegalArgumentException e) {
            return AdminAccess.problem(400, "Bad Request", e.getMessage());
        }
    }

    private static LocalDate day(String name, String value, LocalDate fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            return LocalDate.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be a day, YYYY-MM-DD, but was '" + value + "'");
        }
    }

    private static int top(String value) {
        if (value == null) {
            return DEFAULT_TOP;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("top must be a whole number, but was '" + value + "'");
        }
    }
}
