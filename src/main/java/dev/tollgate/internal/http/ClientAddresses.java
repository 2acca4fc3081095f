package dev.tollgate.internal.http;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Who the client is. The TCP peer, unless the peer is a trusted proxy: then the {@link ClientHeader}
 * the proxies write is read (all its lines, in order) from the right, past every hop that is itself a
 * trusted proxy, and the first hop that is not is the client. Each entry was written by the hop to its
 * right, so what the walk believes was written by a trusted proxy; whatever the client wrote lies
 * further left and is never reached. A hop a proxy could not name ({@code unknown}, or anything
 * malformed) keys as {@code unknown}, one bucket apart from every address; an obfuscated identifier
 * ({@code _abc}) keys as itself. If every hop is trusted, the leftmost is the client.
 *
 * <p>IPv6 clients are keyed by their network prefix (a /64 by default), since one host holds them all.
 * No name is ever resolved: addresses are parsed as literals only.
 */
public final class ClientAddresses {

    private static final Logger LOG = Logger.getLogger(ClientAddresses.class.getName());

    /** The shortest and the longest IPv6 prefix that may key a client: one bit, or the whole address. */
    public static final int SHORTEST_IPV6_PREFIX = 1;

    public static final int LONGEST_IPV6_PREFIX = 128;

    private final List<Cidr> trusted;
    private final Optional<ClientHeader> header;
    private final int ipv6Prefix;
    private final AtomicBoolean warnedNoHeader = new AtomicBoolean();

    /**
     * The peer last seen, parsed, and its key when no header can change it (null: a trusted proxy): most
     * requests come from the peer before them (a proxy, a kept-alive client), and parsing and formatting
     * an address cost more than the rest of a key. Written whole, read without a lock.
     */
    private volatile Peer lastPeer;

    private record Peer(String text, byte[] address, String key) {}

    /**
     * @param trusted the trusted proxies; when not empty, {@code header} must be given
     * @param header the one header the trusted proxies write
     * @param ipv6Prefix how many leading bits of an IPv6 address make its key, 1..128
     */
    public ClientAddresses(List<Cidr> trusted, Optional<ClientHeader> header, int ipv6Prefix) {
        if (!trusted.isEmpty() && header.isEmpty()) {
            throw new IllegalArgumentException("trusted proxies need the header they write, but none was given");
        }
        checkIpv6Prefix(ipv6Prefix);
        this.trusted = List.copyOf(trusted);
        this.header = header;
        this.ipv6Prefix = ipv6Prefix;
    }

    /** {@code prefix} when it may key IPv6 clients; {@link IllegalArgumentException} unless 1..128. */
    public static int checkIpv6Prefix(int prefix) {
        if (prefix < SHORTEST_IPV6_PREFIX || prefix > LONGEST_IPV6_PREFIX) {
            throw new IllegalArgumentException(
                    "ipv6Prefix must be " + SHORTEST_IPV6_PREFIX + ".." + LONGEST_IPV6_PREFIX + ", but was " + prefix);
        }
        return prefix;
    }

    /** The header to hand to {@link #clientKey}, if any is read at all. */
    public Optional<ClientHeader> header() {
        return header;
    }

    /**
     * The client's key.
     *
     * @param peer the TCP peer's address, as the servlet container gives it
     * @param headerLines every line of {@link #header()} in the order received; empty when absent
     */
    public String clientKey(String peer, List<String> headerLines) {
        Peer last = lastPeer;
        if (last != null && last.text.equals(peer)) {
            if (last.key != null) {
                return last.key;
            }
        } else {
            Optional<byte[]> parsedPeer = IpLiteral.parsePeer(peer);
            if (parsedPeer.isEmpty()) {
                return Hop.UNKNOWN_LABEL;
            }
            byte[] address = parsedPeer.get();
            last = new Peer(peer, address, header.isEmpty() || !isTrusted(address) ? key(address) : null);
            lastPeer = last;
            if (last.key != null) {
                return last.key;
            }
        }
        byte[] client = last.address;
        List<Hop> hops = header.get().hops(headerLines);
        if (hops.isEmpty()) {
            warnNoHeader(client);
        }
        for (int i = hops.size() - 1; i >= 0; i--) {
            Hop hop = hops.get(i);
            if (hop.address() == null) {
                return hop.label();
            }
            client = hop.address();
            if (!isTrusted(client)) {
                break;
            }
        }
        return key(client);
    }

    private boolean isTrusted(byte[] address) {
        for (Cidr c : trusted) {
            if (c.contains(address)) {
                return true;
            }
        }
        return false;
    }

    private String key(byte[] address) {
        if (address.length == 4) {
            return IpLiteral.format(address);
        }
        byte[] network = address.clone();
        for (int bit = ipv6Prefix; bit < LONGEST_IPV6_PREFIX; bit++) {
            network[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return IpLiteral.format(network) + "/" + ipv6Prefix;
    }

    private void warnNoHeader(byte[] proxy) {
        if (warnedNoHeader.compareAndSet(false, true)) {
            LOG.warning(() -> "Tollgate: a request from the trusted proxy " + IpLiteral.format(proxy) + " carried no "
                    + header.get() + " header, so it is keyed by the proxy's own address. Requests the proxy"
                    + " forwards should carry it: is tollgate.http.client-header the header the proxy writes?"
                    + " (said once)");
        }
    }
}
