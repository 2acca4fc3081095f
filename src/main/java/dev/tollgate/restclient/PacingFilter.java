package dev.tollgate.restclient;

import dev.tollgate.Decision;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.cdi.TollgateRuntime;
import dev.tollgate.internal.core.Sleeper;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.http.PartnerFields;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Optional;

/**
 * Paces outbound calls to a rate-limited partner across all servers: register it on a MicroProfile Rest Client
 * ({@code @RegisterProvider(PacingFilter.class)}) or on any JAX-RS client ({@code client.register(PacingFilter.class)}).
 *
 * <p>Each call first waits its turn in the partner's bucket of the {@code tollgate-pacing} limit (one bucket per
 * scheme, host and port, in Redis, so every server's calls queue in the same line), up to {@code
 * tollgate.http.pacing-max-wait}. The partner's answers keep that bucket's policy in step with what it announces
 * ({@code RateLimit-Policy}, {@code RateLimit}, the older {@code X-RateLimit-*}, {@code Retry-After}). A partner's
 * 429 whose {@code Retry-After} fits in what is left of the wait is waited out and the call made again; a turn
 * that would come too late is answered here, without calling the partner: 429 with {@code Retry-After}.
 */
public class PacingFilter implements ClientRequestFilter, ClientResponseFilter {

    /** The instant ({@code System.nanoTime}) by which a call, retries included, has had its turn. */
    static final String DEADLINE = PacingFilter.class.getName() + ".deadline";

    /** How many times the call has been made again after a partner's 429. */
    static final String RETRIES = PacingFilter.class.getName() + ".retries";

    /** Set on an answer the filter gave itself. */
    static final String OWN_ANSWER = PacingFilter.class.getName() + ".own";

    /** The most times one call is made again after a partner's 429s. */
    static final int MAX_RETRIES = 3;

    private final Clock clock;
    private volatile Pacer pacer;

    /** Paces through the application's Tollgate (from CDI), with {@code tollgate.http.pacing-max-wait}. */
    public PacingFilter() {
        this.clock = Clock.systemUTC();
    }

    /**
     * Paces through {@code limits} (in plain Java, a {@code Tollgate}), each call waiting at most {@code maxWait}.
     */
    public PacingFilter(RateLimits limits, RateLimitAdmin admin, Duration maxWait) {
        this(new Pacer(limits, admin, maxWait, Sleeper.SYSTEM, System::nanoTime), Clock.systemUTC());
    }

    PacingFilter(Pacer pacer, Clock clock) {
        this.pacer = pacer;
        this.clock = clock;
    }

    @Override
    public void filter(ClientRequestContext request) {
        Pacer p = pacer();
        Long deadline = (Long) request.getProperty(DEADLINE);
        if (deadline == null) {
            deadline = p.deadline();
            request.setProperty(DEADLINE, deadline);
        }
        try {
            Decision d = p.turn(partner(request.getUri()), deadline);
            if (!d.allowed() && !d.degraded()) {
                answer(request, Response.Status.TOO_MANY_REQUESTS, d.retryAfter());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer(request, Response.Status.SERVICE_UNAVAILABLE, p.left(deadline));
        }
    }

    @Override
    public void filter(ClientRequestContext request, ClientResponseContext response) {
        if (request.getProperty(OWN_ANSWER) != null) {
            return;
        }
        Pacer p = pacer();
        String partner = partner(request.getUri());
        boolean tooMany = response.getStatus() == Response.Status.TOO_MANY_REQUESTS.getStatusCode();
        PartnerFields fields = PartnerFields.read(response::getHeaderString, clock.instant());
        p.learn(partner, fields, tooMany);
        if (tooMany) {
            retry(p, request, response, fields.retryAfter());
        }
    }

    /** Waits out a 429's {@code Retry-After} when it fits the call's wait, and makes the call again. */
    private void retry(Pacer p, ClientRequestContext request, ClientResponseContext response, Optional<Duration> wait) {
        int retries =
                Optional.ofNullable((Integer) request.getProperty(RETRIES)).orElse(0);
        long deadline = (Long) request.getProperty(DEADLINE);
        if (wait.isEmpty() || retries >= MAX_RETRIES || wait.get().compareTo(p.left(deadline)) > 0) {
            return;
        }
        try {
            p.sleep(wait.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        // Made again on a plain client of its own (paced by this filter's pacer), not the caller's: an MP Rest
        // Client's invocation cannot be re-issued outside its proxy.
        Client client = ClientBuilder.newClient().register(new PacingFilter(p, clock));
        try (client;
                Response again = again(client, request, deadline, retries + 1)) {
            response.setStatus(again.getStatus());
            response.getHeaders().clear();
            again.getStringHeaders().forEach((k, v) -> response.getHeaders().put(k, new ArrayList<>(v)));
            byte[] body = again.hasEntity() ? again.readEntity(byte[].class) : new byte[0];
            response.setEntityStream(new ByteArrayInputStream(body));
        }
    }

    private static Response again(Client client, ClientRequestContext request, long deadline, int retries) {
        MultivaluedMap<String, Object> headers = new MultivaluedHashMap<>(request.getHeaders());
        headers.remove(HttpHeaders.CONTENT_LENGTH);
        Invocation.Builder b = client.target(request.getUri())
                .request()
                .headers(headers)
                .property(DEADLINE, deadline)
                .property(RETRIES, retries);
        return request.hasEntity()
                ? b.method(request.getMethod(), Entity.entity(request.getEntity(), request.getMediaType()))
                : b.method(request.getMethod());
    }

    private static void answer(ClientRequestContext request, Response.Status status, Duration retryAfter) {
        request.setProperty(OWN_ANSWER, Boolean.TRUE);
        long seconds = Math.max(1, retryAfter.toSeconds() + (retryAfter.toNanosPart() > 0 ? 1 : 0));
        request.abortWith(Response.status(status)
                .header(HttpHeaders.RETRY_AFTER, Decision.NEVER.equals(retryAfter) ? 3600 : seconds)
                .build());
    }

    /** A partner is its scheme, host and port: every path of it spends from one bucket. */
    static String partner(URI uri) {
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("http").toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        String host = Optional.ofNullable(uri.getHost()).orElse("").toLowerCase(Locale.ROOT);
        return scheme + "://" + host + ":" + port;
    }

    private Pacer pacer() {
        Pacer p = pacer;
        if (p == null) {
            Engine engine = CDI.current().select(TollgateRuntime.class).get().tollgate();
            p = new Pacer(
                    engine, engine.admin(), engine.settings().http().pacingMaxWait(), Sleeper.SYSTEM, System::nanoTime);
            pacer = p;
        }
        return p;
    }
}
