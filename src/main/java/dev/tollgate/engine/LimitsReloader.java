package dev.tollgate.engine;

import dev.tollgate.config.PropertySource;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.config.TollgateSettings;
import dev.tollgate.core.Scheduler;
import dev.tollgate.ratelimit.LimitSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Looks at {@code tollgate.config.file} every {@code tollgate.config.interval} and, when its content
 * changed, reads the settings again with the validator of the deployment: limits that are valid and
 * change nothing but limits are swapped in at once and logged as a diff; anything else keeps the limits in
 * force and logs one SEVERE line naming each problem. A limit can be added or changed, not removed (an
 * annotation or {@code tollgate.http.limits} may name it: removing one needs a redeploy).
 */
final class LimitsReloader implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LimitsReloader.class.getName());

    private final Path file;
    private final PropertySource source;
    private final Supplier<TollgateSettings> current;
    private final Consumer<TollgateSettings> swap;
    private final Scheduler scheduler;
    private byte[] seen;

    LimitsReloader(
            TollgateSettings settings,
            PropertySource source,
            Supplier<TollgateSettings> current,
            Consumer<TollgateSettings> swap) {
        this.file = settings.reload().file().orElseThrow();
        this.source = source;
        this.current = current;
        this.swap = swap;
        this.seen = content();
        this.scheduler = Scheduler.daemon("tollgate-reload", 1);
        scheduler.every(settings.reload().interval(), this::look);
    }

    /** Reads the file again if it changed; what {@link Scheduler} runs every interval. */
    synchronized void look() {
        byte[] now = content();
        if (Arrays.equals(now, seen)) {
            return;
        }
        seen = now;
        SettingsReader.Reading r = SettingsReader.check(source);
        List<String> problems = new ArrayList<>(r.problems());
        TollgateSettings before = current.get();
        if (problems.isEmpty()) {
            problems.addAll(refused(before, r.settings().orElseThrow()));
        }
        if (!problems.isEmpty()) {
            LOG.severe(() -> "Tollgate: " + file + " changed, but the limits in force stay, since:\n  "
                    + String.join("\n  ", problems));
            return;
        }
        TollgateSettings next = r.settings().orElseThrow();
        List<String> diff = diff(before.limits(), next.limits());
        if (!before.plans().equals(next.plans())) {
            diff.add("plans " + before.plans().keySet() + " -> " + next.plans().keySet());
        }
        if (!diff.isEmpty()) {
            swap.accept(next);
            LOG.info(() -> "Tollgate: limits reloaded from " + file + ": " + String.join("; ", diff));
        }
    }

    private static List<String> refused(TollgateSettings before, TollgateSettings next) {
        List<String> out = new ArrayList<>();
        Set<String> removed = new TreeSet<>(before.limits().keySet());
        removed.removeAll(next.limits().keySet());
        removed.forEach(n -> out.add("limit '" + n + "' is gone: removing a limit needs a redeploy"));
        if (!next.withLimits(before.limits(), before.plans()).equals(before)) {
            out.add("settings other than tollgate.limits.* changed: they take a redeploy");
        }
        return out;
    }

    private static List<String> diff(Map<String, LimitSpec> before, Map<String, LimitSpec> after) {
        List<String> out = new ArrayList<>();
        new TreeSet<>(after.keySet()).forEach(name -> {
            LimitSpec was = before.get(name);
            LimitSpec now = after.get(name);
            if (was == null) {
                out.add("new limit '" + name + "' " + describe(now));
            } else if (!was.equals(now)) {
                out.add("'" + name + "' " + describe(was) + " -> " + describe(now));
            }
        });
        return out;
    }

    private static String describe(LimitSpec l) {
        var p = l.policy();
        return "(" + l.algorithm().configName() + " capacity=" + p.capacity()
                + (l.algorithm() == dev.tollgate.ratelimit.Algorithm.TOKEN_BUCKET
                        ? " refill-tokens=" + p.refillTokens()
                        : "")
                + " refill-period=" + p.refillPeriod() + " cost=" + p.cost() + " mode="
                + l.mode().name().toLowerCase(java.util.Locale.ROOT) + " fail-open=" + l.failOpen()
                + (l.localFallback() != null ? " local-fallback" : "")
                + (l.candidate() != null
                        ? " candidate capacity=" + l.candidate().policy().capacity()
                        : "") + ")";
    }

    private byte[] content() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
