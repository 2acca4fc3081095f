package dev.tollgate.internal.engine;

import dev.tollgate.internal.config.DeploymentCheck;
import dev.tollgate.internal.config.LimitsFile;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Looks at {@code tollgate.config.file} every {@code tollgate.config.interval}. A new version is checked
 * only once two looks in a row (one interval apart) read the same bytes, each read whole with the file's
 * size, time and identity unchanged across it: a file still being written is not a version. Each new
 * version is checked by the deployment's own check ({@link DeploymentCheck#reload}: settings, beans,
 * keys, locks), then for what a reload cannot do (remove a limit, change a setting that is not a limit's,
 * empty a file that held limits). One that passes is swapped in at once and logged as a diff; one that
 * fails keeps the limits in force and logs one SEVERE line naming each problem, once per version.
 */
final class LimitsReloader implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LimitsReloader.class.getName());

    /** Looks in a row that found the file changed again before it is called still changing (once). */
    static final int STILL_CHANGING_LOOKS = 10;

    private final Path file;
    private final PropertySource source;
    private final DeploymentCheck.Beans beans;
    private final Supplier<TollgateSettings> current;
    private final Consumer<TollgateSettings> swap;
    private final Duration interval;
    private final Scheduler scheduler;

    /** What the last look read. */
    private LimitsFile.Snapshot previous;
    /** The version last checked: in force, or refused; null until the first look checks one. */
    private LimitsFile.Snapshot decided;
    /** Whether the version in force holds a limit's setting (an emptied file is refused then). */
    private boolean inForceHasLimits;
    /** Looks in a row that found the file changed again. */
    private int unsettled;

    LimitsReloader(
            TollgateSettings settings,
            PropertySource source,
            DeploymentCheck.Beans beans,
            Supplier<TollgateSettings> current,
            Consumer<TollgateSettings> swap) {
        this.file = settings.reload().file().orElseThrow();
        this.source = source;
        this.beans = beans;
        this.current = current;
        this.swap = swap;
        this.interval = settings.reload().interval();
        // The deployment read the file on its own: the first look checks what it reads against the
        // settings in force (quietly when they agree), so a change made in between is not taken as seen.
        this.previous = LimitsFile.snapshot(file);
        this.decided = null;
        this.inForceHasLimits = previous.hasLimits();
        this.scheduler = Scheduler.daemon("tollgate-reload", 1);
        scheduler.every(interval, this::look);
    }

    /** Reads the file, and checks a new version once it stayed the same; what {@link Scheduler} runs. */
    synchronized void look() {
        LimitsFile.Snapshot now = LimitsFile.snapshot(file);
        if (now.same(decided)) {
            previous = now;
            unsettled = 0;
            return;
        }
        if (!now.same(previous)) {
            previous = now;
            if (++unsettled == STILL_CHANGING_LOOKS) {
                LOG.severe(() -> "Tollgate: " + file + " changed at each of " + STILL_CHANGING_LOOKS
                        + " looks, every " + interval.toMillis() + " ms: the limits in force stay until it stays"
                        + " the same for one interval (write the new version beside it and rename it over the"
                        + " file)");
            }
            return;
        }
        unsettled = 0;
        decided = now;
        check(now);
    }

    private void check(LimitsFile.Snapshot version) {
        DeploymentCheck.Outcome checked = DeploymentCheck.reload(source, version, beans);
        List<String> problems = new ArrayList<>(checked.problems());
        TollgateSettings before = current.get();
        if (problems.isEmpty()) {
            if (inForceHasLimits && !version.hasLimits()) {
                problems.add(SettingsReader.CONFIG_FILE + "=" + file + " (holds no tollgate.limits.* setting, where"
                        + " the version in force held some: an emptied file is taken for a failed write; to go"
                        + " back to the other sources' limits, redeploy)");
            }
            problems.addAll(refused(before, checked.settings().orElseThrow()));
        }
        if (!problems.isEmpty()) {
            LOG.severe(() -> "Tollgate: " + file + " changed, but the limits in force stay, since:\n  "
                    + String.join("\n  ", problems));
            return;
        }
        inForceHasLimits = version.hasLimits();
        TollgateSettings next = checked.settings().orElseThrow();
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
                + (l.algorithm() == dev.tollgate.internal.ratelimit.Algorithm.TOKEN_BUCKET
                        ? " refill-tokens=" + p.refillTokens()
                        : "")
                + " refill-period=" + p.refillPeriod() + " cost=" + p.cost() + " key=" + key(l.key()) + " mode="
                + l.mode().name().toLowerCase(java.util.Locale.ROOT) + " fail-open=" + l.failOpen()
                + (l.localFallback() != null ? " local-fallback" : "")
                + (l.candidate() != null
                        ? " candidate capacity=" + l.candidate().policy().capacity()
                        : "") + ")";
    }

    /** A key as its setting writes it. */
    private static String key(KeySpec k) {
        if (k instanceof KeySpec.Header h) {
            return "header:" + h.name();
        }
        if (k instanceof KeySpec.Bean b) {
            return b.name();
        }
        return k instanceof KeySpec.Ip ? "ip" : k instanceof KeySpec.Principal ? "principal" : "global";
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
