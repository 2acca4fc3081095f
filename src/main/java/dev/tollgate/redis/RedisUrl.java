package dev.tollgate.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
 * A comma-separated host list is not a valid {@link URI} authority, so the cluster and Sentinel forms
 * are parsed by hand. User and password may be percent-encoded (a {@code @}, {@code ,} or {@code /} in a
 * password must be).
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

    /** Parses {@code text}; the {@link IllegalArgumentException} says what is wrong, never the password. */
    public static RedisUrl parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the URL is empty");
        }
        String s = text.trim();
        int sep = s.indexOf("://");
        String scheme = sep < 0 ? "" : s.substring(0, sep).toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "redis", "rediss" -> standalone(s, scheme.equals("rediss"));
            case "redis-cluster", "rediss-cluster" -> multi(Kind.CLUSTER, scheme.startsWith("rediss"), s, sep);
            case "redis-sentinel", "rediss-sentinel" -> multi(Kind.SENTINEL, scheme.startsWith("rediss"), s, sep);
            default -> throw new IllegalArgumentException("unknown scheme '" + scheme + "'");
        };
    }

    /** The URL with any password masked, for logs and error messages. */
    public static String mask(String url) {
        return url == null ? null : url.replaceAll("(//[^:/@,]*:)[^@]*@", "$1***@");
    }

    /** This URL as text, password masked. */
    public String safeText() {
        String scheme = (tls ? "rediss" : "redis")
                + switch (kind) {
                    case STANDALONE -> "";
                    case CLUSTER -> "-cluster";
                    case SENTINEL -> "-sentinel";
                };
        String auth = password == null ? "" : (user == null ? "" : user) + ":***@";
        String hosts = String.join(",", nodes.stream().map(Node::toString).toList());
        String path = kind == Kind.SENTINEL ? "/" + masterName : "";
        String db = database == 0 ? "" : "/" + database;
        return scheme + "://" + auth + hosts + path + db;
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return safeText();
    }

    private static RedisUrl standalone(String s, boolean tls) {
        URI uri;
        try {
            uri = new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: " + e.getReason());
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("no query or fragment is understood");
        }
        String[] auth = credentials(uri.getRawUserInfo());
        String path = uri.getPath() == null ? "" : uri.getPath();
        int db = path.isEmpty() || path.equals("/") ? 0 : number(path.substring(1), "database");
        Node node = new Node(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
        return new RedisUrl(Kind.STANDALONE, tls, List.of(node), auth[0], auth[1], db, null);
    }

    private static RedisUrl multi(Kind kind, boolean tls, String s, int sep) {
        String rest = s.substring(sep + 3);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        if (authority.contains("?") || path.contains("?") || authority.contains("#") || path.contains("#")) {
            throw new IllegalArgumentException("no query or fragment is understood");
        }
        int at = authority.lastIndexOf('@');
        String[] auth = credentials(at < 0 ? null : authority.substring(0, at));
        List<Node> nodes = nodes(authority.substring(at + 1), kind == Kind.CLUSTER ? 6379 : 26379);
        if (kind == Kind.CLUSTER) {
            if (!path.isEmpty() && !path.equals("0")) {
                throw new IllegalArgumentException("a Redis Cluster has only database 0; remove '/" + path + "'");
            }
            return new RedisUrl(kind, tls, nodes, auth[0], auth[1], 0, null);
        }
        String[] parts = path.split("/", -1);
        if (parts[0].isEmpty() || parts.length > 2) {
            throw new IllegalArgumentException("a Sentinel URL ends in /<master-name> or /<master-name>/<db>");
        }
        int db = parts.length == 2 ? number(parts[1], "database") : 0;
        return new RedisUrl(kind, tls, nodes, auth[0], auth[1], db, decode(parts[0]));
    }

    private static List<Node> nodes(String hosts, int defaultPort) {
        List<Node> nodes = new ArrayList<>();
        for (String entry : hosts.split(",", -1)) {
            nodes.add(node(entry.trim(), defaultPort));
        }
        return nodes;
    }

    private static Node node(String entry, int defaultPort) {
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("empty host in the host list");
        }
        int colon = entry.lastIndexOf(':');
        boolean bracketed = entry.startsWith("[");
        if (bracketed && colon < entry.indexOf(']')) {
            colon = -1;
        }
        String host = colon < 0 ? entry : entry.substring(0, colon);
        int port = colon < 0 ? defaultPort : number(entry.substring(colon + 1), "port of " + entry);
        if (bracketed) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("an IPv6 host goes in brackets: [" + host + "]");
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
            throw new IllegalArgumentException("credentials are user:password or :password");
        }
        String user = decode(userInfo.substring(0, colon));
        return new String[] {user.isEmpty() ? null : user, decode(userInfo.substring(colon + 1))};
    }

    private static int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " is not a number: '" + text + "'");
        }
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
