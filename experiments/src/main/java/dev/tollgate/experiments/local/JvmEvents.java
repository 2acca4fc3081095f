package dev.tollgate.experiments.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * The JVM's safepoints during a run and the measuring thread's deoptimizations, from a JFR recording of only
 * these events: {@code jdk.SafepointBegin} and {@code jdk.SafepointEnd} (the time every Java thread was held:
 * from the request to stop until the release), {@code jdk.ExecuteVMOperation} (what ran in it), {@code
 * jdk.GCPhasePause} (a collection's pause) and {@code jdk.Deoptimization} (compiled code left for the
 * interpreter, on the thread that ran it). JFR stamps events with its own clock, so the harness commits an {@link Anchor} (a {@code
 * System.nanoTime} read) now and then, and each safepoint is placed on {@code nanoTime}'s scale by its
 * nearest anchor. The recording goes to disk and is read once, after the measuring; where JFR is missing
 * the recorder records nothing and says so.
 */
final class JvmEvents {

    /** What was recorded, on {@code System.nanoTime}'s scale, each list in time order. */
    record Recorded(boolean recording, List<Pause> pauses, List<Deopt> deopts) {}

    /** One deoptimization of the measuring thread: when, in which method, why. */
    record Deopt(long at, String method, String reason) {}

    /** One safepoint on {@code System.nanoTime}'s scale: its VM operation, and whether a collection paused in it. */
    record Pause(long start, long end, String operation, boolean collection) {
        boolean overlaps(long from, long to) {
            return start < to && end > from;
        }
    }

    /** A {@code System.nanoTime} read, stamped by JFR's clock. */
    @Name("dev.tollgate.experiments.Anchor")
    @Label("nanoTime anchor")
    static final class Anchor extends Event {
        @Label("System.nanoTime")
        long nanoTime;
    }

    private final Recording recording;
    private final long thread = Thread.currentThread().getId();

    private JvmEvents(Recording recording) {
        this.recording = recording;
    }

    /**
     * Starts recording, or returns a recorder that records nothing when JFR cannot start; on the thread that
     * measures (its deoptimizations are kept).
     */
    static JvmEvents start() {
        try {
            Recording r = new Recording();
            r.setName("local-safepoints");
            r.setToDisk(true);
            for (String e : List.of(
                    "jdk.SafepointBegin",
                    "jdk.SafepointEnd",
                    "jdk.ExecuteVMOperation",
                    "jdk.GCPhasePause",
                    "jdk.Deoptimization")) {
                r.enable(e).withoutThreshold().withoutStackTrace();
            }
            r.enable(Anchor.class);
            r.start();
            return new JvmEvents(r);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("JFR unavailable, safepoints and deoptimizations not recorded: " + e);
            return new JvmEvents(null);
        }
    }

    /** Ties JFR's clock to {@code System.nanoTime} here; made between blocks, never inside one. */
    void anchor() {
        if (recording != null) {
            Anchor a = new Anchor();
            a.begin();
            a.nanoTime = System.nanoTime();
            a.commit();
        }
    }

    /** Stops recording; what was recorded (nothing when JFR did not start). */
    Recorded stop() throws Exception {
        if (recording == null) {
            return new Recorded(false, List.of(), List.of());
        }
        Path file = Files.createTempFile("tollgate-local-", ".jfr");
        try {
            recording.stop();
            recording.dump(file);
            return read(RecordingFile.readAllEvents(file));
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }

    private Recorded read(List<RecordedEvent> events) {
        List<Instant> anchorAt = new ArrayList<>();
        List<Long> anchorNanos = new ArrayList<>();
        Map<Long, Instant> begun = new HashMap<>();
        Map<Long, Instant> ended = new HashMap<>();
        Map<Long, String> operations = new HashMap<>();
        List<Instant> collections = new ArrayList<>();
        List<RecordedEvent> deoptimized = new ArrayList<>();
        events.sort(Comparator.comparing(RecordedEvent::getStartTime));
        for (RecordedEvent e : events) {
            switch (e.getEventType().getName()) {
                case "dev.tollgate.experiments.Anchor" -> {
                    anchorAt.add(e.getStartTime());
                    anchorNanos.add(e.getLong("nanoTime"));
                }
                case "jdk.SafepointBegin" -> begun.put(e.getLong("safepointId"), e.getStartTime());
                case "jdk.SafepointEnd" -> ended.put(e.getLong("safepointId"), e.getEndTime());
                case "jdk.ExecuteVMOperation" -> {
                    if (e.getBoolean("safepoint")) {
                        operations.merge(e.getLong("safepointId"), e.getString("operation"), (a, b) -> a + "+" + b);
                    }
                }
                case "jdk.GCPhasePause" -> collections.add(e.getStartTime());
                case "jdk.Deoptimization" -> {
                    if (e.getThread() != null && e.getThread().getJavaThreadId() == thread) {
                        deoptimized.add(e);
                    }
                }
                default -> {}
            }
        }
        List<Pause> pauses = new ArrayList<>();
        List<Deopt> deopts = new ArrayList<>();
        if (anchorAt.isEmpty()) {
            return new Recorded(true, pauses, deopts);
        }
        for (Map.Entry<Long, Instant> b : begun.entrySet()) {
            Instant from = b.getValue();
            Instant to = ended.get(b.getKey());
            if (to == null) {
                continue;
            }
            boolean collection = collections.stream().anyMatch(c -> !c.isBefore(from) && !c.isAfter(to));
            pauses.add(new Pause(
                    nanos(from, anchorAt, anchorNanos),
                    nanos(to, anchorAt, anchorNanos),
                    operations.getOrDefault(b.getKey(), "?"),
                    collection));
        }
        pauses.sort(Comparator.comparingLong(Pause::start));
        for (RecordedEvent e : deoptimized) {
            RecordedMethod m = e.getValue("method");
            deopts.add(new Deopt(
                    nanos(e.getStartTime(), anchorAt, anchorNanos),
                    m == null ? "?" : simpleName(m.getType().getName()) + "." + m.getName(),
                    String.valueOf((Object) e.getValue("reason"))));
        }
        return new Recorded(true, pauses, deopts);
    }

    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }

    /** {@code at} on {@code System.nanoTime}'s scale, by the anchor nearest to it. */
    private static long nanos(Instant at, List<Instant> anchorAt, List<Long> anchorNanos) {
        int lo = 0;
        int hi = anchorAt.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (anchorAt.get(mid).isBefore(at)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int nearest = lo;
        if (lo > 0
                && Duration.between(anchorAt.get(lo - 1), at)
                                .abs()
                                .compareTo(
                                        Duration.between(at, anchorAt.get(lo)).abs())
                        < 0) {
            nearest = lo - 1;
        }
        return anchorNanos.get(nearest)
                + Duration.between(anchorAt.get(nearest), at).toNanos();
    }
}
