package dev.tollgate.jaxrs;

import dev.tollgate.ClientRules;
import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.engine.ActivitySlot;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.PolicyText;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The operator resource's JSON, written by hand: every string in it is a limit name, a configured value
 * or a hash (never a raw client key), so escaping quotes and backslashes is all it needs.
 */
final class AdminJson {

    private AdminJson() {}

    /** The limits, the store and the breaker, and what each limit decided lately (for the console). */
    static String state(Engine t) {
        Map<String, List<ActivitySlot>> recent = t.recentActivity();
        StringJoiner limits = new StringJoiner(",", "[", "]");
        t.settings().limits().values().stream()
                .sorted(java.util.Comparator.comparing(LimitSpec::name))
                .forEach(l -> limits.add(limit(l, recent)));
        StringJoiner outcomes = new StringJoiner(",", "[", "]");
        ActivitySlot.OUTCOMES.forEach(o -> outcomes.add(str(o)));
        return "{\"store\":" + str(t.redis().isPresent() ? "redis" : "in-process")
                + ",\"breakerOpen\":" + t.breakerState().map(b -> b.isOpen()).orElse(false)
                + ",\"slotSeconds\":10,\"outcomes\":" + outcomes
                + ",\"limits\":" + limits + "}";
    }

    private static String limit(LimitSpec l, Map<String, List<ActivitySlot>> recent) {
        return "{" + policy(l)
                + ",\"key\":" + str(l.key().toString())
                + ",\"mode\":" + str(l.mode().name().toLowerCase(java.util.Locale.ROOT))
                + ",\"failOpen\":" + l.failOpen()
                + ",\"localFallback\":"
                + (l.localFallback() == null
                        ? "null"
                        : "{" + numbers(l.localFallback()) + ",\"policy\":"
                                + str(PolicyText.of(l.algorithm(), l.localFallback())) + "}")
                + ",\"candidate\":"
                + (l.candidate() == null
                        ? "null"
                        : "{" + policy(l.candidate()) + ",\"recent\":"
                                + series(recent.get(l.candidate().name())) + "}")
                + ",\"recent\":" + series(recent.get(l.name())) + "}";
    }

    private static String policy(LimitSpec l) {
        return "\"name\":" + str(l.name()) + ",\"algorithm\":"
                + str(l.algorithm().configName()) + "," + numbers(l.policy()) + ",\"policy\":"
                + str(PolicyText.of(l.algorithm(), l.policy()));
    }

    private static String numbers(LimitPolicy p) {
        return "\"capacity\":" + p.capacity() + ",\"refillTokens\":" + p.refillTokens() + ",\"refillPeriodMs\":"
                + p.refillPeriod().toMillis() + ",\"cost\":" + p.cost();
    }

    private static String series(List<ActivitySlot> slots) {
        if (slots == null) {
            return "[]";
        }
        StringJoiner out = new StringJoiner(",", "[", "]");
        for (ActivitySlot slot : slots) {
            StringJoiner counts = new StringJoiner(",", "[", "]");
            for (long n : slot.counts()) {
                counts.add(Long.toString(n));
            }
            out.add(counts.toString());
        }
        return out.toString();
    }

    /** A peek's answer. */
    static String peek(String limit, String clientHash, Decision d) {
        return "{\"limit\":" + str(limit) + ",\"client\":" + str(clientHash) + ",\"wouldAllow\":" + d.allowed()
                + ",\"remaining\":" + d.remaining() + ",\"retryAfterMs\":" + millis(d.retryAfter())
                + ",\"fullAfterMs\":" + millis(d.resetAfter()) + "}";
    }

    /** A reset's answer. */
    static String reset(String limit, String clientHash, boolean had) {
        return "{\"limit\":" + str(limit) + ",\"client\":" + str(clientHash) + ",\"reset\":" + had + "}";
    }

    /** A credit's answer. */
    static String credit(String limit, String clientHash, long asked, long credited) {
        return "{\"limit\":" + str(limit) + ",\"client\":" + str(clientHash) + ",\"asked\":" + asked + ",\"credited\":"
                + credited + "}";
    }

    /** A client's override and block, as they are now or were just set. */
    static String rules(String limit, String clientHash, ClientRules r) {
        return "{\"limit\":" + str(limit) + ",\"client\":" + str(clientHash) + ",\"blockedForMs\":"
                + r.blockLeft().toMillis() + ",\"override\":"
                + r.override()
                        .map(o -> "{\"capacity\":" + o.capacity() + ",\"refillTokens\":" + o.refillTokens()
                                + ",\"refillPeriodMs\":" + o.refillPeriod().toMillis() + ",\"forMs\":"
                                + r.overrideLeft().toMillis() + "}")
                        .orElse("null")
                + "}";
    }

    /** The answer to ending a block or an override: whether there was one. */
    static String removed(String limit, String clientHash, String field, boolean had) {
        return "{\"limit\":" + str(limit) + ",\"client\":" + str(clientHash) + ",\"" + field + "\":" + had + "}";
    }

    /** A problem body. */
    static String problem(int status, String title, String detail) {
        return "{\"title\":" + str(title) + ",\"status\":" + status + ",\"detail\":" + str(detail) + "}";
    }

    private static String millis(java.time.Duration d) {
        return d.equals(Decision.NEVER) ? "-1" : Long.toString(d.toMillis());
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
