package dev.tollgate.experiments.common;

import java.util.Arrays;
import java.util.Collection;

/** Order statistics of a small sample. */
public final class Stats {

    private Stats() {}

    public static double median(Collection<? extends Number> values) {
        return percentile(values, 50);
    }

    /** Nearest-rank percentile for p in (0,100); the median of an even sample is the mean of the middle two. */
    public static double percentile(Collection<? extends Number> values, double p) {
        double[] v = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        if (p == 50 && v.length % 2 == 0) {
            return (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
        int rank = (int) Math.ceil(p / 100 * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    public static double min(Collection<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).min().orElse(Double.NaN);
    }

    public static double max(Collection<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).max().orElse(Double.NaN);
    }

    public static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static long[] sorted(long[] values) {
        long[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }
}
