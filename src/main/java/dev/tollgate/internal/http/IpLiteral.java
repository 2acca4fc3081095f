package dev.tollgate.internal.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Literal IP addresses, parsed by hand: a header or a setting must never make the server resolve a
 * name, and {@link InetAddress#getByName} resolves whatever is not a literal it knows. IPv4 is four
 * decimal octets without leading zeros; IPv6 is RFC 4291 text (with {@code ::} and a dotted IPv4
 * tail). An IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}) is the IPv4 address it carries.
 */
public final class IpLiteral {

    private static final int MAX_LENGTH = 45;

    private IpLiteral() {}

    /** The address's bytes (4 or 16), or empty when {@code text} is not exactly a literal address. */
    public static Optional<byte[]> parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        byte[] b = text.indexOf(':') < 0 ? ipv4(text) : ipv6(text);
        return Optional.ofNullable(b).map(IpLiteral::unmapped);
    }

    /** Like {@link #parse}, but also takes the {@code %zone} a socket adds to a link-local peer. */
    public static Optional<byte[]> parsePeer(String text) {
        int zone = text == null ? -1 : text.indexOf('%');
        return parse(zone < 0 ? text : text.substring(0, zone));
    }

    /** The usual text of an address: dotted IPv4, or IPv6 as eight hex groups. */
    public static String format(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress(); // no lookup: the bytes are given
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + address.length, e);
        }
    }

    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            int octet = decimalOctet(parts[i]);
            if (octet < 0) {
                return null;
            }
            out[i] = (byte) octet;
        }
        return out;
    }

    private static int decimalOctet(String p) {
        if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v <= 255 ? v : -1;
    }

    private static byte[] ipv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        int[] head = groups(gap < 0 ? s : s.substring(0, gap), gap >= 0);
        int[] tail = gap < 0 ? new int[0] : groups(s.substring(gap + 2), true);
        if (head == null || tail == null) {
            return null;
        }
        int used = head.length + tail.length;
        if (gap < 0 ? used != 8 : used > 7) {
            return null;
        }
        byte[] out = new byte[16];
        put(out, 0, head);
        put(out, 8 - tail.length, tail);
        return out;
    }

    private static void put(byte[] out, int group, int[] values) {
        for (int i = 0; i < values.length; i++) {
            out[2 * (group + i)] = (byte) (values[i] >>> 8);
            out[2 * (group + i) + 1] = (byte) values[i];
        }
    }

    /** 16-bit groups of one side of {@code ::}; a dotted IPv4 tail counts as two; null when malformed. */
    private static int[] groups(String side, boolean mayBeEmpty) {
        if (side.isEmpty()) {
            return mayBeEmpty ? new int[0] : null;
        }
        String[] parts = side.split(":", -1);
        String last = parts[parts.length - 1];
        byte[] v4 = last.indexOf('.') >= 0 ? ipv4(last) : null;
        if (last.indexOf('.') >= 0 && v4 == null) {
            return null;
        }
        int hexGroups = v4 == null ? parts.length : parts.length - 1;
        int[] out = new int[v4 == null ? parts.length : parts.length + 1];
        for (int i = 0; i < hexGroups; i++) {
            int g = hexGroup(parts[i]);
            if (g < 0) {
                return null;
            }
            out[i] = g;
        }
        if (v4 != null) {
            out[hexGroups] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
            out[hexGroups + 1] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
        }
        return out;
    }

    private static int hexGroup(String p) {
        if (p.isEmpty() || p.length() > 4) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < p.length(); i++) {
            int d = hexDigit(p.charAt(i));
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    private static byte[] unmapped(byte[] b) {
        if (b.length != 16) {
            return b;
        }
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return b;
            }
        }
        if (b[10] != (byte) 0xFF || b[11] != (byte) 0xFF) {
            return b;
        }
        return new byte[] {b[12], b[13], b[14], b[15]};
    }
}
