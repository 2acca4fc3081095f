package dev.tollgate.experiments.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a result was measured on: recorded beside every result, since the numbers mean nothing without it. */
public final class Environment {

    private Environment() {}

    public static Map<String, String> describe(LocalRedis redis) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        env.put("redis", redis.version() + " (private redis-server on 127.0.0.1, --save '' --appendonly no)");
        env.put("cpu", cpuModel());
        env.put("cores", cores() + " (this JVM may run on CPUs " + allowedCpus() + ")");
        env.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        env.put("load average at start", loadAverage());
        return env;
    }

    /** The CPUs this process may run on, from {@code /proc/self/status}. */
    public static String allowedCpus() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2] + " (1, 5, 15 min)";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    public static long cores() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("processor"))
                    .count();
        } catch (IOException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    public static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The environment as a Markdown bullet list. */
    public static String markdown(Map<String, String> env) {
        StringBuilder sb = new StringBuilder();
        env.forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }
}
