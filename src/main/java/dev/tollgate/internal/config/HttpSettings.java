package dev.tollgate.internal.config;

import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientAddresses;
import dev.tollgate.internal.http.ClientHeader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the JAX-RS filter needs beyond the limits.
 *
 * @param globalLimits limits applied to every request ({@code tollgate.http.limits})
 * @param trustedProxies peers whose {@code clientHeader} is believed
 * @param clientHeader the one header the trusted proxies write; present exactly when there are trusted proxies
 * @param ipv6Prefix how many leading bits of an IPv6 client address form its key (a /64 by default)
 * @param allowWait whether a JAX-RS resource method may wait for a permit ({@code tollgate.http.allow-wait});
 *     by default it may not: a request thread parked on a limit serves nobody meanwhile
 * @param idempotencyHeader the header a request's idempotency key is read from ({@code
 *     tollgate.http.idempotency-header}), for the limits with an {@code idempotency-window}
 * @param pacingMaxWait the longest an outbound call through the pacing client filter waits for its turn,
 *     retries included ({@code tollgate.http.pacing-max-wait})
 */
public record HttpSettings(
        List<String> globalLimits,
        List<Cidr> trustedProxies,
        Optional<ClientHeader> clientHeader,
        int ipv6Prefix,
        boolean allowWait,
        String idempotencyHeader,
        Duration pacingMaxWait) {

    /** The header a request's idempotency key is read from unless {@code tollgate.http.idempotency-header} says. */
    public static final String DEFAULT_IDEMPOTENCY_HEADER = "Idempotency-Key";

    /** What {@code tollgate.http.idempotency-header} may be. */
    public static final String IDEMPOTENCY_HEADER_RULE = "a header name: 1-64 letters, digits or '-'";

    private static final java.util.regex.Pattern HEADER_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9-]{1,64}");

    /** Whether {@code name} may be the idempotency header. */
    public static boolean isHeaderName(String name) {
        return name != null && HEADER_NAME.matcher(name).matches();
    }

    /** {@code tollgate.http.pacing-max-wait}'s default. */
    public static final Duration DEFAULT_PACING_MAX_WAIT = Duration.ofSeconds(5);

    /** {@code tollgate.http.pacing-max-wait}'s largest value. */
    public static final Duration LONGEST_PACING_MAX_WAIT = Duration.ofMinutes(1);

    public HttpSettings {
        if (pacingMaxWait == null
                || pacingMaxWait.isNegative()
                || pacingMaxWait.compareTo(LONGEST_PACING_MAX_WAIT) > 0) {
            throw new IllegalArgumentException("pacingMaxWait must be 0..1m, but was " + pacingMaxWait);
        }
        globalLimits = List.copyOf(globalLimits);
        trustedProxies = List.copyOf(trustedProxies);
        if (trustedProxies.isEmpty() != clientHeader.isEmpty()) {
            throw new IllegalArgumentException("clientHeader must be given exactly when trustedProxies are, but was "
                    + clientHeader + " with " + trustedProxies);
        }
        ClientAddresses.checkIpv6Prefix(ipv6Prefix);
        if (!isHeaderName(idempotencyHeader)) {
            throw new IllegalArgumentException(
                    "idempotencyHeader must be " + IDEMPOTENCY_HEADER_RULE + ", but was " + idempotencyHeader);
        }
    }

    /** The idempotency key in {@value #DEFAULT_IDEMPOTENCY_HEADER}, pacing waits of at most 5 s. */
    public HttpSettings(
            List<String> globalLimits,
            List<Cidr> trustedProxies,
            Optional<ClientHeader> clientHeader,
            int ipv6Prefix,
            boolean allowWait) {
        this(
                globalLimits,
                trustedProxies,
                clientHeader,
                ipv6Prefix,
                allowWait,
                DEFAULT_IDEMPOTENCY_HEADER,
                DEFAULT_PACING_MAX_WAIT);
    }

    /** Resource methods do not wait. */
    public HttpSettings(
            List<String> globalLimits, List<Cidr> trustedProxies, Optional<ClientHeader> clientHeader, int ipv6Prefix) {
        this(globalLimits, trustedProxies, clientHeader, ipv6Prefix, false);
    }
}
