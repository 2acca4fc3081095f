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
import jdk.jfr.consumer.RecordingFile;

/**
 * The JVM's safepoints during a run, from a JFR recording of only these events: {@code jdk.SafepointBegin}
 * and {@code jdk.SafepointEnd} (the time every Java thread was held: from the request to stop until the
 * release), {@code jdk.ExecuteVMOperation} (what ran in it) and {@code jdk.GCPhasePause} (a collection's
 * pause). JFR stamps events with its own clock, so the harness commits an {@link Anchor} (a {@code
 * System.nanoTime} read) now and then, and each safepoint is placed on {@code nanoTime}'s scale by its
 * nearest anchor. The recording goes to disk and is read once, after the measuring; where JFR is missing
 * the recorder records nothing and says so.
 */
final class Safepoints {

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

    private Safepoints(Recording recording) {
        this.recording = recording;
    }

    /** Starts recording, or returns a recorder that records nothing when JFR cannot start. */
    static Safepoints start() {
        try {
            Recording r = new Recording();
            r.setName("local-safepoints");
            r.setToDisk(true);
            for (String e :
                    List.of("jdk.SafepointBegin", "jdk.SafepointEnd", "jdk.ExecuteVMOperation", "jdk.GCPhasePause")) {
                r.enable(e).withoutThreshold();
            }
            r.enable(Anchor.class);
            r.start();
            return new Safepoints(r);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("JFR unavailable, safepoints not recorded: " + e);
            return new Safepoints(null);
        }
    }

    boolean recording() {
        return recording != null;
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

    /** Stops recording; the safepoints in start order, or an empty list when nothing was recorded. */
    List<Pause> stop() throws Exception {
        if (recording == null) {
            return List.of();
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

    private static List<Pause> read(List<RecordedEvent> events) {
        List<Instant> anchorAt = new ArrayList<>();
        List<Long> anchorNanos = new ArrayList<>();
        Map<Long, Instant> begun = new HashMap<>();
        Map<Long, Instant> ended = new HashMap<>();
        Map<Long, String> operations = new HashMap<>();
        List<Instant> collections = new ArrayList<>();
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
                default -> {}
            }
        }
        List<Pause> pauses = new ArrayList<>();
        if (anchorAt.isEmpty()) {
            return pauses;
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
        return pauses;
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
