package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds the experiments in {@code experiments/} (their own Maven project) once, runs the quick mode of
 * the race and the outage and the bench's checks without JMH ({@code --no-jmh}: every benchmark method
 * answers, and each check's round trips) so the harnesses cannot rot, and checks what they measured.
 * The JMH run itself is timing only, and stays out of {@code mvn verify} ({@code experiments/run bench
 * --quick}). Outputs go to {@code experiments/target/quick-it/}, never to the committed
 * {@code experiments/results/}.
 */
@Alone
class ExperimentsQuickIT {

    private static final Path EXPERIMENTS = Path.of("experiments").toAbsolutePath();
    private static final Path OUT = EXPERIMENTS.resolve("target/quick-it");
    /** The race's nine configurations (RaceExperiment.CONFIGS), by id. */
    private static final List<String> RACE_CONFIGS = List.of(
            "poolx1", "1connx2", "1connx8", "1connx32", "poolx2", "poolx8", "poolx32", "4jvm-1connx8", "4jvm-poolx8");

    /** The outage's phases in their order (Phase in experiments/): the article's six, then issue 11's faults. */
    private static final List<String> OUTAGE_PHASES = List.of(
            "healthy",
            "dead",
            "restarted",
            "hung-breaker-off",
            "hung-breaker-on",
            "resumed",
            "paused-write",
            "unpaused",
            "link-healthy",
            "link-frozen",
            "link-thawed",
            "link-slow",
            "link-fast");

    private static final List<String> ARTICLE_PHASES = OUTAGE_PHASES.subList(0, 6);
    /** The faults that hang a check while the breaker is on: exactly the threshold's 3 checks wait. */
    private static final List<String> HANGS = List.of("hung-breaker-on", "paused-write", "link-frozen", "link-slow");
    /** The phases that end a fault: the guard closes without a check, then Redis decides every check. */
    private static final List<String> RECOVERIES =
            List.of("restarted", "resumed", "unpaused", "link-thawed", "link-fast");

    /** The one build of the harness; every run below passes {@code --no-build}. */
    @BeforeAll
    static void buildTheExperimentsOnce() throws IOException, InterruptedException {
        Files.createDirectories(OUT);
        exec(
                List.of(
                        "mvn",
                        "-q",
                        "-B",
                        "-f",
                        EXPERIMENTS.resolve("pom.xml").toString(),
                        "-Dstyle.color=never",
                        "package"),
                OUT.resolve("build.log"),
                "building the experiments (mvn -q package)");
    }

    @Test
    void raceQuickModeShowsTheNaiveRaceAndAnExactScript() throws Exception {
        Path out = OUT.resolve("race");
        run("race", out);
        List<String[]> rows = csv(out.resolve("race.csv"));
        // check,config,variant,in_flight_per_process,processes,trial,admitted: quick mode's 2 trials of the 9
        // configurations for each of the 2 checks, every one of them (a missing lua row fails).
        Map<String, Integer> perCheckAndConfig = new TreeMap<>();
        for (String[] r : rows) {
            perCheckAndConfig.merge(r[0] + "," + r[1], 1, Integer::sum);
        }
        Map<String, Integer> expected = new TreeMap<>();
        for (String check : List.of("lua", "naive")) {
            for (String config : RACE_CONFIGS) {
                expected.put(check + "," + config, 2);
            }
        }
        assertEquals(expected, perCheckAndConfig, "two trials per check and configuration");
        assertEquals(36, rows.size());
        for (String[] r : rows) {
            // check,config,variant,in_flight_per_process,processes,trial,admitted
            if (r[0].equals("lua")) {
                assertEquals(
                        100, Integer.parseInt(r[6]), "the script admits exactly the capacity: " + String.join(",", r));
            }
            if (r[0].equals("naive") && r[1].equals("poolx1")) {
                assertEquals(100, Integer.parseInt(r[6]), "naive one at a time is correct");
            }
            if (r[0].equals("naive") && r[1].equals("1connx2")) {
                // Read, read, write, write on one connection: two checks spend one token, every time.
                assertEquals(200, Integer.parseInt(r[6]), "naive, 2 in flight on one connection");
            }
            if (r[0].equals("naive") && r[1].equals("4jvm-poolx8")) {
                assertTrue(Integer.parseInt(r[6]) > 100, "naive over-admits with 4 JVMs: " + r[6]);
            }
        }
        List<String> monitor = Files.readAllLines(out.resolve("race-monitor.txt"));
        int first = monitor.indexOf(
                monitor.stream().filter(l -> l.contains("\"wire\"")).findFirst().orElseThrow());
        List<String> order = new ArrayList<>();
        for (String l : monitor.subList(first, first + 4)) {
            order.add(l.contains("\"HMGET\"") ? "read" : l.contains("\"HSET\"") ? "write" : l);
        }
        assertEquals(List.of("read", "read", "write", "write"), order, String.join("\n", monitor));
    }

