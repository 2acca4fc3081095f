package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference's table of settings ({@code configuration.md}) says what the registry
 * ({@link Setting}) says: the same names, the same defaults, and a shadow candidate's settings.
 */
class SettingRegistryTest {

    private static final Path PAGE = Path.of("src", "site", "markdown", "configuration.md");
    private static final String CANDIDATE_ROW = "tollgate.limits.<name>.shadow.<setting>";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** Each property of the table's rows, with its default cell (without backticks). */
    private static Map<String, String> table() throws IOException {
        Map<String, String> rows = new TreeMap<>();
        boolean in = false;
        for (String line : Files.readAllLines(PAGE)) {
            if (line.startsWith("| property | default |")) {
                in = true;
            } else if (in && !line.startsWith("|")) {
                break;
            } else if (in && !line.startsWith("|---")) {
                String[] cells = line.split("\\|");
                String defaultText = cells[2].trim().replace("`", "");
                Matcher m = CODE.matcher(cells[1]);
                String first = null;
                while (m.find()) {
                    String name = m.group(1);
                    if (name.startsWith(".") && first != null) {
                        name = first.substring(0, first.lastIndexOf('.')) + name;
                    } else {
                        first = name;
                    }
                    rows.put(name, defaultText);
                }
            }
        }
        return rows;
    }

    private static Map<String, String> registry() {
        return Arrays.stream(Setting.values())
                .collect(Collectors.toMap(Setting::property, Setting::defaultText, (a, b) -> a, TreeMap::new));
    }

    @Test
    void theTableListsEverySettingOfTheRegistryWithItsDefault() throws IOException {
        Map<String, String> table = table();
        table.remove(CANDIDATE_ROW);
        assertEquals(registry(), table);
    }

    @Test
    void theTableNamesWhatAShadowCandidateMayGive() throws IOException {
        String row = Files.readAllLines(PAGE).stream()
                .filter(l -> l.startsWith("| `" + CANDIDATE_ROW + "`"))
                .findFirst()
                .orElseThrow();
        Set<String> named = new TreeSet<>();
        Matcher m = CODE.matcher(row.split("\\|")[3]);
        while (m.find()) {
            if (SettingNames.LIMIT_SETTINGS.contains(m.group(1))) {
                named.add(m.group(1));
            }
        }
        assertEquals(new TreeSet<>(LimitModes.CANDIDATE_SETTINGS), named);
    }

    /** The registry's defaults are what reading nothing gives. */
    @Test
    void theRegistrysDefaultsAreTheReadersDefaults() {
        TollgateSettings none = SettingsReader.read(PropertySource.of(Map.of()));
        assertEquals(dev.tollgate.internal.core.Durations.parse(Setting.REDIS_TIMEOUT.defaultText()), none.budget());
        assertEquals(Integer.parseInt(Setting.REDIS_POOL_SIZE.defaultText()), none.poolSize());
        assertEquals(Boolean.parseBoolean(Setting.FAIL_OPEN.defaultText()), none.failOpen());
        assertEquals(Integer.parseInt(Setting.LOCAL_DENIALS.defaultText()), none.localDenials());
        assertEquals(
                Integer.parseInt(Setting.HTTP_IPV6_PREFIX.defaultText()),
                none.http().ipv6Prefix());
        assertEquals(
                Boolean.parseBoolean(Setting.HTTP_ALLOW_WAIT.defaultText()),
                none.http().allowWait());
        assertEquals(
                Boolean.parseBoolean(Setting.ADMIN_ENABLED.defaultText()),
                none.admin().enabled());
        assertEquals(Setting.ADMIN_ROLE.defaultText(), none.admin().role());
        assertEquals(
                dev.tollgate.internal.core.Durations.parse(Setting.CONFIG_INTERVAL.defaultText()),
                none.reload().interval());
        TollgateSettings one = SettingsReader.read(PropertySource.of(Map.of(
                "tollgate.limits.a.capacity",
                "1",
                "tollgate.limits.a.refill-tokens",
                "1",
                "tollgate.concurrency.c.max-in-flight",
                "1")));
        var a = one.limit("a").orElseThrow();
        assertEquals(Setting.ALGORITHM.defaultText(), a.algorithm().configName());
        assertEquals(
                dev.tollgate.internal.core.Durations.parse(Setting.REFILL_PERIOD.defaultText()),
                a.policy().refillPeriod());
        assertEquals(Long.parseLong(Setting.COST.defaultText()), a.policy().cost());
        assertEquals(Setting.KEY.defaultText(), a.key().key() instanceof dev.tollgate.Key.Ip ? "ip" : "?");
        assertEquals(Setting.KEY_NORMALIZE.defaultText(), a.keyNormalization().configText());
        var c = one.concurrencyLimit("c").orElseThrow();
        assertEquals(dev.tollgate.internal.core.Durations.parse(Setting.LEASE.defaultText()), c.lease());
        assertEquals(
                Setting.CONCURRENCY_KEY.defaultText(),
                c.key().key() instanceof dev.tollgate.Key.Global ? "global" : "?");
    }

