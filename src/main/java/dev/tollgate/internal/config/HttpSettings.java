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
 * @param pacingMaxWait the longest an outbound call through the pacing client filter waits for its turn,
 *     retries included ({@code tollgate.http.pacing-max-wait})
 */
public record HttpSettings(
        List<String> globalLimits,
        List<Cidr> trustedProxies,
        Optional<ClientHeader> clientHeader,
        int ipv6Prefix,
        boolean allowWait,
        Duration pacingMaxWait) {

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
    }

    /** Resource methods do not wait. */
    public HttpSettings(
            List<String> globalLimits, List<Cidr> trustedProxies, Optional<ClientHeader> clientHeader, int ipv6Prefix) {
        this(globalLimits, trustedProxies, clientHeader, ipv6Prefix, false, DEFAULT_PACING_MAX_WAIT);
    }
}
