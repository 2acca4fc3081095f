package dev.tollgate.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address block such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one. */
public record Cidr(byte[] network, int prefix) {

    public static Cidr parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String host = slash < 0 ? t : t.substring(0, slash);
        if (!host.matches("[0-9A-Fa-f.:]+")) {
            throw new IllegalArgumentException("expected an address or address/prefix such as 10.0.0.0/8");
        }
        byte[] addr;
        try {
            addr = InetAddress.getByName(host).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("expected an address or address/prefix such as 10.0.0.0/8");
        }
        int bits = addr.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(t.substring(slash + 1));
        } catch (NumberFormatException e) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("the prefix must be 0.." + bits);
        }
        return new Cidr(addr, prefix);
    }

    /** Whether {@code address} lies in this block (an IPv4-mapped IPv6 address counts as IPv4). */
    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefix == prefix && java.util.Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
