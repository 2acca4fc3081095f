package dev.tollgate.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Who the client is: the TCP peer, unless the peer is a trusted proxy, in which case the nearest
 * address in {@code Forwarded} (RFC 7239) or {@code X-Forwarded-For} that is not itself a trusted
 * proxy. A client cannot choose its own bucket by sending these headers through an untrusted path.
 * IPv6 clients are keyed by their network prefix (a /64 by default), since one host holds them all.
 */
public final class ClientAddresses {

    private final List<Cidr> trusted;
    private final int ipv6Prefix;

    public ClientAddresses(List<Cidr> trusted, int ipv6Prefix) {
        this.trusted = List.copyOf(trusted);
        this.ipv6Prefix = ipv6Prefix;
    }

    /**
     * The client's key.
     *
     * @param peer the TCP peer's address
     * @param forwarded the {@code Forwarded} header, or null
     * @param xForwardedFor the {@code X-Forwarded-For} header, or null
     */
    public String clientKey(String peer, String forwarded, String xForwardedFor) {
        Optional<InetAddress> peerAddress = parse(peer);
        if (peerAddress.isEmpty()) {
            return peer == null ? "unknown" : peer;
        }
        InetAddress client = peerAddress.get();
        if (isTrusted(client)) {
            List<String> hops = forwarded != null ? forwardedFor(forwarded) : split(xForwardedFor);
            for (int i = hops.size() - 1; i >= 0; i--) {
                Optional<InetAddress> hop = parse(hops.get(i));
                if (hop.isEmpty()) {
                    break;
                }
                client = hop.get();
                if (!isTrusted(client)) {
                    break;
                }
            }
        }
        return key(client);
    }

    private boolean isTrusted(InetAddress a) {
        return trusted.stream().anyMatch(c -> c.contains(a));
    }

    private String key(InetAddress a) {
        byte[] bytes = a.getAddress();
        if (bytes.length == 16) {
            for (int bit = ipv6Prefix; bit < 128; bit++) {
                bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
            }
            try {
                return InetAddress.getByAddress(bytes).getHostAddress() + "/" + ipv6Prefix;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return a.getHostAddress();
    }

    static List<String> forwardedFor(String header) {
        List<String> out = new ArrayList<>();
        for (String element : header.split(",")) {
            for (String pair : element.split(";")) {
                String p = pair.trim();
                if (p.toLowerCase(Locale.ROOT).startsWith("for=")) {
                    String v = p.substring(4).trim().replace("\"", "");
                    if (v.startsWith("[")) {
                        v = v.substring(1, Math.max(1, v.indexOf(']')));
                    } else if (v.indexOf(':') == v.lastIndexOf(':') && v.contains(":")) {
                        v = v.substring(0, v.indexOf(':'));
                    }
                    out.add(v);
                }
            }
        }
        return out;
    }

    private static List<String> split(String header) {
        if (header == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : header.split(",")) {
            out.add(s.trim());
        }
        return out;
    }

    /** Only literal addresses: a header must never make us resolve a host name. */
    static Optional<InetAddress> parse(String s) {
        if (s == null || s.isEmpty() || s.length() > 45 || !s.matches("[0-9A-Fa-f.:]+")) {
            return Optional.empty();
        }
        try {
            InetAddress a = InetAddress.getByName(s);
            if (a instanceof java.net.Inet6Address && isIpv4Mapped(a.getAddress())) {
                return Optional.of(InetAddress.getByAddress(java.util.Arrays.copyOfRange(a.getAddress(), 12, 16)));
            }
            return Optional.of(a);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static boolean isIpv4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xFF && b[11] == (byte) 0xFF;
    }
}
