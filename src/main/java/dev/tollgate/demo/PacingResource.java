package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * A partner that allows 5 calls per second for everyone ({@code GET /demo/pacing/partner}, {@code
 * demo-partner-api}), and a loop calling it through a Rest Client that paces itself ({@code GET
 * /demo/pacing/paced?calls=}) or one that does not ({@code GET /demo/pacing/unpaced?calls=}). The loop's partner is {@code
 * demo.partner-api.url} (default: this server), so that several servers can call one partner.
 */
@Path("/demo/pacing")
public class PacingResource {

    /** The most calls one loop makes. */
    static final int MAX_CALLS = 100;

    @Inject
    @ConfigProperty(name = "demo.partner-api.url")
    Optional<String> partnerUrl;

    @Context
    UriInfo uri;

    /** {@code ok <epoch us>}. */
    @GET
    @Path("/partner")
    @RateLimited("demo-partner-api")
    public String partner() {
        return "ok " + micros() + "\n";
    }

    /** {@code calls} calls through the pacing client: each status's count, and when the first and last answered. */
    @GET
    @Path("/paced")
    public String paced(@QueryParam("calls") int calls) {
        PacedPartnerApi api = builder().build(PacedPartnerApi.class);
        return loop(calls, api::call);
    }

    /** The same loop through a client that does not pace itself. */
    @GET
    @Path("/unpaced")
    public String unpaced(@QueryParam("calls") int calls) {
        PartnerApi api = builder().build(PartnerApi.class);
        return loop(calls, api::call);
    }

    private RestClientBuilder builder() {
        URI base = partnerUrl.map(URI::create).orElseGet(() -> uri.getBaseUri());
        return RestClientBuilder.newBuilder().baseUri(base);
    }

    /** {@code 200=<n> 429=<n> first=<epoch us> last=<epoch us>}: what the loop's calls were answered. */
    private static String loop(int calls, Supplier<String> call) {
        if (calls < 1 || calls > MAX_CALLS) {
            throw new WebApplicationException(Response.status(400)
                    .entity("calls must be 1.." + MAX_CALLS + ", but was " + calls + "\n")
                    .build());
        }
        TreeMap<Integer, Integer> statuses = new TreeMap<>();
        long first = 0;
        long last = 0;
        for (int i = 0; i < calls; i++) {
            int status;
            try {
                call.get();
                status = 200;
            } catch (WebApplicationException e) {
                status = e.getResponse().getStatus();
            }
            statuses.merge(status, 1, Integer::sum);
            last = micros();
            first = first == 0 ? last : first;
        }
        StringBuilder b = new StringBuilder();
        statuses.forEach((s, n) -> b.append(s).append('=').append(n).append(' '));
        return b.append("first=")
                .append(first)
                .append(" last=")
                .append(last)
                .append('\n')
                .toString();
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
