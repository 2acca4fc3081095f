package dev.tollgate.experiments;

import dev.tollgate.experiments.bench.BenchExperiment;
import dev.tollgate.experiments.http.HttpOverhead;
import dev.tollgate.experiments.outage.OutageExperiment;
import dev.tollgate.experiments.race.RaceExperiment;
import java.util.Arrays;

/** {@code java -jar experiments.jar race|bench|http|outage [options]}; use {@code experiments/run}, which builds first. */
public final class Main {

    private Main() {}

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "race" -> RaceExperiment.main(rest);
            case "bench" -> BenchExperiment.main(rest);
            case "http" -> HttpOverhead.main(rest);
            case "outage" -> OutageExperiment.main(rest);
            case "outage-servers" -> dev.tollgate.experiments.outage.LearnedShareOutage.main(rest);
            case "overload" -> dev.tollgate.experiments.overload.OverloadExperiment.main(rest);
            case "lease" -> dev.tollgate.experiments.lease.LeaseExperiment.main(rest);
            case "local" -> dev.tollgate.experiments.local.LocalExperiment.main(rest);
            default -> {
                System.err.println("usage: experiments/run race|bench|outage|overload [--quick] [--out DIR]");
                System.err.println("       experiments/run http BASE_URL [--quick] [--out DIR]");
                System.exit(2);
            }
        }
    }
}
