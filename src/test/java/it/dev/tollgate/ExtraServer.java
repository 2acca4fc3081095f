package it.dev.tollgate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One more Liberty server with the demo WAR, configured the way containers configure servers: system
 * properties in {@code jvm.options} and environment variables in {@code server.env} (which the server
 * script exports into the JVM's environment before it starts).
 */
final class ExtraServer implements AutoCloseable {

    static final Path WLP = Path.of("target", "liberty", "wlp");
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String name;
    private final Path messages;
    private final int httpPort;
    private String log = "";

    private ExtraServer(String name, Path messages, int httpPort) {
        this.name = name;
        this.messages = messages;
        this.httpPort = httpPort;
    }

    /** Creates (or reuses) server {@code name}, starts it, and waits until the application started or failed. */
    static ExtraServer start(String name, List<String> jvmOptions, Map<String, String> environment) throws Exception {
        Path dir = WLP.resolve("usr/servers/" + name);
        if (!Files.isDirectory(dir)) {
            run("create", name);
        }
        Files.copy(
                Path.of("src/main/liberty/config/server.xml"),
                dir.resolve("server.xml"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("apps"));
        Files.copy(
                Path.of("target/tollgate.war"), dir.resolve("apps/tollgate.war"), StandardCopyOption.REPLACE_EXISTING);
        int http = freePort();
        Files.writeString(
                dir.resolve("bootstrap.properties"), "http.port=" + http + "\nhttps.port=" + freePort() + "\n");
        Files.write(dir.resolve("jvm.options"), jvmOptions);
        Files.writeString(
                dir.resolve("server.env"),
                environment.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("\n", "", "\n")));
        Path messages = dir.resolve("logs/messages.log");
        Files.deleteIfExists(messages);
        ExtraServer server = new ExtraServer(name, messages, http);
        run("start", name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            String log = server.log();
            if (log.contains("CWWKZ0002E") || log.contains("CWWKZ0001I")) {
                return server;
            }
            Thread.sleep(200);
        }
        server.close();
        throw new AssertionError("the application neither started nor failed within 180 s:\n" + server.log());
    }

    /** The server's messages.log so far. */
    String log() throws IOException {
        log = Files.exists(messages) ? Files.readString(messages) : log;
        return log;
    }

    /** {@code http://localhost:<port>}, for the typed clients. */
    String baseUrl() {
        return "http://localhost:" + httpPort;
    }

    boolean started() throws IOException {
        return log().contains("CWWKZ0001I: Application tollgate started");
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                .timeout(Duration.ofSeconds(60));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    CompletableFuture<HttpResponse<String>> postAsync(String path) {
        HttpRequest post = HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return CLIENT.sendAsync(post, HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws Exception {
        run("stop", name);
    }

    private static void run(String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = WLP.resolve("bin/server").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("server " + String.join(" ", args) + " did not finish in 180 s");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
