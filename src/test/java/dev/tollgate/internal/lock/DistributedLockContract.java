package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.KeepAlive;
import dev.tollgate.LockAdmin;
import dev.tollgate.LockHandle;
import dev.tollgate.LockHold;
import dev.tollgate.LockLost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What every {@link DistributedLock} must do, asserted exactly. A lock's test extends this and says
 * how to let time pass on the lock's own clock.
 */
public abstract class DistributedLockContract {

    protected abstract DistributedLock lock();

    /** Lets at least {@code d} pass on the lock's clock (and its keep-alives' clock). */
    protected abstract void elapse(Duration d) throws InterruptedException;

    /** Every loss the lock's listener was told of, in order. */
    protected abstract List<LockLost> lost();

    protected List<LockLost> lostFor(String name) {
        return lost().stream().filter(l -> l.lockName().equals(name)).toList();
    }

    /** The lock's clock, in microseconds (Redis {@code TIME}, or the in-process clock). */
    protected abstract long nowMicros();

    /**
     * Lets time pass on the lock's clock until a loss of {@code name} is reported (the keep-alive's first
     * round), at most 10 s of it: a handshake with the keep-alive thread, not a guess at its schedule.
     */
    protected void awaitLost(String name) throws InterruptedException {
        for (int i = 0; i < 200 && lostFor(name).isEmpty(); i++) {
            elapse(Duration.ofMillis(50));
        }
    }

    protected static String freshName() {
        return "contract-" + UUID.randomUUID();
    }

    protected LockHandle acquire(String name, Duration ttl) {
        Acquisition a = lock().tryAcquire(name, ttl);
        return assertInstanceOf(Acquisition.Acquired.class, a, "expected to acquire " + name)
                .lock();
    }

    protected void assertHeldElsewhere(String name) {
        assertInstanceOf(Acquisition.HeldElsewhere.class, lock().tryAcquire(name, Duration.ofSeconds(10)));
    }

