package dev.tollgate.internal.lock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Wakes the threads of this JVM that wait for a lock when they hear that it was released. */
final class ReleaseNotices {

    private final ConcurrentHashMap<String, Set<Notice>> waiting = new ConcurrentHashMap<>();

    /** One waiter's ear for one lock: registered before it tries, so no release in between is missed. */
    final class Notice implements AutoCloseable {
        private final String name;
        private final Semaphore heard = new Semaphore(0);

        private Notice(String name) {
            this.name = name;
        }

        /** Waits until a release of the lock is heard or {@code nanos} pass; true when heard. */
        boolean await(long nanos) throws InterruptedException {
            return heard.tryAcquire(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        }

        @Override
        public void close() {
            waiting.computeIfPresent(name, (k, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
        }
    }

    Notice expect(String name) {
        Notice n = new Notice(name);
        waiting.compute(name, (k, set) -> {
            Set<Notice> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(n);
            return s;
        });
        return n;
    }

    /** Wakes every waiter of {@code name}. */
    void released(String name) {
        Set<Notice> set = waiting.get(name);
        if (set != null) {
            set.forEach(n -> n.heard.release());
        }
    }

    /** Whether anyone in this JVM waits for a lock now. */
    boolean anyWaiting() {
        return !waiting.isEmpty();
    }
}
