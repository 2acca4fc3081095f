package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.RedisDistributedLock;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless browser: Debian's {@code chromium} driven through {@code
 * /usr/bin/chromedriver} by Selenium (both named, so Selenium Manager never looks for, let alone downloads,
 * a driver or a browser), on the first IT server after live traffic: a client denied, a shadow limit's
 * would-be denials, an outage (Redis frozen, then thawed), a lock held by this JVM. It asserts what the
 * page drew from the server's JSON, writes a screenshot ({@code console.screenshot}, default {@code
 * target/console.png}), then force-releases the lock with the page's button. Without chromium it fails.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
// First of the ITs (failsafe orders classes by @Order, the others keep their order): the console shows
// what this server did in the last 5 to 10 minutes, and its top 10 denied clients and its flat lines
// must be this test's, not those of the ITs that ran just before it.
@Order(1)
@SharedServers
public class ConsoleIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final String HOLDER = "console-it";

    @Test
    void theConsoleDrawsLiveTrafficOutagesDeniedClientsAndLocksAndReleasesALock() throws Exception {
        assertTrue(
                Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM),
                "ConsoleIT needs Debian's chromium and chromium-driver: apt-get install -y chromium chromium-driver"
                        + " (.ci/run installs them)");
        RedisReady.awaitBoth();
        String user = "console-" + System.nanoTime();
        for (int i = 0; i < 9; i++) {
            assertEquals(
                    i < 3 ? 200 : 429, LibertyServer.get("/demo/user/" + user).statusCode(), "call " + i);
        }
        String address = "198.51.100." + (System.nanoTime() % 200 + 1);
        for (int i = 0; i < 6; i++) {
            assertEquals(
                    200,
                    LibertyServer.get("/demo/shadow", "X-Forwarded-For", address)
                            .statusCode());
        }
        anOutage();

        try (RedisLink link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofSeconds(5), 4));
                RedisDistributedLock locks =
                        RedisDistributedLock.using(GuardedRedis.unguarded(link), LockLostListener.NONE, HOLDER)) {
            String lockName = "console-it-" + System.nanoTime();
            LockHandle held = assertInstanceOf(
                            Acquisition.Acquired.class, locks.tryAcquire(lockName, Duration.ofMinutes(2)))
                    .lock();
            WebDriver browser = chromium();
            try {
                browser.get(
                        LibertyServer.baseUrl().replace("://", "://" + AdminHttp.OPERATOR + "@") + "/tollgate/console");
                // The page redraws its tables every 2 s: each value is read by one script, at once.
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
                wait.ignoring(StaleElementReferenceException.class);
                String lockRow = "#locks tr[data-lock='" + lockName + "']";
                wait.until(b -> !rows(b, lockRow).isEmpty()
                        && count(b, "demo-user", "denied") >= 6
                        && !rows(b, "#outages tr[data-cause]").isEmpty());

                assertTrue(count(browser, "demo-user", "allowed") >= 3);
                assertTrue(count(browser, "demo-shadow", "would_deny") >= 3);
                assertTrue(drawn(browser, "demo-user", "denied"), "the denied line of demo-user's chart rises");
                assertTrue(drawn(browser, "demo-user", "allowed"));
                assertTrue(drawn(browser, "demo-shadow", "would_deny"));
                // demo-metered: no IT ever denies it (UsageIT spends a few of its 1,000 per key), whatever ran before.
                assertFalse(drawn(browser, "demo-metered", "denied"), "a limit nobody was denied by stays flat");

                List<String> denied = rows(browser, "#denied tr[data-limit='demo-user']");
                assertTrue(
                        denied.contains("demo-user " + StoreKeys.clientHash(user) + " 6"),
                        "the client by its key's hash with its 6 denials: " + denied);
                assertFalse(browser.getPageSource().contains(user), "never the client key");

                List<String> outage = cells(browser, "#outages tr[data-cause]");
                assertTrue(List.of("timeout", "refused", "breaker-open").contains(outage.get(3)), outage.toString());
                assertTrue(Long.parseLong(outage.get(2)) >= 4, "degraded decisions of the outage: " + outage);
                assertTrue(outage.get(1).endsWith(" s"), "lasted seconds, and ended: " + outage);
                assertEquals(
                        "breaker closed: Redis answering",
                        script(browser, "return document.querySelector(arguments[0]).textContent;", "#breaker"));

                List<String> lock = cells(browser, lockRow);
                assertEquals(List.of(lockName, HOLDER, Long.toString(held.fencingToken())), lock.subList(0, 3));
                assertTrue(lock.get(3).matches("[0-9.]+ (ms|s|min|h)"), "time left in a person's units: " + lock);
                assertEquals(
                        "3 per hour, bursts of 3",
                        cells(browser, "#limits tr[data-limit='demo-user']").get(1),
                        "the README's words, not token-bucket 3 +3 / 3600000 ms");

                Path shot = Path.of(System.getProperty("console.screenshot", "target/console.png"));
                Files.createDirectories(shot.toAbsolutePath().getParent());
                Files.write(shot, ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES));

                wait.until(b -> {
                    b.findElement(By.cssSelector(lockRow + " button")).click();
                    return true;
                });
                wait.until(b -> {
                    try {
                        b.switchTo().alert().accept();
                        return true;
                    } catch (NoAlertPresentException e) {
                        return false;
                    }
                });
                wait.until(b -> rows(b, lockRow).isEmpty());
                assertTrue(browser.findElement(By.id("answer")).getText().startsWith("200 "));
                assertFalse(held.extend(Duration.ofMinutes(2)), "force-released from the page");
            } finally {
                browser.quit();
            }
        }
    }

    /** Redis frozen for 4 calls on the first server (3 wait out the budget, the breaker opens), then thawed. */
    private static void anOutage() throws Exception {
        redis.pause();
        try {
            for (int i = 0; i < 4; i++) {
                assertEquals(200, LibertyServer.get("/demo/user/outage-" + i).statusCode(), "fail-open");
            }
        } finally {
            redis.resume();
        }
        Breaker.await(false);
        RedisReady.awaitBoth();
        assertEquals(200, LibertyServer.get("/demo/user/after-outage").statusCode(), "answered: the outage ends");
    }

    /** Chromium through Debian's driver; with both named, Selenium Manager is never run (nothing downloaded). */
    private static WebDriver chromium() {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File("target/chromedriver.log"))
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,2000");
        return new ChromeDriver(service, options);
    }

    /** What the limit's row says per minute for the outcome; -1 before the row is drawn. */
    private static long count(WebDriver b, String limit, String outcome) {
        Object text = script(
                b,
                "const c = document.querySelector(arguments[0]); return c ? c.textContent : null;",
                "#limits tr[data-limit='" + limit + "'] td[data-outcome='" + outcome + "']");
        return text == null ? -1 : Long.parseLong((String) text);
    }

    /** Whether the outcome's line of the limit's chart leaves the baseline (40 px high, baseline y=38). */
    private static boolean drawn(WebDriver b, String limit, String outcome) {
        String points = (String) script(
                b,
                "return document.querySelector(arguments[0]).getAttribute('points');",
                "#limits tr[data-limit='" + limit + "'] polyline[data-outcome='" + outcome + "']");
        return Arrays.stream(points.split(" ")).anyMatch(p -> Double.parseDouble(p.split(",")[1]) < 38);
    }

    /** The cells' texts of the first row that {@code row} selects. */
    @SuppressWarnings("unchecked")
    private static List<String> cells(WebDriver b, String row) {
        return (List<String>)
                script(b, "return [...document.querySelector(arguments[0]).cells].map(c => c.textContent);", row);
    }

    /** Each row's cells' texts joined by a space, of every row that {@code rows} selects. */
    @SuppressWarnings("unchecked")
    private static List<String> rows(WebDriver b, String rows) {
        return (List<String>) script(
                b,
                "return [...document.querySelectorAll(arguments[0])].map(r => [...r.cells].map(c => c.textContent).join(' '));",
                rows);
    }

    private static Object script(WebDriver b, String script, String selector) {
        return ((JavascriptExecutor) b).executeScript(script, selector);
    }
}
