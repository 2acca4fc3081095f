package dev.tollgate.jaxrs;

import static dev.tollgate.jaxrs.AdminJson.str;

import dev.tollgate.LockHold;
import dev.tollgate.internal.engine.DeniedClient;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.engine.RecentOutage;
import dev.tollgate.internal.ratelimit.PolicyText;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.StringJoiner;

/**
 * The console's and the lock resource's JSON, by hand as {@link AdminJson}: names, holders' names,
 * causes and hashes only (never a client key, never a lock's secret token).
 */
final class ConsoleJson {

    private ConsoleJson() {}

    /** The breaker, the outages, the most denied clients, and {@code locks} (written by {@link #locks}). */
    static String console(Engine t, String locks) {
        String breaker = t.breakerState()
                .map(b -> "{\"open\":" + b.isOpen() + ",\"authFailure\":"
                        + b.authFailure().map(AdminJson::str).orElse("null") + "}")
                .orElse("null");
        StringJoiner outages = new StringJoiner(",", "[", "]");
        for (RecentOutage o : t.recentOutages()) {
            outages.add("{\"start\":" + str(o.start().toString()) + ",\"durationMs\":"
                    + o.duration().toMillis() + ",\"duration\":" + str(PolicyText.duration(o.duration()))
                    + ",\"degraded\":" + o.degraded() + ",\"cause\":" + str(o.cause()) + ",\"ongoing\":"
                    + o.ongoing() + "}");
        }
        StringJoiner denied = new StringJoiner(",", "[", "]");
        for (DeniedClient c : t.mostDeniedClients()) {
            denied.add("{\"limit\":" + str(c.limit()) + ",\"client\":" + str(c.clientHash()) + ",\"denied\":"
                    + c.denied() + "}");
        }
        return "{\"breaker\":" + breaker + ",\"outages\":" + outages + ",\"deniedClients\":" + denied + ",\"locks\":"
                + locks + "}";
    }

    static String locks(List<LockHold> held) {
        return locks(held, null);
    }

    /** The held locks; {@code error} says why they could not be read (null when they were). */
    static String locks(List<LockHold> held, String error) {
        StringJoiner locks = new StringJoiner(",", "[", "]");
        for (LockHold h : held) {
            long left = h.timeLeft().equals(ChronoUnit.FOREVER.getDuration())
                    ? -1
                    : h.timeLeft().toMillis();
            locks.add("{\"name\":" + str(h.name()) + ",\"holder\":" + str(h.holder()) + ",\"fencingToken\":"
                    + h.fencingToken() + ",\"timeLeftMs\":" + left + ",\"timeLeft\":"
                    + str(left < 0 ? "no expiry" : PolicyText.duration(h.timeLeft())) + "}");
        }
        return "{\"held\":" + locks + ",\"error\":" + (error == null ? "null" : str(error)) + "}";
    }

    static String released(String name) {
        return "{\"lock\":" + str(name) + ",\"released\":true}";
    }
}
