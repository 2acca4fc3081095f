package dev.tollgate.experiments.http;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.LuaScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The latency Tollgate's filter adds to a request: sequential requests over one kept-alive connection,
 * alternating between the limited {@code /demo/hello} and the identical but unlimited
 * {@code /demo/unlimited}, so both see the same server, JIT and CPU state. Three runs, like the
 * article's figure. The limited endpoint should have a limit it never reaches (see
 * experiments/bench/README.md), or rejections are measured.
 *
 * <p>With {@code --in-process URL} (a second server of the same WAR without Redis) its two endpoints
 * join the rotation, and with {@code --redis URL} a raw {@code EVALSHA} of {@code token-bucket.lua}
 * from this driver does too, between the requests: so one run gives (added with Redis − added in
 * process) beside the raw round trip it should cost, measured in the same conditions (each call an
 * isolated round trip after an HTTP request, as the server's own is).
 */
public final class HttpOverhead {

    static final String LIMITED = "/demo/hello";
    static final String UNLIMITED = "/demo/unlimited";

    /**
     * One run: per round, the latency of each endpoint in ns; {@code inLimited}, {@code inUnlimited} (the
     * in-process server) and {@code raw} (the driver's own {@code EVALSHA}) are empty when not asked for.
     */
    record Run(
            long[] limited,
            long[] unlimited,
            long[] inLimited,
            long[] inUnlimited,
            long[] raw,
            Map<Integer, Integer> statuses) {

        double p50(boolean ofLimited) {
            return p50(ofLimited ? limited : unlimited);
        }

        static double p50(long[] ns) {
            return ns.length == 0 ? Double.NaN : Stats.percentile(Stats.sorted(ns), 50) / 1e6;
        }

        /** What the in-process server's filter adds, ms (NaN without one). */
        double addedInProcess() {
            return p50(inLimited) - p50(inUnlimited);
        }

        /** (added with Redis − added in process) / the raw EVALSHA p50 (NaN without both). */
        double ratioToRaw() {
            return (added() - addedInProcess()) / p50(raw);
        }

        /** Difference of the medians, in ms. */
        double added() {
            return p50(true) - p50(false);
        }

        double medianPairedDifference() {
            long[] d = new long[limited.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = limited[i] - unlimited[i];
            }
            return Stats.percentile(Stats.sorted(d), 50) / 1e6;
        }
    }

    private HttpOverhead() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, Path.of("results"));
        if (options.rest().isEmpty()) {
            System.err.println(
                    "usage: experiments/run http BASE_URL [--in-process URL] [--redis URL] [--quick] [--out DIR]"
                            + "   e.g. http://localhost:9080 --in-process http://localhost:9081 --redis redis://127.0.0.1:6379");
            System.exit(2);
        }
        String base = options.rest().get(0).replaceAll("/+$", "");
        String inProcess = after(options.rest(), "--in-process");
        String redisUrl = after(options.rest(), "--redis");
        int runs = options.quick() ? 1 : 3;
        int warmup = options.quick() ? 200 : 3000;
        int pairs = options.quick() ? 300 : 10000;
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        if (send(client, base + UNLIMITED).statusCode() == 404) {
            System.out.println(
                    "http: PENDING - " + base + UNLIMITED + " answers 404: the demo has no unlimited twin of " + LIMITED
                            + " yet (it comes with the JAX-RS filter). Nothing measured.");
            System.exit(3);
        }
        String limitHeader =
                send(client, base + LIMITED).headers().firstValue("RateLimit").orElse(null);
        if (limitHeader == null) {
            System.out.println("http: warning - " + LIMITED + " has no RateLimit header: is the filter on?");
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("server", base);
        env.put("RateLimit header of " + LIMITED, limitHeader == null ? "none" : limitHeader);
        env.put("cpu", Environment.cpuModel());
        env.put("cores", Long.toString(Environment.cores()));
        env.put("jvm (driver)", System.getProperty("java.runtime.version"));
        env.put("load average at start", Environment.loadAverage());
        if (inProcess != null) {
            env.put("in-process server", inProcess);
        }
        if (redisUrl != null) {
            env.put("raw EVALSHA from the driver", redisUrl);
        }
        List<Run> results = new ArrayList<>();
        try (RawEvalsha raw = redisUrl == null ? null : new RawEvalsha(redisUrl)) {
            Rotation rotation =
                    new Rotation(client, base, inProcess == null ? null : inProcess.replaceAll("/+$", ""), raw);
            for (int r = 1; r <= runs; r++) {
                Run run = rotation.run(warmup, pairs, r, runs);
                results.add(run);
                System.out.printf(
                        "http: run %d: added %.3f ms at the median (limited p50 %.3f ms, unlimited p50 %.3f ms),"
                                + " in process %.3f ms, raw EVALSHA p50 %.3f ms, (Redis - in process) / raw %.2fx,"
                                + " statuses %s%n",
                        r,
                        run.added(),
                        run.p50(true),
                        run.p50(false),
                        run.addedInProcess(),
                        Run.p50(run.raw()),
                        run.ratioToRaw(),
                        run.statuses());
            }
        }
        env.put("load average at end", Environment.loadAverage());
        HttpReport.write(options.out(), env, warmup, results);
        System.out.println("http: wrote http.csv and http.md to " + options.out());
    }

    /** The value after {@code flag} in {@code args}, or null. */
    private static String after(List<String> args, String flag) {
        int i = args.indexOf(flag);
        if (i >= 0 && i + 1 >= args.size()) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return i < 0 ? null : args.get(i + 1);
    }

    /** The endpoints (and the raw EVALSHA) one round times, in an order that rotates round by round. */
    private record Rotation(HttpClient client, String base, String inProcess, RawEvalsha raw) {

        Run run(int warmup, int rounds, int r, int runs) throws Exception {
            List<String> urls = new ArrayList<>(List.of(base + LIMITED, base + UNLIMITED));
            if (inProcess != null) {
                urls.addAll(List.of(inProcess + LIMITED, inProcess + UNLIMITED));
            }
            int slots = urls.size() + (raw == null ? 0 : 1);
            for (int i = 0; i < warmup; i++) {
                for (int k = 0; k < slots; k++) {
                    time(urls, k, new TreeMap<>());
                }
            }
            Map<Integer, Integer> statuses = new TreeMap<>();
            long[][] ns = new long[slots][rounds];
            for (int i = 0; i < rounds; i++) {
                // Who goes first rotates, so no endpoint always follows the same one.
                for (int j = 0; j < slots; j++) {
                    int k = (i + j) % slots;
                    ns[k][i] = time(urls, k, statuses);
                }
                if ((i + 1) % Math.max(1, rounds / 5) == 0) {
                    System.out.printf("http: run %d/%d, %d/%d rounds%n", r, runs, i + 1, rounds);
                }
            }
            long[] none = new long[0];
            return new Run(
                    ns[0],
                    ns[1],
                    inProcess == null ? none : ns[2],
                    inProcess == null ? none : ns[3],
                    raw == null ? none : ns[slots - 1],
                    statuses);
        }

        private long time(List<String> urls, int k, Map<Integer, Integer> statuses) throws Exception {
            return k < urls.size() ? timed(client, urls.get(k), statuses) : raw.timed();
        }
    }

    /**
     * {@code EVALSHA} of {@code token-bucket.lua} on one connection, with the demo limit's arguments, on the
     * keys a decision sends (the bucket and its operator rules).
     */
    private static final class RawEvalsha implements AutoCloseable {
        private static final LuaScript SCRIPT = RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET);
        private static final List<String> KEYS =
                RedisRateLimitStore.keys(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "http-raw", "driver"));
        private static final List<String> ARGS = List.of("999999999", "999999999", "1000000", "1");
        private final Jedis jedis;

        RawEvalsha(String url) {
            URI uri = URI.create(url);
            jedis = new Jedis(
                    new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort()),
                    DefaultJedisClientConfig.builder().timeoutMillis(5000).build());
            jedis.scriptLoad(SCRIPT.source());
        }

        long timed() {
            long t0 = System.nanoTime();
            jedis.evalsha(SCRIPT.sha1(), KEYS, ARGS);
            return System.nanoTime() - t0;
        }

        @Override
        public void close() {
            jedis.close();
        }
    }

    private static HttpResponse<String> send(HttpClient client, String url) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        return client.send(req, HttpResponse.BodyHandlers.ofString());
    }

    private static long timed(HttpClient client, String url, Map<Integer, Integer> statuses) throws Exception {
        long t0 = System.nanoTime();
        int status = send(client, url).statusCode();
        long t = System.nanoTime() - t0;
        statuses.merge(status, 1, Integer::sum);
        return t;
    }
}
