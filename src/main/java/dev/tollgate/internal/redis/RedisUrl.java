package dev.tollgate.internal.redis;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where Redis is, parsed from {@code tollgate.redis.url}:
 *
 * <ul>
 *   <li>{@code redis://[user:password@]host[:port][/db]}: one server ({@code rediss://} for TLS)
 *   <li>{@code redis-cluster://[user:password@]host[:port],host[:port],...}: seed nodes of a Redis Cluster
 *       ({@code rediss-cluster://} for TLS); port 6379 when left out
 *   <li>{@code redis-sentinel://[user:password@]host[:port],.../<master-name>[/db]}: Sentinels watching
 *       {@code master-name} ({@code rediss-sentinel://} for TLS); port 26379 when left out
 * </ul>
 *
 * Parsed by hand, not by {@link java.net.URI}: a comma-separated host list is no URI authority, and
 * host names with {@code _} (as in compose files: {@code redis_cache}) are no URI host. Everything before
 * the last {@code @} is user information, so a password may hold any character; user and password may
 * also be percent-encoded. No message, log line or {@link #toString} shows any of the user information;
 * a URL that fails to parse is shown as its scheme and {@code ***} only, and the message saying why
 * names the part by its place (host 2's port), never by its text: without an {@code @} (a typo such as
 * {@code redis://default:S3cret:6379}), any part of the URL may be a password.
 *
 * @param kind what sort of deployment
 * @param tls whether to connect with TLS
 * @param nodes the server, the cluster's seed nodes or the Sentinels; not empty
 * @param user the ACL user, or null for the default user
 * @param password the password, or null for none
 * @param database the database number; 0 for a cluster
 * @param masterName the name the Sentinels know the master by; null unless {@code kind} is SENTINEL
 */
public record RedisUrl(
        Kind kind, boolean tls, List<Node> nodes, String user, String password, int database, String masterName) {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]{1,253}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]{0,31}");

    /** The sort of Redis deployment a URL names. */
    public enum Kind {
        STANDALONE,
        CLUSTER,
        SENTINEL
    }

    /** One {@code host:port}. */
    public record Node(String host, int port) {
        public Node {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("host must not be blank, but was '" + host + "'");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be 1..65535, but was " + port);
            }
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    public RedisUrl {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null");
        }
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes must not be empty");
        }
        if (kind != Kind.STANDALONE && nodes.size() != nodes.stream().distinct().count()) {
            throw new IllegalArgumentException("nodes must not repeat, but were " + nodes);
        }
        if (database < 0) {
            throw new IllegalArgumentException("database must be >= 0, but was " + database);
        }
        if (kind == Kind.CLUSTER && database != 0) {
            throw new IllegalArgumentException("a Redis Cluster has only database 0, but database was " + database);
        }
        if ((kind == Kind.SENTINEL) != (masterName != null && !masterName.isBlank())) {
            throw new IllegalArgumentException(
                    "masterName is required for Sentinel and only for Sentinel, but was '" + masterName + "'");
        }
    }

    /**
     * Parses {@code text}; the {@link IllegalArgumentException} says what is wrong, never any part of the
     * URL but its scheme. Everything before the last {@code @} is the user information, so a password
     * may hold {@code @}, {@code /}, {@code ,} or {@code :} as they are (percent-encoding works too).
     */
    public static RedisUrl parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the URL is empty");
        }
        String s = text.trim();
        int sep = s.indexOf("://");
        String scheme = sep < 0 ? "" : s.substring(0, sep).toLowerCase(Locale.ROOT);
        if (!scheme.matches("[a-z-]*")) {
            throw new IllegalArgumentException("unknown scheme");
        }
        Kind kind =
                switch (scheme) {
                    case "redis", "rediss" -> Kind.STANDALONE;
                    case "redis-cluster", "rediss-cluster" -> Kind.CLUSTER;
                    case "redis-sentinel", "rediss-sentinel" -> Kind.SENTINEL;
                    default -> throw new IllegalArgumentException("unknown scheme '" + scheme + "'");
                };
        return parse(kind, scheme.startsWith("rediss"), s.substring(sep + 3));
    }

    /**
     * {@code url} as logs and error messages may show it: {@link #safeText} when it parses (or when only its
     * scheme is wrong); otherwise its scheme and {@code ***} ({@code redis://***}), because in a URL that
     * does not parse nothing tells a mistyped password from a host or a port.
     */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        try {
            return parse(url).safeText();
        } catch (IllegalArgumentException e) {
            String s = url.trim();
            int sep = s.indexOf("://");
            String scheme = sep < 0 ? "" : s.substring(0, sep);
            if (!SCHEME.matcher(scheme).matches()) {
                return "***";
            }
            if (scheme.toLowerCase(Locale.ROOT).startsWith("redis")) {
                return scheme + "://***";
            }
            try { // only the scheme is wrong (http://host:6379): the rest is shown as parsed
                return scheme
                        + parse("redis://" + s.substring(sep + 3)).safeText().substring("redis".length());
            } catch (IllegalArgumentException notEither) {
                return scheme + "://***";
            }
        }
    }

    /** This URL as text, user and password masked. */
    public String safeText() {
        String scheme = (tls ? "rediss" : "redis")
                + switch (kind) {
                    case STANDALONE -> "";
                    case CLUSTER -> "-cluster";
                    case SENTINEL -> "-sentinel";
                };
        String auth = password == null && user == null ? "" : "***@";
        String hosts = String.join(",", nodes.stream().map(Node::toString).toList());
        String path = kind == Kind.SENTINEL ? "/" + masterName : "";
        String db = database == 0 ? "" : "/" + database;
        return scheme + "://" + auth + hosts + path + db;
    }

    /** Never shows the user or the password. */
    @Override
    public String toString() {
        return safeText();
    }

    private static RedisUrl parse(Kind kind, boolean tls, String rest) {
        int at = rest.lastIndexOf('@');
        String[] auth = credentials(at < 0 ? null : rest.substring(0, at));
        String location = rest.substring(at + 1);
        if (location.contains("?") || location.contains("#")) {
            throw new IllegalArgumentException("no query or fragment is understood");
        }
        int slash = location.indexOf('/');
        String hosts = slash < 0 ? location : location.substring(0, slash);
        String path = slash < 0 ? "" : location.substring(slash + 1);
        List<Node> nodes = nodes(hosts, kind == Kind.SENTINEL ? 26379 : 6379);
        return switch (kind) {
            case STANDALONE -> {
                if (nodes.size() != 1) {
                    throw new IllegalArgumentException(
                            "a redis:// URL names one server; use redis-cluster:// or redis-sentinel:// for several");
                }
                int db = path.isEmpty() ? 0 : number(path, "database");
                yield new RedisUrl(kind, tls, nodes, auth[0], auth[1], db, null);
            }
            case CLUSTER -> {
                if (!path.isEmpty() && !path.equals("0")) {
                    throw new IllegalArgumentException("a Redis Cluster has only database 0; remove the path");
                }
                yield new RedisUrl(kind, tls, nodes, auth[0], auth[1], 0, null);
            }
            case SENTINEL -> {
                String[] parts = path.split("/", -1);
                if (parts[0].isEmpty() || parts.length > 2) {
                    throw new IllegalArgumentException("a Sentinel URL ends in /<master-name> or /<master-name>/<db>");
                }
                int db = parts.length == 2 ? number(parts[1], "database") : 0;
                yield new RedisUrl(kind, tls, nodes, auth[0], auth[1], db, decode(parts[0], "the master name"));
            }
        };
    }

    private static List<Node> nodes(String hosts, int defaultPort) {
        List<Node> nodes = new ArrayList<>();
        String[] entries = hosts.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            Node n = node(entries[i].trim(), defaultPort, "host " + (i + 1));
            if (nodes.contains(n)) {
                throw new IllegalArgumentException(
                        "nodes must not repeat, but host " + (i + 1) + " repeats host " + (nodes.indexOf(n) + 1));
            }
            nodes.add(n);
        }
        return nodes;
    }

    /** One {@code host[:port]}; {@code which} ("host 2") names it in a message, never its text. */
    private static Node node(String entry, int defaultPort, String which) {
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("empty host in the host list (" + which + ")");
        }
        int colon = entry.lastIndexOf(':');
        boolean bracketed = entry.startsWith("[");
        if (bracketed && colon < entry.indexOf(']')) {
            colon = -1;
        }
        String host = colon < 0 ? entry : entry.substring(0, colon);
        int port = colon < 0 ? defaultPort : number(entry.substring(colon + 1), "the port of " + which);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the port of " + which + " must be 1..65535");
        }
        if (bracketed) {
            host = host.endsWith("]") ? host.substring(1, host.length() - 1) : "";
            if (!IPV6.matcher(host).matches()) {
                throw new IllegalArgumentException(which + ": a bracketed host is an IPv6 address, as in [::1]:6379");
            }
        } else if (host.contains(":")) {
            throw new IllegalArgumentException(which + " has more than one ':' (an IPv6 host goes in brackets, as in"
                    + " [::1]:6379; a password goes before an '@', as in redis://user:password@host:6379)");
        } else if (!HOST.matcher(host).matches()) {
            throw new IllegalArgumentException(which + " is not a host name: letters, digits, '.', '-' and '_'");
        }
        return new Node(host, port);
    }

    /** {user, password}, each null when absent; a user without a password is refused. */
    private static String[] credentials(String userInfo) {
        if (userInfo == null) {
            return new String[2];
        }
        int colon = userInfo.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("credentials are user:password or :password (given: one word, masked)");
        }
        String user = decode(userInfo.substring(0, colon), "the user name");
        return new String[] {user.isEmpty() ? null : user, decode(userInfo.substring(colon + 1), "the password")};
    }

    /** {@code text} as a number; the message names {@code what}, never the text (it may be a password). */
    private static int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " is not a number");
        }
    }

    /** Percent-decodes {@code text}; a bad escape is reported by {@code what}, never by the text. */
    private static String decode(String text, String what) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " has a '%' that does not start a %XX escape");
        }
    }
}
