package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisFailures;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Java's per-call rules ({@link Algorithm#largestCapacity()}, {@link Algorithm#largestCost()}, {@link
 * Charge#largestCost()}) and the scripts' own checks, which only detect a bug, agree, on a real Redis:
 * the largest cost Java lets a call have is accepted by the script (and by the in-process arithmetic),
 * and one more is refused by Java before any store is asked, and by the script too. Every script's
 * refusal of its arguments carries {@link RedisFailures#ARGUMENTS_REFUSED}.
 */
class ScriptLimitsAgreementTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 2));
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @ParameterizedTest(name = "{0} of capacity {1}")
    @CsvSource({
        "SLIDING_WINDOW, 2000",
        "SLIDING_WINDOW, 10000",
        "SLIDING_WINDOW, 500",
        "TOKEN_BUCKET, 10",
        "FIXED_WINDOW, 10"
    })
    void theLargestCostJavaAllowsIsAcceptedByTheScriptAndOneMoreIsRefusedByBoth(Algorithm algorithm, long capacity) {
        LimitSpec limit = new LimitSpec(
                new LimitPolicy("agree", capacity, capacity, Duration.ofHours(1), 1),
                algorithm,
                new KeySpec.Global(),
                true);
        Charge charge = Charge.of(limit, "c");
        long largest = charge.largestCost(); // Java's number; the script must agree with it
        assertEquals(Math.min(capacity, algorithm.largestCost()), largest);
        assertFalse(charge.costing(largest).neverPasses(), "Java lets " + largest + " through to the store");
        assertTrue(charge.costing(largest + 1).neverPasses(), "Java denies " + (largest + 1) + " without asking");

        String key = StoreKeys.DEFAULT.of(algorithm, "agree", "c-" + UUID.randomUUID());
        RedisRateLimitStore store = RedisRateLimitStore.using(algorithm, link);
        assertTrue(
                store.spend(charge.costing(largest).spentPolicy(), key)
                        .decision()
                        .allowed(),
                "the script takes it");
        if (largest + 1 <= capacity) {
            // Java's spentPolicy would never be built for it: sent here only to see the script's own check.
            LimitPolicy oneMore = limit.policy().withCost(largest + 1);
            ArgumentsRefusedException e =
                    assertThrows(ArgumentsRefusedException.class, () -> store.spend(oneMore, key));
            assertTrue(RedisFailures.argumentsRefused(e), e.toString());
            InProcessRateLimitStore memory = InProcessRateLimitStore.of(algorithm, MicrosClock.system());
            assertTrue(
                    memory.spend(limit.policy().withCost(largest), key)
                            .decision()
                            .allowed(),
                    "in process too");
            assertThrows(ArgumentsRefusedException.class, () -> memory.spend(oneMore, key));
        }
    }

    @Test
    void theLargestSlidingWindowJavaBuildsIsAcceptedByTheScriptAndOneMoreIsRefusedByBoth() {
        Algorithm sw = Algorithm.SLIDING_WINDOW;
        long largest = sw.largestCapacity();
        LimitPolicy most = new LimitPolicy("agree", largest, largest, Duration.ofHours(1), 1);
        new LimitSpec(most, sw, new KeySpec.Global(), true);
        RedisRateLimitStore store = RedisRateLimitStore.slidingWindow(link);
        String key = StoreKeys.DEFAULT.of(sw, "agree", "c-" + UUID.randomUUID());
        assertEquals(largest - 1, store.spend(most, key).decision().remaining());

        LimitPolicy oneMore = new LimitPolicy("agree", largest + 1, largest + 1, Duration.ofHours(1), 1);
        assertThrows(IllegalArgumentException.class, () -> new LimitSpec(oneMore, sw, new KeySpec.Global(), true));
        LimitSpec limit = new LimitSpec(most, sw, new KeySpec.Global(), true);
        assertThrows(IllegalArgumentException.class, () -> Charge.of(limit, "c").under("plan", oneMore));
        assertThrows(ArgumentsRefusedException.class, () -> store.spend(oneMore, key));
    }

    /** The scripts' refusals are recognisable: each {@code redis.error_reply} starts with the one prefix. */
    @Test
    void everyScriptRefusesItsArgumentsWithTheOnePrefix() throws IOException {
        Pattern reply = Pattern.compile("redis\\.error_reply\\('([^']*)'");
        List<String> replies = new ArrayList<>();
        try (Stream<Path> scripts = Files.list(Path.of("src/main/resources/dev/tollgate/internal/redis"))) {
            for (Path script :
                    scripts.filter(p -> p.toString().endsWith(".lua")).toList()) {
                Matcher m = reply.matcher(Files.readString(script));
                while (m.find()) {
                    replies.add(script.getFileName() + ": " + m.group(1));
                }
            }
        }
        assertTrue(replies.size() >= 10, replies.toString());
        assertEquals(
                List.of(),
                replies.stream()
                        .filter(r -> !r.contains(": " + RedisFailures.ARGUMENTS_REFUSED + " "))
                        .toList());
    }
}
