package dev.tollgate.experiments.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command-line options shared by the experiments: {@code --quick} and {@code --out DIR}. */
public record Options(boolean quick, Path out, List<String> rest) {

    public static Options parse(String[] args, Path defaultOut) {
        boolean quick = false;
        Path out = defaultOut;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--out needs a directory");
                    }
                    out = Path.of(args[++i]);
                }
                default -> rest.add(args[i]);
            }
        }
        return new Options(quick, out, List.copyOf(rest));
    }

    /**
     * Where a run writes its per-call rows (one per request or check): {@code <out>/raw/}, which git ignores
     * under {@code experiments/results/}, so a results folder keeps only summaries, charts and aggregates.
     */
    public static Path raw(Path out) throws IOException {
        return Files.createDirectories(out.resolve("raw"));
    }
}
