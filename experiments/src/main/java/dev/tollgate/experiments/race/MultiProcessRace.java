package dev.tollgate.experiments.race;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Several JVMs on one bucket: each is a {@link RaceChild} on this JVM's class path, started together. */
final class MultiProcessRace {

    private MultiProcessRace() {}

    static int run(Config config, Impl impl, int port, String key, long capacity, int checks)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> children = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        try {
            for (int i = 0; i < config.processes(); i++) {
                int share = checks / config.processes() + (i < checks % config.processes() ? 1 : 0);
                Process p = new ProcessBuilder(
                                java,
                                "-Xmx128m",
                                "-XX:+UseSerialGC",
                                "-cp",
                                System.getProperty("java.class.path"),
                                RaceChild.class.getName(),
                                impl.name(),
                                config.variant().name(),
                                Integer.toString(port),
                                key,
                                Long.toString(capacity),
                                Integer.toString(config.inFlight()),
                                Integer.toString(share))
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                children.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader out : outs) {
                expect(out, "READY");
            }
            // Every child is connected and warm: release them together.
            for (Process p : children) {
                Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
                w.write("GO\n");
                w.flush();
            }
            int admitted = 0;
            for (BufferedReader out : outs) {
                admitted += Integer.parseInt(expect(out, "ADMITTED ").substring("ADMITTED ".length()));
            }
            for (Process p : children) {
                if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IOException("race child " + p.pid() + " did not exit cleanly");
                }
            }
            return admitted;
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    private static String expect(BufferedReader out, String prefix) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException("race child said '" + line + "', expected " + prefix.trim());
        }
        return line;
    }
}
