package dev.tollgate.experiments.race;

/**
 * One row of the race table.
 *
 * @param id short name, used in the CSV and the chart
 * @param label what the row means, for the Markdown table
 * @param variant how the in-flight checks reach Redis
 * @param inFlight checks in flight at once in each process
 * @param processes separate JVMs sharing the bucket (1: this JVM)
 */
record Config(String id, String label, Variant variant, int inFlight, int processes) {

    /** Two short lines for the chart's axis. */
    String chartLabel() {
        if (inFlight == 1 && processes == 1) {
            return "1 at a time";
        }
        String how = variant == Variant.POOL ? "pool" : "1 conn";
        return (processes > 1 ? processes + " JVMs, " : "") + how + " ×" + inFlight;
    }

    static Config inProcess(Variant variant, int inFlight, String label) {
        return new Config(variant.id + "x" + inFlight, label, variant, inFlight, 1);
    }

    static Config processes(Variant variant, int processes, int inFlight, String label) {
        return new Config(processes + "jvm-" + variant.id + "x" + inFlight, label, variant, inFlight, processes);
    }
}
