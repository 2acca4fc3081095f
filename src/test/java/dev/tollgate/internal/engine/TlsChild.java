package dev.tollgate.internal.engine;

import dev.tollgate.Acquisition;
import dev.tollgate.Decision;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.testing.RecordedCauses;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM as a user starts one against a TLS Redis: its trust store given as JVM options by the test, the
 * URL {@code rediss://...} in the settings. Prints one line per call: {@code CHECK <allowed> <degraded>
 * <remaining>} for three checks of a quota of 2 (with a budget a cold JVM's first TLS handshake meets on a loaded
 * machine: the budget is not tested here), {@code COUNTER <value>|unavailable}, {@code LOCK
 * <acquisition>}, then {@code CAUSES <counts by cause>}.
 */
public final class TlsChild {

    private TlsChild() {}

    public static void main(String[] args) {
        RecordedCauses causes = new RecordedCauses();
        List<String> p = new ArrayList<>(List.of("tollgate.redis.url", args[0], "tollgate.redis.timeout", "10s"));
        p.addAll(List.of(TestSettings.quota("tls", 2)));
        try (Engine tollgate = Engine.builder(TestSettings.read(p.toArray(String[]::new)))
                .listener(causes)
                .build()) {
            for (int i = 0; i < 3; i++) {
                Decision d = tollgate.check("tls", "client");
                System.out.println("CHECK " + d.allowed() + " " + d.degraded() + " " + d.remaining());
            }
            try {
                System.out.println("COUNTER " + tollgate.counters().increment("tls-counter", 1, Duration.ofMinutes(1)));
            } catch (StoreUnavailableException e) {
                System.out.println("COUNTER unavailable");
            }
            Acquisition a = tollgate.locks().tryAcquire("tls-lock", Duration.ofMinutes(1));
            System.out.println("LOCK " + a.getClass().getSimpleName());
            System.out.println("CAUSES " + causes);
        }
    }
}