    @Test
    void benchChecksAnswerAndCountRoundTrips() throws Exception {
        Path out = OUT.resolve("bench");
        // Times nothing (answers and command counts): a longer budget, so a loaded CI machine holding one
        // check past the default 250 ms cannot fail it with a degraded decision.
        run("bench", out, "--no-jmh", "--budget", "2s");
        List<String[]> smoke = csv(out.resolve("bench-smoke.csv"));
        assertEquals(21, smoke.size(), "every benchmark's method called once");
        for (String[] r : smoke) {
            // benchmark,mode,threads,answer: PING's reply, or a check that admitted (a fresh bucket)
            assertEquals(r[0].equals("ping") ? "PONG" : "true", r[3], "answered: " + String.join(",", r));
        }
        List<String[]> counts = csv(out.resolve("bench-commands.csv"));
        // check,keys,threads,checks,round_trips_per_check,...
        assertEquals(1.0, roundTrips(counts, "Tollgate", "spread"), 1e-9, "one EVALSHA per check");
        assertEquals(1.0, roundTrips(counts, "Tollgate", "one hot key"), 1e-9, "one EVALSHA per check, contended");
        assertEquals(1.0, roundTrips(counts, "guarded", "spread"), 1e-9, "the guard adds no round trip");
        assertEquals(2.0, roundTrips(counts, "naive", "spread"), 1e-9, "HMGET and HSET");
        assertTrue(roundTrips(counts, "Bucket4j", "spread") >= 2.0, "compare-and-swap needs a read and a write");
    }

