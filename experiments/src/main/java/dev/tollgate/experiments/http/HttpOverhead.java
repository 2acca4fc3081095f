package dev.tollgate.experiments.http;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The latency Tollgate's filter adds to a request: sequential requests over one kept-alive connection,
 * alternating between the limited {@code /demo/hello} and the identical but unlimited
 * {@code /demo/unlimited}, so both see the same server, JIT and CPU state. The limited endpoint should
 * be configured with a limit it never reaches (see experiments/bench/README.md), or 429s are measured.
 */
public final class HttpOverhead {

    static final String LIMITED = "/demo/hello";
    static final String UNLIMITED = "/demo/unlimited";

    private HttpOverhead() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, Path.of("results"));
        if (options.rest().isEmpty()) {
            System.err.println(
                    "usage: experiments/run http BASE_URL [--quick] [--out DIR]   e.g. http://localhost:9080");
            System.exit(2);
        }
        String base = options.rest().get(0).replaceAll("/+$", "");
        int warmup = options.quick() ? 200 : 3000;
        int pairs = options.quick() ? 300 : 10000;
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        int unlimitedStatus = send(client, base + UNLIMITED).statusCode();
        if (unlimitedStatus == 404) {
            System.out.println(
                    "http: PENDING - " + base + UNLIMITED + " answers 404: the demo has no unlimited twin of " + LIMITED
                            + " yet (it comes with the JAX-RS filter). Nothing measured.");
            System.exit(3);
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        long[] limited = new long[pairs];
        long[] unlimited = new long[pairs];
        for (int i = 0; i < warmup; i++) {
            send(client, base + (i % 2 == 0 ? LIMITED : UNLIMITED));
        }
        for (int i = 0; i < pairs; i++) {
            // ABBA: which endpoint goes first alternates, so neither always follows the other.
            boolean limitedFirst = i % 2 == 0;
            long a = timed(client, base + (limitedFirst ? LIMITED : UNLIMITED), statuses);
            long b = timed(client, base + (limitedFirst ? UNLIMITED : LIMITED), statuses);
            limited[i] = limitedFirst ? a : b;
            unlimited[i] = limitedFirst ? b : a;
            if ((i + 1) % Math.max(1, pairs / 10) == 0) {
                System.out.printf("http: %d/%d pairs%n", i + 1, pairs);
            }
        }
        write(options.out(), base, statuses, limited, unlimited);
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

    private static void write(Path out, String base, Map<Integer, Integer> statuses, long[] limited, long[] unlimited)
            throws Exception {
        Files.createDirectories(out);
        long[] diff = new long[limited.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = limited[i] - unlimited[i];
        }
        long[] l = Stats.sorted(limited);
        long[] u = Stats.sorted(unlimited);
        long[] d = Stats.sorted(diff);
        double added = (Stats.percentile(l, 50) - Stats.percentile(u, 50)) / 1e6;
        StringBuilder csv = new StringBuilder("pair,limited_us,unlimited_us\n");
        for (int i = 0; i < limited.length; i++) {
            csv.append(i)
                    .append(',')
                    .append(limited[i] / 1000.0)
                    .append(',')
                    .append(unlimited[i] / 1000.0)
                    .append('\n');
        }
        Files.writeString(out.resolve("http.csv"), csv);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("server", base);
        env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("jvm (driver)", System.getProperty("java.runtime.version"));
        env.put("load average at end", Environment.loadAverage());
        env.put("status codes", statuses.toString());
        String md = "# HTTP: latency the filter adds\n\n"
                + limited.length + " sequential pairs over one HTTP/1.1 connection, alternating `" + LIMITED
                + "` (limited) and `"
                + UNLIMITED + "` (same resource, no limit).\n\n"
                + "| | p50 ms | p90 ms | p99 ms |\n|---|---|---|---|\n"
                + row("limited " + LIMITED, l) + row("unlimited " + UNLIMITED, u)
                + row("paired difference", d)
                + (statuses.keySet().stream().allMatch(c -> c == 200)
                        ? ""
                        : "\n**Warning: not every answer was 200 " + statuses
                                + ": raise the limit so the limited endpoint never rejects.**\n")
                + String.format(
                        "%n**Added by the filter (difference of medians): %.3f ms**; the article reports 0.16–0.18 ms.%n",
                        added)
                + "\n## Environment\n\n" + Environment.markdown(env);
        Files.writeString(out.resolve("http.md"), md);
        System.out.printf(
                "http: added %.3f ms at the median (limited p50 %.3f ms, unlimited p50 %.3f ms), statuses %s%n",
                added, Stats.percentile(l, 50) / 1e6, Stats.percentile(u, 50) / 1e6, statuses);
        System.out.println("http: wrote http.csv and http.md to " + out);
    }

    private static String row(String name, long[] sorted) {
        return String.format(
                "| %s | %.3f | %.3f | %.3f |%n",
                name,
                Stats.percentile(sorted, 50) / 1e6,
                Stats.percentile(sorted, 90) / 1e6,
                Stats.percentile(sorted, 99) / 1e6);
    }
}
