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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The latency Tollgate's filter adds to a request: sequential requests over one kept-alive connection
 * per server, alternating request by request (in a new random order every round) between the limited {@code /demo/hello}, the identical but
 * unlimited {@code /demo/unlimited}, the same greeting limited by hand ({@code /demo/by-hand}: one Jedis
 * {@code EVALSHA} of Tollgate's script in the resource method, what a user would write instead; in the
 * rotation when the server has it on) and {@code /demo/hello-leased} (the leased limit {@code demo-leased}),
 * all four methods of one resource class, so all see the same server,
 * JIT and CPU state. Three runs, like the article's figure. The limits should be ones never reached (see
 * experiments/bench/README.md), or rejections are measured.
 *
 * <p>With {@code --in-process URL} (a second server of the same WAR without Redis) its limited and
 * unlimited endpoints join the rotation, and with {@code --redis URL} a raw {@code EVALSHA} of {@code
 * token-bucket.lua} from this driver does too, between the requests.
 */
public final class HttpOverhead {

    static final String LIMITED = "/demo/hello";
    static final String UNLIMITED = "/demo/unlimited";
    static final String BY_HAND = "/demo/by-hand";
    static final String LEASED = "/demo/hello-leased";

    /** What one round times, in the CSV's column order. */
    enum Series {
        LIMITED("limited"),
        UNLIMITED("unlimited"),
        BY_HAND("by_hand"),
        LEASED("leased"),
        IN_LIMITED("in_process_limited"),
        IN_UNLIMITED("in_process_unlimited"),
        RAW("raw_evalsha");

        final String column;

        Series(String column) {
            this.column = column;
        }
    }

    /** One run: per round, the latency of each series timed, in ns; a series not timed is absent. */
    record Run(Map<Series, long[]> ns, Map<String, Map<Integer, Integer>> statuses) {

        long[] of(Series s) {
            return ns.getOrDefault(s, new long[0]);
        }

        /** p50 of {@code s} in ms (NaN when not timed). */
        double p50(Series s) {
            return p50(of(s));
        }

        static double p50(long[] ns) {
            return ns.length == 0 ? Double.NaN : Stats.percentile(Stats.sorted(ns), 50) / 1e6;
        }

        double p99(Series s) {
            long[] v = of(s);
            return v.length == 0 ? Double.NaN : Stats.percentile(Stats.sorted(v), 99) / 1e6;
        }

        /** What the filter adds on the Redis-backed server: difference of the medians, ms. */
        double added() {
            return p50(Series.LIMITED) - p50(Series.UNLIMITED);
        }

        /** What the hand-written EVALSHA adds, ms. */
        double addedByHand() {
            return p50(Series.BY_HAND) - p50(Series.UNLIMITED);
        }

        /** What the leased limit adds, ms. */
        double addedLeased() {
            return p50(Series.LEASED) - p50(Series.UNLIMITED);
        }

        /** What the in-process server's filter adds, ms (NaN without one). */
        double addedInProcess() {
            return p50(Series.IN_LIMITED) - p50(Series.IN_UNLIMITED);
        }

        /** {@link #addedInProcess()} in µs, the unit of its goal (≤ 10 µs). */
        double addedInProcessMicros() {
            return addedInProcess() * 1000;
        }

        /** Tollgate's added p50 ÷ the hand-written call's (issue 24: ≤ 1.10). */
        double ratioToByHand() {
            return added() / addedByHand();
        }

        /** The leased limit's added p50 ÷ the hand-written call's (issue 24: below 1). */
        double leasedToByHand() {
            return addedLeased() / addedByHand();
        }

        /** (added with Redis − added in process) / the raw EVALSHA p50 (NaN without both). */
        double ratioToRaw() {
            return (added() - addedInProcess()) / p50(Series.RAW);
        }

        double medianPairedDifference() {
            long[] limited = of(Series.LIMITED);
            long[] unlimited = of(Series.UNLIMITED);
            long[] d = new long[limited.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = limited[i] - unlimited[i];
            }
            return Stats.percentile(Stats.sorted(d), 50) / 1e6;
        }

