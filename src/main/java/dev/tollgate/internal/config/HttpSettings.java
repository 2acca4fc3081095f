package dev.tollgate.internal.config;

import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientAddresses;
import dev.tollgate.internal.http.ClientHeader;
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
 */
public record HttpSettings(
        List<String> globalLimits,
        List<Cidr> trustedProxies,
        Optional<ClientHeader> clientHeader,
        int ipv6Prefix,
        boolean allowWait) {

    public HttpSettings {
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
        this(globalLimits, trustedProxies, clientHeader, ipv6Prefix, false);
    }
}
