package dev.tollgate.experiments.bench;

/**
 * One fork of one {@link Spec}.
 *
 * @param score mean µs/op for latency, ops/s for throughput
 * @param p50 median µs/op (latency only, else NaN)
 */
record BenchResult(Spec spec, int round, double score, double error, String unit, double p50, double p90, double p99) {}
