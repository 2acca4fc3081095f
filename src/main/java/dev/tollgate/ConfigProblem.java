package dev.tollgate;

import java.util.List;

/**
 * One thing wrong with a configured value, as a builder or a rule finds it: the settings it concerns
 * (named as in properties, {@code capacity}, {@code refill-period}, ...), the values they were given, and
 * why they are refused. Every source names the settings its own way: properties put {@code
 * tollgate.limits.<name>.} in front, code puts {@code limit '<name>': }.
 *
 * @param settings the settings concerned, usually one
 * @param values their values, as given, one per setting; none when the one setting is missing
 * @param why the rule they break, such as {@code expected a whole number from 1 to 10000}
 */
public record ConfigProblem(List<String> settings, List<String> values, String why) {

    public ConfigProblem {
        settings = List.copyOf(settings);
        values = List.copyOf(values);
        boolean missing = settings.size() == 1 && values.isEmpty();
        if (settings.isEmpty() || (settings.size() != values.size() && !missing) || why == null) {
            throw new IllegalArgumentException("one value per setting (none: it is missing), at least one, and why");
        }
    }

    /** {@code setting} given {@code value}, which breaks the rule {@code rule}: "expected {@code rule}". */
    public static ConfigProblem expected(String setting, Object value, String rule) {
        return new ConfigProblem(List.of(setting), List.of(String.valueOf(value)), "expected " + rule);
    }

    /** {@code setting} given {@code value}, refused for {@code why}. */
    public static ConfigProblem of(String setting, Object value, String why) {
        return new ConfigProblem(List.of(setting), List.of(String.valueOf(value)), why);
    }

    /** {@code setting} is not given, and must be: {@code form} says what it takes. */
    public static ConfigProblem missing(String setting, String form) {
        return new ConfigProblem(List.of(setting), List.of(), form);
    }

    /** Whether this problem is a missing setting ({@link #missing}). */
    public boolean isMissing() {
        return values.isEmpty();
    }

    /** This problem with {@code prefix} before each setting's name (a shadow candidate's {@code shadow.}). */
    public ConfigProblem under(String prefix) {
        return new ConfigProblem(settings.stream().map(s -> prefix + s).toList(), values, why);
    }

    /** {@code <prefix><setting>=<value>, ... (<why>)}, or {@code <prefix><setting> is required (<form>)}. */
    public String describe(String prefix) {
        if (isMissing()) {
            return prefix + settings.get(0) + " is required (" + why + ")";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < settings.size(); i++) {
            b.append(i == 0 ? "" : ", ")
                    .append(prefix)
                    .append(settings.get(i))
                    .append('=')
                    .append(values.get(i));
        }
        return b.append(" (").append(why).append(')').toString();
    }
}
