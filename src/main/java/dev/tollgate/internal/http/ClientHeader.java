package dev.tollgate.internal.http;

import java.util.ArrayList;
import java.util.List;

/**
 * The one header the trusted proxies write ({@code tollgate.http.client-header}). Only this header is
 * read: the other one passes through proxies untouched, so whatever it says was written by the client.
 */
public enum ClientHeader {
    X_FORWARDED_FOR("X-Forwarded-For"),
    FORWARDED("Forwarded");

    private final String headerName;

    ClientHeader(String headerName) {
        this.headerName = headerName;
    }

    /** The HTTP header's name. */
    public String headerName() {
        return headerName;
    }

    /** The header named {@code text}, in any letter case. */
    public static ClientHeader parse(String text) {
        for (ClientHeader h : values()) {
            if (h.headerName.equalsIgnoreCase(text.trim())) {
                return h;
            }
        }
        throw new IllegalArgumentException("expected X-Forwarded-For or Forwarded");
    }

    /** Every hop the header's lines record, oldest first; each line parsed on its own, in order. */
    List<Hop> hops(List<String> lines) {
        List<Hop> hops = new ArrayList<>();
        for (String line : lines) {
            if (this == FORWARDED) {
                hops.addAll(ForwardedElements.of(line));
            } else {
                for (String entry : line.split(",", -1)) {
                    if (!entry.isBlank()) {
                        hops.add(Hop.node(entry));
                    }
                }
            }
        }
        return hops;
    }

    @Override
    public String toString() {
        return headerName;
    }
}
