package it.dev.tollgate;

import dev.tollgate.testing.Ports;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One more Liberty server, started by a test class, configured the way containers configure servers:
 * system properties in {@code jvm.options} and environment variables in {@code server.env} (which the
 * server script exports into the JVM's environment before it starts). The one place that creates,
 * starts, waits for and stops such a server: the demo WAR's ({@link #start(String, List, Map)}) or
 * another WAR with its own {@code server.xml} ({@code ConsumerIT}).
 */
final class ExtraServer implements AutoCloseable {

    static final Path WLP = Path.of("target", "liberty", "wlp");
    private static final Path DEMO_WAR = Path.of("target/tollgate.war");
    private static final Path DEMO_SERVER_XML = Path.of("src/main/liberty/config/server.xml");
    private static final Duration WAIT = Duration.ofSeconds(300);
    /**
     * A test server lives a minute: the C1 compiler alone and the serial collector start it in a fraction
     * of the CPU that C2 and G1's threads take (measured on this project's 2-core machine under a load of
     * ~16: 33 and 55 s against 47 and 103 s to the application's start), as {@code ChildJvm} does for
     * child JVMs. A test's own options come after these, so a test can still choose otherwise.
     */
    static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String name;
    private final String application;
    private final Path messages;
    private final int httpPort;
    private String log = "";

    private ExtraServer(String name, String application, Path messages, int httpPort) {
        this.name = name;
        this.application = application;
        this.messages = messages;
        this.httpPort = httpPort;
    }

    /** Server {@code name} with the demo WAR and the demo's {@code server.xml}; see {@link #start(String, Path, Path, List, Map)}. */
    static ExtraServer start(String name, List<String> jvmOptions, Map<String, String> environment) throws Exception {
        return start(name, DEMO_WAR, DEMO_SERVER_XML, jvmOptions, environment);
    }

    /**
     * Creates (or reuses) server {@code name} with {@code war} in its {@code apps/} and {@code serverXml},
     * starts it, and waits until the application (the WAR's name) started or failed.
     */
    static ExtraServer start(
            String name, Path war, Path serverXml, List<String> jvmOptions, Map<String, String> environment)
            throws Exception {
        awaitStopped(name);
        Path dir = WLP.resolve("usr/servers/" + name);
        if (!Files.isDirectory(dir)) {
            run("create", name);
        }
        Files.copy(serverXml, dir.resolve("server.xml"), StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("apps"));
        String file = war.getFileName().toString();
        Files.copy(war, dir.resolve("apps").resolve(file), StandardCopyOption.REPLACE_EXISTING);
        int http = Ports.free();
        Files.writeString(
                dir.resolve("bootstrap.properties"), "http.port=" + http + "\nhttps.port=" + Ports.free() + "\n");
        List<String> options = new ArrayList<>(FAST_START);
        options.addAll(jvmOptions);
        Files.write(dir.resolve("jvm.options"), options);
        Files.writeString(
                dir.resolve("server.env"),
                environment.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("\n", "", "\n")));
        Path messages = dir.resolve("logs/messages.log");
        Files.deleteIfExists(messages);
        ExtraServer server = new ExtraServer(name, file.substring(0, file.lastIndexOf('.')), messages, http);
        run("start", name);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            String log = server.log();
            if (log.contains("CWWKZ0002E")) {
                return server;
            }
            if (log.contains("CWWKZ0001I")) {
                LibertyServer.firstScrape(server.baseUrl());
                return server;
            }
            Thread.sleep(200);
        }
        server.close();
        throw new AssertionError(
                "the application neither started nor failed within " + WAIT.toSeconds() + " s:\n" + server.log());
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
        return log().contains("CWWKZ0001I: Application " + application + " started");
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

    /**
     * Stops the server without waiting for it: the next test class goes on while Liberty quiesces (it
     * holds only its own free ports). A later start of the same server, and the test JVM's exit, wait
     * for the stop to finish, so no server outlives the run.
     */
    @Override
    public void close() throws Exception {
        synchronized (STOPPING) {
            STOPPING.put(name, launch("stop", name));
        }
    }

    /** The servers still stopping, by name; a shutdown hook waits for every one of them. */
    private static final Map<String, Process> STOPPING = new HashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (STOPPING) {
                STOPPING.values().forEach(ExtraServer::awaitStopped);
            }
        }));
    }

    private static void awaitStopped(Process p) {
        try {
            if (!p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitStopped(String name) {
        Process p;
        synchronized (STOPPING) {
            p = STOPPING.remove(name);
        }
        if (p != null) {
            awaitStopped(p);
        }
    }

    private static Process launch(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = WLP.resolve("bin/server").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void run(String... args) throws IOException, InterruptedException {
        Process p = launch(args);
        if (!p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("server " + String.join(" ", args) + " did not finish in " + WAIT.toSeconds() + " s");
        }
    }
}
