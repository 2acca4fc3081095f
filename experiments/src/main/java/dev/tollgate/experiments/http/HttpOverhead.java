package dev.tollgate.experiments.http;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
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

/**
 * The latency Tollgate's filter adds to a request: sequential requests over one kept-alive connection,
 * alternating between the limited {@code /demo/hello} and the identical but unlimited
 * {@code /demo/unlimited}, so both see the same server, JIT and CPU state. Three runs, like the
 * article's figure. The limited endpoint should have a limit it never reaches (see
 * experiments/bench/README.md), or rejections are measured.
 */
public final class HttpOverhead {

    static final String LIMITED = "/demo/hello";
    static final String UNLIMITED = "/demo/unlimited";

    /** One run: per pair, the latency of each endpoint in ns. */
    record Run(long[] limited, long[] unlimited, Map<Integer, Integer> statuses) {

        double p50(boolean ofLimited) {
            return Stats.percentile(Stats.sorted(ofLimited ? limited : unlimited), 50) / 1e6;
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
                    "usage: experiments/run http BASE_URL [--quick] [--out DIR]   e.g. http://localhost:9080");
            System.exit(2);
        }
        String base = options.rest().get(0).replaceAll("/+$", "");
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
        List<Run> results = new ArrayList<>();
        for (int r = 1; r <= runs; r++) {
            Run run = run(client, base, warmup, pairs, r, runs);
            results.add(run);
            System.out.printf(
                    "http: run %d: added %.3f ms at the median (limited p50 %.3f ms, unlimited p50 %.3f ms), statuses %s%n",
                    r, run.added(), run.p50(true), run.p50(false), run.statuses());
        }
        env.put("load average at end", Environment.loadAverage());
        HttpReport.write(options.out(), env, warmup, results);
        System.out.println("http: wrote http.csv and http.md to " + options.out());
    }

    private static Run run(HttpClient client, String base, int warmup, int pairs, int r, int runs) throws Exception {
        for (int i = 0; i < warmup; i++) {
            send(client, base + (i % 2 == 0 ? LIMITED : UNLIMITED));
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        long[] limited = new long[pairs];
        long[] unlimited = new long[pairs];
        for (int i = 0; i < pairs; i++) {
            // Which endpoint goes first alternates, so neither always follows the other.
            boolean limitedFirst = i % 2 == 0;
            long a = timed(client, base + (limitedFirst ? LIMITED : UNLIMITED), statuses);
            long b = timed(client, base + (limitedFirst ? UNLIMITED : LIMITED), statuses);
            limited[i] = limitedFirst ? a : b;
            unlimited[i] = limitedFirst ? b : a;
            if ((i + 1) % Math.max(1, pairs / 5) == 0) {
                System.out.printf("http: run %d/%d, %d/%d pairs%n", r, runs, i + 1, pairs);
            }
        }
        return new Run(limited, unlimited, statuses);
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
