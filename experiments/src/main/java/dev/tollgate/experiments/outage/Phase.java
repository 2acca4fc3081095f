package dev.tollgate.experiments.outage;

import java.awt.Color;

/** The outage's phases, in the order they run, with the article's figure where it gave one. */
enum Phase {
    HEALTHY(
            "healthy",
            "healthy",
            "Redis answers",
            Guard.BREAKER_ON,
            Role.BASELINE,
            new Color(0x2E, 0x6F, 0xB5),
            "the baseline (no figure given)"),
    DEAD(
            "dead",
            "dead (SIGKILL)",
            "Redis SIGKILLed: connections reset, then refused",
            Guard.BREAKER_ON,
            Role.REFUSED,
            new Color(0x88, 0x88, 0x88),
            "faster than healthy: the socket closes, every check fails at once"),
    RESTARTED(
            "restarted",
            "restarted",
            "a new redis-server on the same port: no keys, no scripts",
            Guard.BREAKER_ON,
            Role.RECOVERY,
            new Color(0x3C, 0x9D, 0x5D),
            "the client reconnected and reloaded the script on its own"),
    HUNG_BREAKER_OFF(
            "hung-breaker-off",
            "hung (SIGSTOP), breaker off",
            "Redis SIGSTOPped; a breaker that never opens (threshold Integer.MAX_VALUE)",
            Guard.BREAKER_OFF,
            Role.HANG_NO_BREAKER,
            new Color(0xD6, 0x4F, 0x3C),
            "~250 ms for every one of the 300 checks, slowest 253 ms (no breaker)"),
    HUNG_BREAKER_ON(
            "hung-breaker-on",
            "hung (SIGSTOP), breaker on",
            "still SIGSTOPped; Tollgate's breaker: 3 failures open it, probe every 100 ms",
            Guard.BREAKER_ON,
            Role.HANG,
            new Color(0xE0, 0x9A, 0x25),
            "(no breaker in the article: \"what's missing is a circuit breaker\")"),
    RESUMED(
            "resumed",
            "resumed (SIGCONT)",
            "SIGCONT: the same process runs again",
            Guard.BREAKER_ON,
            Role.RECOVERY,
            new Color(0x7B, 0x4F, 0xA8),
            "the next check succeeded normally"),
    PAUSED_WRITE(
            "paused-write",
            "CLIENT PAUSE WRITE, breaker on",
            "`CLIENT PAUSE 60000 WRITE`: Redis runs, answers reads, and holds every write command, scripts"
                    + " included, until unpaused",
            Guard.BREAKER_ON,
            Role.HANG,
            new Color(0xB0, 0x3A, 0x8C),
            "(not in the article)"),
    UNPAUSED(
            "unpaused",
            "unpaused (CLIENT UNPAUSE)",
            "`CLIENT UNPAUSE`: writes run again",
            Guard.BREAKER_ON,
            Role.RECOVERY,
            new Color(0x5A, 0xA9, 0xC9),
            "(not in the article)"),
    LINK_HEALTHY(
            "link-healthy",
            "healthy, through the link",
            "a third Tollgate (defaults, breaker on) reaching the same Redis through a TCP proxy (NetCrusher),"
                    + " built and warmed up here; the link's baseline",
            Guard.THROUGH_LINK,
            Role.BASELINE,
            new Color(0x1F, 0x4E, 0x79),
            "(not in the article)"),
    LINK_FROZEN(
            "link-frozen",
            "frozen link, breaker on",
            "the proxy freezes: no byte moves either way and new connections are not served (Redis itself" + " runs)",
            Guard.THROUGH_LINK,
            Role.HANG,
            new Color(0x99, 0x66, 0x33),
            "(not in the article)"),
    LINK_THAWED(
            "link-thawed",
            "thawed link",
            "the proxy unfreezes",
            Guard.THROUGH_LINK,
            Role.RECOVERY,
            new Color(0x66, 0xAA, 0x66),
            "(not in the article)"),
    LINK_SLOW(
            "link-slow",
            "link slower than the budget, breaker on",
            "the proxy delays every reply from Redis by " + OutageExperiment.SLOW_LINK.toMillis()
                    + " ms (the budget + 150 ms)",
            Guard.THROUGH_LINK,
            Role.HANG,
            new Color(0xC8, 0x2E, 0x2E),
            "(not in the article)"),
    LINK_FAST(
            "link-fast",
            "link fast again",
            "replies flow at full speed again",
            Guard.THROUGH_LINK,
            Role.RECOVERY,
            new Color(0x2E, 0x9E, 0x8F),
            "(not in the article)");

    /** Which Tollgate a phase's checks go to. */
    enum Guard {
        /** Tollgate's defaults, straight to Redis. */
        BREAKER_ON,
        /** The same settings but a breaker that never opens: the article's situation. */
        BREAKER_OFF,
        /** Tollgate's defaults, through the TCP proxy. */
        THROUGH_LINK
    }

    /** What a phase is, which says how many of its checks may wait out the budget. */
    enum Role {
        /** Redis answers: none waits. */
        BASELINE("0"),
        /** Redis refuses at once (reset, refused): none waits. */
        REFUSED("0"),
        /** Redis cannot answer within the budget, breaker on: the threshold's 3 wait, then none. */
        HANG("3"),
        /** Redis hangs and the breaker never opens: every check waits. */
        HANG_NO_BREAKER("all"),
        /** The fault has ended and the guard closed again (waited for without checks): none waits. */
        RECOVERY("0");

        /** How many checks should wait out the budget: a number, or {@code all}. */
        final String paidGoal;

        Role(String paidGoal) {
            this.paidGoal = paidGoal;
        }
    }

    final String id;
    final String label;
    final String what;
    final Guard guard;
    final Role role;
    final Color color;
    final String article;

    Phase(String id, String label, String what, Guard guard, Role role, Color color, String article) {
        this.id = id;
        this.label = label;
        this.what = what;
        this.guard = guard;
        this.role = role;
        this.color = color;
        this.article = article;
    }

    /** Whether the phase starts by ending a fault, so it first waits (without checks) for the guard to close. */
    boolean recovers() {
        return role == Role.RECOVERY;
    }

    /** Whether a fault with the breaker on starts here: it must start from a closed breaker. */
    boolean outageWithBreaker() {
        return role == Role.HANG || role == Role.REFUSED;
    }
}
