package dev.tollgate.experiments.outage;

import java.awt.Color;

/** The outage's phases, in the order they run, with the article's figure where it gave one. */
enum Phase {
    HEALTHY("healthy", "healthy", "Redis answers", new Color(0x2E, 0x6F, 0xB5), "the baseline (no figure given)"),
    DEAD(
            "dead",
            "dead (SIGKILL)",
            "Redis SIGKILLed: connections reset, then refused",
            new Color(0x88, 0x88, 0x88),
            "faster than healthy: the socket closes, every check fails at once"),
    RESTARTED(
            "restarted",
            "restarted",
            "a new redis-server on the same port: no keys, no scripts",
            new Color(0x3C, 0x9D, 0x5D),
            "the client reconnected and reloaded the script on its own"),
    HUNG_BREAKER_OFF(
            "hung-breaker-off",
            "hung (SIGSTOP), breaker off",
            "Redis SIGSTOPped; a breaker that never opens (threshold Integer.MAX_VALUE)",
            new Color(0xD6, 0x4F, 0x3C),
            "~250 ms for every one of the 300 checks, slowest 253 ms (no breaker)"),
    HUNG_BREAKER_ON(
            "hung-breaker-on",
            "hung (SIGSTOP), breaker on",
            "still SIGSTOPped; Tollgate's breaker: 3 failures open it, probe every 100 ms",
            new Color(0xE0, 0x9A, 0x25),
            "(no breaker in the article: \"what's missing is a circuit breaker\")"),
    RESUMED(
            "resumed",
            "resumed (SIGCONT)",
            "SIGCONT: the same process runs again",
            new Color(0x7B, 0x4F, 0xA8),
            "the next check succeeded normally");

    final String id;
    final String label;
    final String what;
    final Color color;
    final String article;

    Phase(String id, String label, String what, Color color, String article) {
        this.id = id;
        this.label = label;
        this.what = what;
        this.color = color;
        this.article = article;
    }
}
