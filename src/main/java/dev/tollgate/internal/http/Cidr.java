package dev.tollgate.internal.http;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * An address block such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one.
 * Only literal addresses are taken (see {@link IpLiteral}): a host name is refused, never resolved. An
 * IPv4-mapped block ({@code ::ffff:10.0.0.0/104}) is the IPv4 block it maps.
 */
public record Cidr(byte[] network, int prefix) {

    private static final String EXPECTED = "an address or address/prefix such as 10.0.0.0/8 or fd00::/8";

    public Cidr {
        if (network == null || (network.length != 4 && network.length != 16)) {
            throw new IllegalArgumentException("network must have 4 or 16 bytes");
        }
        if (prefix < 0 || prefix > network.length * 8) {
            throw new IllegalArgumentException("the prefix must be 0.." + network.length * 8);
        }
        network = network.clone();
    }

    public static Cidr parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String host = slash < 0 ? t : t.substring(0, slash);
        byte[] addr = IpLiteral.parse(host).orElseThrow(() -> new IllegalArgumentException(EXPECTED));
        int bits = addr.length * 8;
        if (slash < 0) {
            return new Cidr(addr, bits);
        }
        int prefix = prefix(t.substring(slash + 1));
        boolean mapped = addr.length == 4 && host.indexOf(':') >= 0;
        if (mapped && (prefix < 96 || prefix > 128)) {
            throw new IllegalArgumentException("the prefix of an IPv4-mapped block must be 96..128");
        }
        prefix = mapped ? prefix - 96 : prefix; // counted the 96 bits of ::ffff:0:0/96
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("the prefix must be 0.." + bits);
        }
        return new Cidr(addr, prefix);
    }

    private static int prefix(String digits) {
        if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Integer.parseInt(digits);
    }

    @Override
    public byte[] network() {
        return network.clone();
    }

    /** Whether {@code address} (4 or 16 bytes) lies in this block. */
    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (address[full] & mask) == (network[full] & mask);
    }

    /** Whether {@code address} lies in this block. */
    public boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefix == prefix && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        return IpLiteral.format(network) + "/" + prefix;
    }
}
