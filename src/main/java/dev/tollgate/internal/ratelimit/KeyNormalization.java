package dev.tollgate.internal.ratelimit;

import dev.tollgate.Limit;
import java.text.Normalizer;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a limit does to a client key before it names a bucket ({@code tollgate.limits.<name>.key-normalize}):
 * any of {@code nfc}, {@code trim}, {@code case-fold}, comma-separated, or {@code none}; default {@code
 * nfc,trim}. The steps run in that order whatever order they are written in:
 *
 * <ul>
 *   <li>{@code nfc}: Unicode canonical composition, so {@code é} typed as one character or as {@code e}
 *       and a combining accent is one client;
 *   <li>{@code trim}: leading and trailing whitespace ({@link Character#isWhitespace}) removed;
 *   <li>{@code case-fold}: upper and lower case are one client ({@code Alice} is {@code alice}), by
 *       Unicode's rules, not the server's locale. Not by default: API keys and tokens are case-sensitive,
 *       and folding would put different callers in one bucket.
 * </ul>
 *
 * <p>None of them changes a key of printable ASCII without surrounding spaces unless {@code case-fold}
 * is set: such keys name the same buckets they always did.
 */
public record KeyNormalization(Set<Step> steps) {

    /** One step, in the order they run. */
    public enum Step {
        NFC("nfc"),
        TRIM("trim"),
        CASE_FOLD("case-fold");

        private final String configName;

        Step(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }
    }

    /** The default: {@code nfc,trim} ({@link Limit#DEFAULT_KEY_NORMALIZATION}). */
    public static final KeyNormalization DEFAULT = of(Limit.DEFAULT_KEY_NORMALIZATION);

    /** The key as it came. */
    public static final KeyNormalization NONE = new KeyNormalization(EnumSet.noneOf(Step.class));

    /** What the setting takes, for messages. */
    public static final String RULE = "none, or any of nfc, trim and case-fold, comma-separated";

    public KeyNormalization {
        if (steps == null) {
            throw new IllegalArgumentException("steps must not be null");
        }
        steps = steps.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(steps));
    }

    /** The engine's form of the API's {@code steps}. */
    public static KeyNormalization of(Set<Limit.KeyStep> steps) {
        EnumSet<Step> engine = EnumSet.noneOf(Step.class);
        steps.forEach(s -> engine.add(Step.valueOf(s.name())));
        return new KeyNormalization(engine);
    }

    /** The API's form of these steps. */
    public Set<Limit.KeyStep> api() {
        return steps.stream().map(s -> Limit.KeyStep.valueOf(s.name())).collect(Collectors.toUnmodifiableSet());
    }

    /** Parses a setting; {@link IllegalArgumentException} names what is accepted. */
    public static KeyNormalization parse(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (String w : text.split(",")) {
            words.add(w.trim().toLowerCase(Locale.ROOT));
        }
        if (words.equals(Set.of("none"))) {
            return NONE;
        }
        EnumSet<Step> steps = EnumSet.noneOf(Step.class);
        for (String w : words) {
            Step step = null;
            for (Step s : Step.values()) {
                if (s.configName.equals(w)) {
                    step = s;
                }
            }
            if (step == null) {
                throw new IllegalArgumentException(
                        w.isEmpty() || w.equals("none") ? "none stands alone" : "no step '" + w + "'");
            }
            steps.add(step);
        }
        return new KeyNormalization(steps);
    }

    /** {@code clientKey} normalised. */
    public String apply(String clientKey) {
        String k = clientKey;
        if (steps.contains(Step.NFC) && !Normalizer.isNormalized(k, Normalizer.Form.NFC)) {
            k = Normalizer.normalize(k, Normalizer.Form.NFC);
        }
        if (steps.contains(Step.TRIM)) {
            k = k.strip();
        }
        if (steps.contains(Step.CASE_FOLD)) {
            // Upper then lower case, in no locale: 'ß' and "SS" meet, and a Turkish server folds 'I' as any other.
            k = k.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        }
        return k;
    }

    /** The setting's text: {@code none} or the steps in their order. */
    public String configText() {
        return steps.isEmpty()
                ? "none"
                : EnumSet.copyOf(steps).stream().map(Step::configName).collect(Collectors.joining(","));
    }
}