    @Test
    void outageQuickModeShowsTheBreakerSparingChecksFromAHungRedis() throws Exception {
        Path out = OUT.resolve("outage");
        run("outage", out);
        double budgetUs = 250_000;
        List<String[]> checks = csv(out.resolve("raw/outage.csv"));
        // phase,index,latency_us,outcome,degraded,breaker_open_after,cause
        assertEquals(OUTAGE_PHASES.size() * 20, checks.size(), "20 checks in each of the phases");
        assertEquals(OUTAGE_PHASES, checks.stream().map(r -> r[0]).distinct().toList(), "the phases, in order");
        for (String[] r : checks) {
            double us = Double.parseDouble(r[2]);
            String row = String.join(",", r);
            if (ARTICLE_PHASES.contains(r[0])) {
                // The later phases' latency is the experiment's to report (outage.md), not a test's.
                assertTrue(us < 2 * budgetUs, "no check takes twice the budget: " + row);
            }
            switch (r[0]) {
                case "healthy", "restarted", "resumed", "unpaused", "link-healthy", "link-thawed", "link-fast" -> {
                    assertEquals("redis-allowed", r[3], row);
                    assertEquals("", r[6], "Redis decided it: " + row);
                }
                case "dead", "hung-breaker-on", "paused-write", "link-frozen", "link-slow" ->
                    assertEquals("degraded-allowed", r[3], "fail-open: " + row);
                case "hung-breaker-off" -> {
                    assertEquals("degraded-allowed", r[3], row);
                    // The article's row: with no breaker, every check on a hung Redis waits out the budget.
                    assertTrue(us >= 200_000, "a breaker that never opens pays ~the budget every check: " + row);
                }
                default -> throw new AssertionError("unknown phase: " + row);
            }
        }
        Map<String, String[]> phases = new HashMap<>();
        for (String[] r : csv(out.resolve("outage-phases.csv"))) {
            phases.put(r[0], r);
        }
        // phase,checks,p50_us,p99_us,max_us,paid_timeout,...,breaker_open_after_check(10),fault_ms,
        // recovery_ms(12),first_check_us,first_check_outcome(14),probes,monotonic_ms,wall_ms,clock_gap_ms,
        // timeouts(19),overrun_ms,max_within_budget_plus_10ms,paid_goal(22),paid_goal_met
        assertEquals(20, Integer.parseInt(phases.get("hung-breaker-off")[5]), "breaker off: all 20 pay the budget");
        assertEquals(20, Integer.parseInt(phases.get("hung-breaker-off")[19]), "breaker off: 20 timeouts");
        // Three failures in a row open the breaker. Redis I/O gives up at 90% of the budget, before the
        // waiting check does, so each failure is counted before the next check starts: exactly the
        // threshold's three checks time out (the guard's cause, not a latency a loaded machine's stall can
        // blur at 250 ms), and every later check is answered by the open breaker without asking Redis.
        assertTrue(Integer.parseInt(phases.get("hung-breaker-on")[5]) >= 3, "the 3 timeouts waited the budget");
        // The same for every fault that hangs a check with the breaker on, each from a closed breaker: the
        // process stopped (SIGSTOP), its writes paused (CLIENT PAUSE WRITE), the link frozen, the link
        // slower than the budget.
        for (String phase : HANGS) {
            assertEquals(3, Integer.parseInt(phases.get(phase)[19]), phase + ": exactly 3 timeouts");
            assertEquals(3, Integer.parseInt(phases.get(phase)[10]), phase + ": the breaker opened after check 3");
            assertEquals("3", phases.get(phase)[22], phase + ": the goal outage.md reports against");
        }
        for (String[] r : checks) {
            if (HANGS.contains(r[0])) {
                assertEquals(Integer.parseInt(r[1]) < 3 ? "timeout" : "breaker-open", r[6], String.join(",", r));
            }
        }
        assertTrue(
                Double.parseDouble(phases.get("dead")[2]) < Double.parseDouble(phases.get("healthy")[2]),
                "the article's dead row: with the breaker open a dead Redis is cheaper than a healthy one");
        for (String phase : RECOVERIES) {
            String[] r = phases.get(phase);
            assertTrue(!r[12].isEmpty() && !r[12].equals("none"), phase + ": the guard closed by itself: " + r[12]);
            double recovery = Double.parseDouble(r[12]);
            assertTrue(recovery > 0, phase + ": a recovery of 0 ms means the guard never opened: " + r[12]);
            if (ARTICLE_PHASES.contains(phase)) {
                assertTrue(recovery < 2_000, phase + ": recovered within 2 s: " + r[12] + " ms");
            }
            assertEquals("redis-allowed", r[14], phase + ": the first check after recovery asked Redis");
            assertEquals(20, Integer.parseInt(r[6]), phase + ": every check Redis-allowed, none failed");
        }
        assertTrue(Files.readString(out.resolve("outage.md")).contains("max ≤ budget + 10 ms"), "the goal's verdict");
        for (String f : List.of("outage.md", "outage.png")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        assertTrue(Files.readString(out.resolve("outage.md")).contains("## Over-admission while Redis hangs"));

        // Issue 13's row: two servers, 100 calls of one client above a limit of 20 + 10/s, on a hung Redis.
        // mode,setting,servers,checks,seconds,admitted,limit_allows,ratio,degraded
        List<String[]> fallback = csv(out.resolve("outage-fallback.csv"));
        List<String> modes = fallback.stream().map(r -> r[0]).toList();
        assertEquals(
                List.of(
                        "redis-answers",
                        "hung-fail-open",
                        "hung-fail-closed",
                        "hung-local-fallback",
                        "hung-local-fallback-shared"),
                modes);
        for (String[] r : fallback) {
            int calls = Integer.parseInt(r[3]);
            int admitted = Integer.parseInt(r[5]);
            double allows = Double.parseDouble(r[6]);
            int degraded = Integer.parseInt(r[8]);
            String row = String.join(",", r);
            assertEquals(100, calls, row);
            switch (r[0]) {
                case "redis-answers" -> {
                    assertEquals(0, degraded, row);
                    assertTrue(Math.abs(admitted - allows) <= 2, "Redis admits what the limit allows: " + row);
                }
                case "hung-fail-open" -> assertEquals(List.of(100, 100), List.of(admitted, degraded), row);
                case "hung-fail-closed" -> assertEquals(List.of(0, 100), List.of(admitted, degraded), row);
                case "hung-local-fallback" -> {
                    assertEquals(100, degraded, row);
                    assertTrue(Math.abs(admitted - 2 * allows) <= 4, "each server its whole capacity: 2x, " + row);
                }
                default -> {
                    assertEquals(100, degraded, row);
                    assertTrue(Math.abs(admitted - allows) <= 4, "each server half: about the limit, " + row);
                }
            }
        }
    }

    private static double roundTrips(List<String[]> counts, String check, String keys) {
        return counts.stream()
                .filter(r -> r[0].startsWith(check) && r[1].equals(keys))
                .mapToDouble(r -> Double.parseDouble(r[4]))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + check + " on " + keys));
    }

    private static List<String[]> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<String[]> rows = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            rows.add(l.split(",", -1));
        }
        return rows;
    }

    private static void run(String experiment, Path out, String... options) throws IOException, InterruptedException {
        Files.createDirectories(out);
        List<String> command = new ArrayList<>(List.of(
                "bash",
                EXPERIMENTS.resolve("run").toString(),
                experiment,
                "--quick",
                "--no-build",
                "--out",
                out.toString()));
        command.addAll(List.of(options));
        exec(command, out.resolve("run.log"), "experiments/run " + experiment + " --quick");
    }

    private static void exec(List<String> command, Path log, String what) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // The one nested build is short: C1 alone and the serial collector, as for the test servers.
        builder.environment().merge("MAVEN_OPTS", String.join(" ", ExtraServer.FAST_START), (a, b) -> a + " " + b);
        Process p = builder.start();
        boolean done = p.waitFor(10, TimeUnit.MINUTES);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String output = Files.readString(log);
        assertTrue(done, what + " took over 10 minutes:\n" + output);
        assertEquals(0, p.exitValue(), what + " failed:\n" + output);
    }
}