    @Test
    void heldLockIsHeldElsewhereForEveryoneElse() {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofSeconds(10));
        Acquisition second = lock().tryAcquire(name, Duration.ofSeconds(10));
        Acquisition.HeldElsewhere elsewhere = assertInstanceOf(Acquisition.HeldElsewhere.class, second);
        assertEquals(name, elsewhere.lockName());
        assertTrue(second.handle().isEmpty());
        assertTrue(
                elsewhere.expiresIn().compareTo(Duration.ZERO) > 0
                        && elsewhere.expiresIn().compareTo(Duration.ofSeconds(10)) <= 0,
                "expires in " + elsewhere.expiresIn());
        assertTrue(held.release());
    }

    @Test
    void releasedLockCanBeTakenAgainWithAHigherFencingToken() {
        String name = freshName();
        LockHandle first = acquire(name, Duration.ofSeconds(10));
        assertTrue(first.fencingToken() > 0, "a lock name's first acquisition");
        assertTrue(first.release());
        LockHandle second = acquire(name, Duration.ofSeconds(10));
        assertTrue(second.fencingToken() > first.fencingToken());
        assertTrue(second.release());
    }

    /** Tokens never go below the lock's clock in microseconds: a lost counter cannot hand out an old one. */
    @Test
    void fencingTokensGrowAndAreNeverBelowTheClockInMicroseconds() throws Exception {
        String a = freshName();
        long last = 0;
        for (int i = 0; i < 5; i++) {
            long before = nowMicros();
            LockHandle h = acquire(a, Duration.ofSeconds(10));
            assertTrue(h.fencingToken() > last, "token " + i + " grows");
            assertTrue(h.fencingToken() >= before, "not below the clock");
            last = h.fencingToken();
            h.close();
        }
        assertTrue(acquire(freshName(), Duration.ofSeconds(10)).fencingToken() > 0, "another name has its own");
    }

    // Where a lock must still be held at the next call, its ttl is 600 ms: a loaded machine stalled a test
    // for more than 200 ms between two calls. Waiting longer than a ttl can only make a lock more expired.
    @Test
    void expiredLockCanBeTakenByAnother() throws Exception {
        String name = freshName();
        acquire(name, Duration.ofMillis(600));
        assertHeldElsewhere(name);
        elapse(Duration.ofMillis(650));
        assertInstanceOf(Acquisition.Acquired.class, lock().tryAcquire(name, Duration.ofSeconds(10)));
    }

    @Test
    void aDeadHolderBlocksForAtMostTheTtl() throws Exception {
        String name = freshName();
        acquire(name, Duration.ofMillis(600));
        long taken = nowMicros(); // not before the store took it
        Acquisition blocked = lock().tryAcquire(name, Duration.ofSeconds(10));
        assertInstanceOf(Acquisition.HeldElsewhere.class, blocked);
        assertTrue(
                ((Acquisition.HeldElsewhere) blocked).expiresIn().compareTo(Duration.ofMillis(600)) <= 0,
                "the holder's time left is within its ttl: " + blocked);
        // One millisecond past the ttl, counted from a moment after the lock was taken: its holder is gone.
        long deadline = taken + 601_000;
        elapse(Duration.ofNanos(Math.max(0, deadline - nowMicros()) * 1000));
        assertInstanceOf(
                Acquisition.Acquired.class,
                lock().tryAcquire(name, Duration.ofSeconds(10)),
                "a dead holder blocks for the ttl, not longer");
    }

    @Test
    void oldTokenCannotReleaseNewHoldersLock() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(200));
        elapse(Duration.ofMillis(250));
        LockHandle current = acquire(name, Duration.ofSeconds(10));
        assertFalse(old.release(), "the expired holder's release is refused");
        assertHeldElsewhere(name);
        assertTrue(current.release(), "the new holder still holds it");
    }

    @Test
    void oldTokenCannotExtendNewHoldersLock() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(200));
        elapse(Duration.ofMillis(250));
        LockHandle current = acquire(name, Duration.ofMillis(300));
        assertFalse(old.extend(Duration.ofHours(1)), "the expired holder's extend is refused");
        elapse(Duration.ofMillis(350));
        assertInstanceOf(
                Acquisition.Acquired.class,
                lock().tryAcquire(name, Duration.ofSeconds(10)),
                "expired on the new holder's ttl");
        assertFalse(current.release());
    }

    @Test
    void expiredLockThatNobodyTookCannotBeReleasedOrExtended() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(200));
        elapse(Duration.ofMillis(250));
        assertFalse(old.extend(Duration.ofSeconds(10)));
        assertFalse(old.release());
        assertInstanceOf(Acquisition.Acquired.class, lock().tryAcquire(name, Duration.ofSeconds(10)));
    }

    @Test
    void extendKeepsTheLockPastItsTtl() throws Exception {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofMillis(600));
        assertTrue(held.extend(Duration.ofSeconds(10)));
        elapse(Duration.ofMillis(650));
        assertHeldElsewhere(name);
        assertTrue(held.release());
    }

    @Test
    void extendWithLessThanTheRemainingTtlShortensTheHold() throws Exception {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofSeconds(10));
        assertTrue(held.extend(Duration.ofMillis(600)));
        assertHeldElsewhere(name);
        elapse(Duration.ofMillis(650));
        assertInstanceOf(Acquisition.Acquired.class, lock().tryAcquire(name, Duration.ofSeconds(10)));
    }

    @Test
    void closeReleasesAndASecondCloseLeavesTheNextHolderAlone() {
        String name = freshName();
        LockHandle first = acquire(name, Duration.ofSeconds(10));
        try (LockHandle held = first) {
            assertHeldElsewhere(name);
            assertEquals(name, held.name());
        }
        LockHandle again = acquire(name, Duration.ofSeconds(10));
        first.close();
        assertHeldElsewhere(name);
        assertTrue(again.release());
    }

    @Test
    void ttlMustBePositive() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), null}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> lock().tryAcquire("job", bad));
            assertEquals("lock 'job': ttl must be > 0, but was " + bad, e.getMessage());
        }
    }

    @Test
    void subMillisecondTtlIsRoundedUpNotRefused() {
        String name = freshName();
        assertInstanceOf(Acquisition.Acquired.class, lock().tryAcquire(name, Duration.ofNanos(1)));
    }

    @Test
    void nameMustBeKeySafe() {
        for (String bad : new String[] {"", "a b", "{x}", "x".repeat(129), null}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> lock().tryAcquire(bad, Duration.ofSeconds(1)));
            assertTrue(e.getMessage().startsWith("lock name must be"), e.getMessage());
        }
    }

    @Test
    void tokensAre16RandomBytesInHexThenTheHoldersName() {
        HeldLock a = (HeldLock) acquire(freshName(), Duration.ofSeconds(10));
        HeldLock b = (HeldLock) acquire(freshName(), Duration.ofSeconds(10));
        assertTrue(a.token().matches("[0-9a-f]{32}:" + Pattern.quote(LockNames.thisProcess())), a.token());
        assertNotEquals(a.token(), b.token());
    }

    private LockAdmin admin() {
        return (LockAdmin) lock();
    }

    private Optional<LockHold> heldAs(String name) {
        return admin().held().stream().filter(h -> h.name().equals(name)).findFirst();
    }

    @Test
    void heldListsTheHolderItsFencingTokenAndTimeLeftButNeverItsSecret() {
        String name = freshName();
        HeldLock held = (HeldLock) acquire(name, Duration.ofSeconds(30));
        LockHold hold = heldAs(name).orElseThrow(() -> new AssertionError(name + " not in " + admin().held()));
        assertEquals(new LockHold(name, LockNames.thisProcess(), held.fencingToken(), hold.timeLeft()), hold);
        assertTrue(
                hold.timeLeft().compareTo(Duration.ZERO) > 0 && hold.timeLeft().compareTo(Duration.ofSeconds(30)) <= 0,
                "time left " + hold.timeLeft());
        assertFalse(hold.toString().contains(held.token().substring(0, 32)), "the secret is never shown");
        assertTrue(held.release());
        assertEquals(Optional.empty(), heldAs(name), "a released lock is not held");
    }

    @Test
    void forcedReleaseLetsTheNextHolderInAboveTheOldFencingTokenAndTheOldHolderFindsItTaken() {
        String name = freshName();
        LockHandle stuck = acquire(name, Duration.ofSeconds(30));
        assertTrue(admin().forceRelease(name));
        assertEquals(Optional.empty(), heldAs(name));
        LockHandle next = acquire(name, Duration.ofSeconds(30));
        assertTrue(next.fencingToken() > stuck.fencingToken(), next + " after " + stuck);
        assertFalse(stuck.extend(Duration.ofSeconds(30)), "the old holder's token no longer holds it");
        assertEquals(List.of(new LockLost(name, stuck.fencingToken(), LockLost.Reason.TAKEN)), lostFor(name));
        assertFalse(stuck.release(), "nor releases the next holder's lock");
        assertTrue(next.extend(Duration.ofSeconds(30)), "the next holder keeps it");
        assertTrue(next.release());
    }

    @Test
    void forcedReleaseByFencingTokenLeavesALaterHolderAlone() {
        String name = freshName();
        LockHandle first = acquire(name, Duration.ofSeconds(30));
        assertTrue(first.release());
        LockHandle second = acquire(name, Duration.ofSeconds(30));
        assertFalse(admin().forceRelease(name, first.fencingToken()), "the holder the operator saw has gone");
        assertTrue(second.extend(Duration.ofSeconds(30)));
        assertTrue(admin().forceRelease(name, second.fencingToken()));
        assertFalse(second.release());
    }

    @Test
    void forcedReleaseOfAFreeLockReleasesNothing() {
        String name = freshName();
        assertFalse(admin().forceRelease(name));
        assertFalse(admin().forceRelease(name, 1));
        assertThrows(IllegalArgumentException.class, () -> admin().forceRelease("no spaces"));
    }

    @Test
    void exactlyOneOf32ConcurrentCallersAcquires() throws Exception {
        for (int trial = 0; trial < 5; trial++) {
            String name = freshName();
            ExecutorService pool = Executors.newFixedThreadPool(32);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<Acquisition>> results = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return lock().tryAcquire(name, Duration.ofSeconds(10));
                    }));
                }
                start.countDown();
                int acquired = 0;
                int elsewhere = 0;
                for (Future<Acquisition> f : results) {
                    Acquisition a = f.get();
                    acquired += a instanceof Acquisition.Acquired ? 1 : 0;
                    elsewhere += a instanceof Acquisition.HeldElsewhere ? 1 : 0;
                }
                assertEquals(1, acquired, "trial " + trial);
                assertEquals(31, elsewhere, "trial " + trial);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void keptAliveLockOutlivesItsTtlUntilReleased() throws Exception {
        String name = freshName();
        // Extended every 400 ms: only a stall of 800 ms between two extends could lose it (a 300 ms ttl,
        // 200 ms of slack, was not enough on a loaded machine).
        LockHandle held = acquire(name, Duration.ofMillis(1200));
        held.keepAlive();
        elapse(Duration.ofMillis(1500));
        assertHeldElsewhere(name);
        assertTrue(held.isHeld());
        assertTrue(held.release());
        assertFalse(held.isHeld());
        awaitEveryKeepAliveRoundDueBy(Duration.ofMillis(400));
        assertTrue(
                acquire(name, Duration.ofSeconds(10)).fencingToken() > held.fencingToken(),
                "no keep-alive after the release");
        assertEquals(List.of(), lostFor(name), "a keep-alive round after the release would find the lock gone");
    }

    /**
     * A handshake with the keep-alive thread, not a guess at its schedule: returns once every keep-alive
     * round due within {@code period} from now has run. A marker lock whose rounds come every
     * {@code period} is taken, force-released and kept alive; its first round, due one period after this
     * call, finds it gone and reports it. Rounds run one at a time in the order they fall due, so every
     * round due before it has run by then.
     */
    protected void awaitEveryKeepAliveRoundDueBy(Duration period) throws InterruptedException {
        String marker = freshName();
        LockHandle m = acquire(marker, period.multipliedBy(3));
        assertTrue(admin().forceRelease(marker));
        m.keepAlive();
        awaitLost(marker);
        assertEquals(1, lostFor(marker).size(), "the marker's keep-alive came round");
    }

    @Test
    void closedKeepAliveLeavesTheLockToExpireAtItsTtl() throws Exception {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofMillis(1200));
        KeepAlive keepAlive = held.keepAlive();
        assertSame(held.keepAlive().getClass(), keepAlive.getClass(), "a second call starts nothing new");
        elapse(Duration.ofMillis(1500));
        assertHeldElsewhere(name);
        keepAlive.close();
        elapse(Duration.ofMillis(1300));
        assertTrue(acquire(name, Duration.ofSeconds(10)).fencingToken() > held.fencingToken(), "it expired");
        assertFalse(held.isHeld());
    }

    @Test
    void isHeldEndsWithTheTtlBeforeAnyoneAsksTheStore() throws Exception {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofMillis(200));
        assertTrue(held.isHeld());
        elapse(Duration.ofMillis(250));
        assertFalse(held.isHeld());
        assertEquals(List.of(), lostFor(name), "nothing has asked the store yet");
    }

    @Test
    void extendRefusedAfterTheTtlReportsTheLockLostOnce() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(200));
        elapse(Duration.ofMillis(250));
        assertFalse(old.extend(Duration.ofSeconds(10)));
        assertFalse(old.release());
        assertEquals(List.of(new LockLost(name, old.fencingToken(), LockLost.Reason.EXPIRED)), lostFor(name));
    }

    @Test
    void releaseThatFindsAnotherHolderReportsTaken() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(200));
        elapse(Duration.ofMillis(250));
        LockHandle current = acquire(name, Duration.ofSeconds(10));
        assertFalse(old.release());
        assertEquals(List.of(new LockLost(name, old.fencingToken(), LockLost.Reason.TAKEN)), lostFor(name));
        assertTrue(current.release());
    }

    @Test
    void keepAliveThatFindsAnotherHolderReportsTakenAndStops() throws Exception {
        String name = freshName();
        LockHandle old = acquire(name, Duration.ofMillis(300));
        elapse(Duration.ofMillis(350));
        LockHandle current = acquire(name, Duration.ofSeconds(10));
        old.keepAlive();
        awaitLost(name);
        elapse(Duration.ofMillis(300)); // three more rounds of a keep-alive that had not stopped
        assertEquals(List.of(new LockLost(name, old.fencingToken(), LockLost.Reason.TAKEN)), lostFor(name));
        assertFalse(old.isHeld());
        assertTrue(current.isHeld());
        assertTrue(current.release());
    }

    @Test
    void releasedLockIsNeverReportedLost() throws Exception {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofMillis(200));
        assertTrue(held.release());
        assertFalse(held.release(), "a second release finds nothing");
        assertFalse(held.extend(Duration.ofSeconds(1)));
        elapse(Duration.ofMillis(250));
        held.close();
        assertEquals(List.of(), lostFor(name));
    }

    @Test
    void waitingWithZeroMaxWaitIsOneAttempt() {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofSeconds(10));
        assertInstanceOf(
                Acquisition.HeldElsewhere.class, lock().tryAcquire(name, Duration.ofSeconds(1), Duration.ZERO));
        assertTrue(held.release());
        assertInstanceOf(Acquisition.Acquired.class, lock().tryAcquire(name, Duration.ofSeconds(1), Duration.ZERO));
    }

    @Test
    void maxWaitMustNotBeNegative() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lock().tryAcquire(
                        "job", Duration.ofSeconds(1), Duration.ofMillis(-1)));
        assertEquals("lock 'job': maxWait must be >= 0, but was PT-0.001S", e.getMessage());
    }
}