    /**
     * Every setting whose row gives a range takes both its ends and refuses one step beyond each, saying
     * the row's rule: the reader checks no range but the row's.
     */
    @Test
    void eachRangedSettingTakesTheEndsOfItsRowsRangeAndRefusesOneStepBeyond() {
        int ranged = 0;
        for (Setting s : Setting.values()) {
            Setting.Range r = s.range();
            if (r == null) {
                continue;
            }
            ranged++;
            String unit = r.millis() ? "ms" : "";
            for (long fits : new long[] {r.min(), r.max()}) {
                SettingsReader.Reading reading =
                        SettingsReader.check(PropertySource.of(Map.of(s.property(), fits + unit)));
                assertEquals(List.of(), reading.problems(), s.property() + "=" + fits + unit);
            }
            for (long beyond : new long[] {r.min() - 1, r.max() + 1}) {
                String value = beyond + unit;
                List<String> problems = SettingsReader.check(PropertySource.of(Map.of(s.property(), value)))
                        .problems();
                assertEquals(List.of(s.property() + "=" + value + " (expected " + s.rule() + ")"), problems);
            }
        }
        assertEquals(
                9,
                ranged,
                "the timeout, pool, breaker, fallback servers, denials, interval, IPv6 prefix and pacing wait");
    }

    /** A ranged row's rule says its range; a duration's gives its default as the example. */
    @Test
    void aRangedRowsRuleSaysItsRange() {
        assertEquals("a whole number from 1 to 1000", Setting.BREAKER_FAILURES.rule());
        assertEquals("a duration from 0ms to 10m such as 500ms", Setting.BREAKER_DELAY.rule());
        assertEquals("a duration from 1ms to 1m such as 250ms", Setting.REDIS_TIMEOUT.rule());
        assertEquals("a duration from 100ms to 1h such as 5s", Setting.CONFIG_INTERVAL.rule());
        assertEquals("a whole number from 1 to 128", Setting.HTTP_IPV6_PREFIX.rule());
        assertEquals("a whole number from 0 (off) to 10000000", Setting.LOCAL_DENIALS.rule());
        assertEquals("a whole number > 0", Setting.REDIS_POOL_SIZE.rule());
        assertEquals("auto or a whole number from 1 to 1000", Setting.LOCAL_FALLBACK_SERVERS.rule());
    }

    @Test
    void theNamesTollgateAcceptsAreTheRegistrys() {
        assertEquals(23, SettingsReader.GLOBAL.size());
        assertTrue(SettingNames.LIMIT_SETTINGS.containsAll(LimitModes.CANDIDATE_SETTINGS));
        assertEquals(Set.of("ttl", "at-least", "keep-alive"), SettingNames.LOCK_SETTINGS);
        assertEquals(Set.of("max-in-flight", "key", "lease", "fail-open"), SettingNames.CONCURRENCY_SETTINGS);
        assertEquals(
                List.of(
                        "algorithm",
                        "anchor",
                        "capacity",
                        "cost",
                        "period",
                        "persist",
                        "refill-period",
                        "refill-tokens",
                        "zone"),
                List.copyOf(new TreeSet<>(LimitModes.CANDIDATE_SETTINGS)));
    }
}
