package dev.tollgate.experiments.bench;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Each benchmark's method called once, outside JMH, on the state JMH would give it: what a JMH run
 * proves besides its timings (the method exists, its state is set up, it answers), in a second.
 */
final class BenchSmoke {

    /** One spec's call: its method and what it returned ({@code PONG}, or whether the check admitted). */
    record Row(Spec spec, String answer) {}

    private BenchSmoke() {}

    static List<Row> run(List<Spec> specs) throws Exception {
        RedisBench bench = new RedisBench();
        bench.start();
        try {
            RedisBench.Keys keys = new RedisBench.Keys();
            keys.keys(bench, 0);
            List<Row> rows = new ArrayList<>();
            for (Spec spec : specs) {
                rows.add(new Row(spec, String.valueOf(call(bench, keys, spec.method()))));
            }
            return rows;
        } finally {
            bench.stop();
        }
    }

    private static Object call(RedisBench bench, RedisBench.Keys keys, String method) throws Exception {
        for (Method m : RedisBench.class.getMethods()) {
            if (m.getName().equals(method) && m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) {
                return m.getParameterCount() == 0 ? m.invoke(bench) : m.invoke(bench, keys);
            }
        }
        throw new IllegalStateException("RedisBench has no @Benchmark method " + method);
    }

    /** bench-smoke.csv: benchmark,mode,threads,answer. */
    static void write(Path out, List<Row> rows) throws IOException {
        StringBuilder csv = new StringBuilder("benchmark,mode,threads,answer\n");
        for (Row r : rows) {
            csv.append(String.format(
                    "%s,%s,%d,%s%n",
                    r.spec().method(),
                    r.spec().latency() ? "latency" : "throughput",
                    r.spec().threads(),
                    r.answer()));
        }
        Files.writeString(out.resolve("bench-smoke.csv"), csv);
    }
}
