package dev.tollgate.internal.config;

import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The settings of the HTTP filter, {@code tollgate.http.*}: its global limits and how it tells clients apart. */
final class HttpReader {

    private static final String LIMITS = Setting.HTTP_LIMITS.property();
    private static final String PROXIES = Setting.HTTP_TRUSTED_PROXIES.property();
    private static final String HEADER = Setting.HTTP_CLIENT_HEADER.property();

    private HttpReader() {}

    /** The HTTP settings; names a global limit that is not defined at all ({@code limits}: those defined). */
    static HttpSettings read(PropertyValues values, Set<String> limits) {
        List<String> global = values.list(LIMITS);
        for (String name : global) {
            if (!limits.contains(name)) {
                values.error(
                        LIMITS,
                        String.join(",", global),
                        "no limit named '" + name + "' is configured (tollgate.limits." + name + ".capacity)");
            }
        }
        List<Cidr> proxies = new ArrayList<>();
        for (String entry : values.list(PROXIES)) {
            try {
                proxies.add(Cidr.parse(entry));
            } catch (IllegalArgumentException e) {
                values.error(PROXIES, entry, e.getMessage());
            }
        }
        int prefix = values.whole(Setting.HTTP_IPV6_PREFIX);
        Optional<ClientHeader> header = values.present(HEADER, ClientHeader::parse, Setting.HTTP_CLIENT_HEADER.rule());
        boolean allowWait = values.flag(Setting.HTTP_ALLOW_WAIT);
        String idempotencyHeader = values.value(
                Setting.HTTP_IDEMPOTENCY_HEADER.property(),
                HttpSettings.DEFAULT_IDEMPOTENCY_HEADER,
                HttpReader::headerName,
                Setting.HTTP_IDEMPOTENCY_HEADER.rule());
        Duration pacing = values.duration(Setting.HTTP_PACING_MAX_WAIT);
        return clientHeaderMatchesProxies(values, proxies, header)
                ? new HttpSettings(global, proxies, header, prefix, allowWait, idempotencyHeader, pacing)
                : new HttpSettings(global, List.of(), Optional.empty(), prefix, allowWait, idempotencyHeader, pacing);
    }

    private static String headerName(String text) {
        String name = text.trim();
        if (!HttpSettings.isHeaderName(name)) {
            throw new IllegalArgumentException();
        }
        return name;
    }

    /** Trusted proxies need the one header they write; a header without trusted proxies is never read. */
    private static boolean clientHeaderMatchesProxies(
            PropertyValues values, List<Cidr> proxies, Optional<ClientHeader> header) {
        boolean proxiesSet = !values.list(PROXIES).isEmpty();
        Optional<String> headerSet = values.source().get(HEADER).filter(v -> !v.isBlank());
        if (proxiesSet && headerSet.isEmpty()) {
            values.add(HEADER + " is required when " + PROXIES + " is set"
                    + " (X-Forwarded-For or Forwarded: the one header those proxies write. Proxies pass the other"
                    + " one through from the client, so reading it would let a client pick its own bucket)");
        } else if (headerSet.isPresent() && !proxiesSet) {
            values.error(
                    HEADER,
                    headerSet.get().trim(),
                    PROXIES + " as well: the header is believed only from trusted proxies, and"
                            + " without any every client would be keyed by its proxy's address");
        }
        return proxies.isEmpty() == header.isEmpty();
    }
}
