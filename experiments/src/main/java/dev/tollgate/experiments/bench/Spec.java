package dev.tollgate.experiments.bench;

import org.openjdk.jmh.annotations.Mode;

/**
 * One JMH run: a {@link RedisBench} method, its mode and thread count.
 *
 * @param latency SampleTime in microseconds (one thread) when true, else throughput in ops/s
 */
record Spec(String method, boolean latency, int threads) {

    Mode mode() {
        return latency ? Mode.SampleTime : Mode.Throughput;
    }

    String id() {
        return method + (latency ? "-latency" : "-throughput") + "-t" + threads;
    }
}