        boolean allOk() {
            return statuses.values().stream().allMatch(m -> m.keySet().stream().allMatch(c -> c == 200));
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
        // Before the first run, until the code of the driver (a new JVM each time) and of the servers is
        // compiled: with 3,000 rounds alone the first run read every figure high (in process 60-64 us
        // against 15-18 in the next two, at ff02f0e).
        int firstWarmup = options.quick() ? 200 : 15000;
        int rounds = options.quick() ? 300 : 10000;
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
        Map<Series, String> urls = new LinkedHashMap<>();
        urls.put(Series.LIMITED, base + LIMITED);
        urls.put(Series.UNLIMITED, base + UNLIMITED);
        int byHand = send(client, base + BY_HAND).statusCode();
        if (byHand == 404) {
            System.out.println("http: note - " + base + BY_HAND
                    + " answers 404 (off: start the server with -Ddemo.by-hand.enabled=true): not timed");
        } else {
            urls.put(Series.BY_HAND, base + BY_HAND);
        }
        urls.put(Series.LEASED, base + LEASED);
        String leasedHeader = send(client, base + LEASED)
                .headers()
                .firstValue("RateLimit-Policy")
                .orElse("none");
        if (inProcess != null) {
            String in = inProcess.replaceAll("/+$", "");
            urls.put(Series.IN_LIMITED, in + LIMITED);
            urls.put(Series.IN_UNLIMITED, in + UNLIMITED);
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("server", base);
        env.put("RateLimit header of " + LIMITED, limitHeader == null ? "none" : limitHeader);
        env.put("RateLimit-Policy of " + LEASED, leasedHeader);
        env.put(BY_HAND, urls.containsKey(Series.BY_HAND) ? "on" : "off (404): not timed");
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
            Rotation rotation = new Rotation(client, urls, raw);
            for (int r = 1; r <= runs; r++) {
                Run run = rotation.run(r == 1 ? firstWarmup : warmup, rounds, r, runs);
                results.add(run);
                System.out.printf(
                        "http: run %d: added %.3f ms (limited p50 %.3f, unlimited p50 %.3f), by hand %.3f ms,"
                                + " Tollgate / by hand %.2fx, leased %.3f ms (%.2fx by hand), in process %.1f us,"
                                + " raw EVALSHA p50 %.3f ms, statuses %s%n",
                        r,
                        run.added(),
                        run.p50(Series.LIMITED),
                        run.p50(Series.UNLIMITED),
                        run.addedByHand(),
                        run.ratioToByHand(),
                        run.addedLeased(),
                        run.leasedToByHand(),
                        run.addedInProcessMicros(),
                        run.p50(Series.RAW),
                        run.statuses());
            }
        }
        env.put("load average at end", Environment.loadAverage());
        HttpReport.write(options.out(), env, firstWarmup, warmup, results);
        System.out.println("http: wrote raw/http.csv and http.md to " + options.out());
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
    private record Rotation(HttpClient client, Map<Series, String> urls, RawEvalsha raw) {

        Run run(int warmup, int rounds, int r, int runs) throws Exception {
            List<Series> slots = new ArrayList<>(urls.keySet());
            if (raw != null) {
                slots.add(Series.RAW);
            }
            Map<String, Map<Integer, Integer>> statuses = new TreeMap<>();
            for (int i = 0; i < warmup; i++) {
                for (Series s : slots) {
                    time(s, new TreeMap<>());
                }
            }
            long[][] ns = new long[slots.size()][rounds];
            List<Integer> order = new ArrayList<>();
            for (int k = 0; k < slots.size(); k++) {
                order.add(k);
            }
            Random shuffle = new Random(r);
            for (int i = 0; i < rounds; i++) {
                // A new order every round, so that every series follows every other as often: a request
                // that follows one to the other server (or the driver's EVALSHA) finds colder caches, and
                // a fixed cycle (the first of a round rotating) gave that penalty to the same series always.
                Collections.shuffle(order, shuffle);
                for (int k : order) {
                    Series s = slots.get(k);
                    ns[k][i] = s == Series.RAW
                            ? raw.timed()
                            : time(s, statuses.computeIfAbsent(s.column, c -> new TreeMap<>()));
                }
                if ((i + 1) % Math.max(1, rounds / 5) == 0) {
                    System.out.printf("http: run %d/%d, %d/%d rounds%n", r, runs, i + 1, rounds);
                }
            }
            Map<Series, long[]> out = new LinkedHashMap<>();
            for (int k = 0; k < slots.size(); k++) {
                out.put(slots.get(k), ns[k]);
            }
            return new Run(out, statuses);
        }

        private long time(Series s, Map<Integer, Integer> statuses) throws Exception {
            return s == Series.RAW ? raw.timed() : timed(client, urls.get(s), statuses);
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
