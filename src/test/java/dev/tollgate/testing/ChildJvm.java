package dev.tollgate.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A class's {@code main} in its own JVM, as a separate machine would run it: lines in, lines out, signals. */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final PrintWriter in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path log;
    private final Thread reader;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        reader = new Thread(this::pump, "child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** How a child run to its end ended: its exit code, every line it printed, and its stderr. */
    public record Finished(int exitCode, List<String> lines, String stderr) {}

    /** Runs {@code main} to its end, failing when it takes over {@code timeout}. */
    public static Finished run(List<String> jvmOptions, Class<?> main, Duration timeout, String... args)
            throws IOException, InterruptedException {
        try (ChildJvm child = start(jvmOptions, main, args)) {
            child.in.close();
            int exitCode = child.waitFor(timeout);
            child.reader.join(timeout.toMillis());
            return new Finished(exitCode, List.copyOf(child.lines), Files.readString(child.log));
        }
    }

    /** Starts {@code main} with {@code args} on the test class path; its stderr goes to a temporary file. */
    public static ChildJvm start(Class<?> main, String... args) throws IOException {
        return start(List.of(), main, args);
    }

    /** As {@link #start(Class, String...)}, with {@code jvmOptions} ({@code -Dname=value}, ...) before the class. */
    public static ChildJvm start(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(
                List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        // A child lives seconds: the C1 compiler alone and the serial collector start it in a fraction of the
        // CPU that C2 and G1's threads take, which on a loaded 2-core machine is most of a child's start.
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                main.getName()));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile("tollgate-child-", ".log");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        return new ChildJvm(p, log);
    }

    public long pid() {
        return process.pid();
    }

    public void send(String line) {
        in.println(line);
    }

    /** Forgets the lines printed so far, so that the next one read is printed from now on. */
    public void drain() {
        lines.clear();
    }

    /** The next line the child prints; fails after {@code timeout}, showing the child's stderr. */
    public String nextLine(Duration timeout) throws InterruptedException, IOException {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError(
                    "child " + pid() + " printed nothing within " + timeout + "; stderr:\n" + Files.readString(log));
        }
        return line;
    }

    /** Sends {@code kill -<name>} (STOP, CONT) to the child. */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + pid() + " failed");
        }
    }

    /** SIGKILL, and waits until the child is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child " + pid() + " did not exit within " + timeout);
        }
        return process.exitValue();
    }

    private void pump() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException ended) {
            // The child is gone; nextLine reports the silence.
        }
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroyForcibly(); // SIGKILL ends a stopped process too
        }
        Files.deleteIfExists(log);
    }
}
