package it.dev.tollgate;

/** The first IT server's breaker, as its {@code tollgate_breaker_open} gauge says. */
final class Breaker {

    private Breaker() {}

    /** 1 while the server makes degraded decisions without asking Redis, 0 otherwise. */
    static long gauge() {
        for (String line : LibertyServer.metrics().split("\n")) {
            if (line.startsWith("tollgate_breaker_open{")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no tollgate_breaker_open gauge on /metrics");
    }

    /** Waits up to 10 s for the breaker to be {@code open} (or closed). */
    static void await(boolean open) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if ((gauge() == 1) == open) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("breaker did not become " + (open ? "open" : "closed") + " within 10 s");
    }
}
