package dev.tollgate.jaxrs;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.RequestScoped;

/**
 * One operator call, as its audit line will tell it: opened by {@link OperatorAudit} before the resource
 * runs (what was asked), filled in by the resource as it acts (what it set out to do, what it did, what
 * failed on the way) and written, once, when the answer leaves, whatever it is. A call whose answer never
 * passed the response filter (an error no mapper answered) is written when the request ends.
 */
@RequestScoped
public class OperatorCall {

    private String request; // "METHOD /path?query", the client key as its hash; null: not an operator call
    private String who;
    private String asked;
    private String did;
    private String failure;

    /** Opens the record of {@code request} by {@code who}: called before anything of the call ran. */
    void open(String who, String request) {
        this.who = who;
        this.request = request;
    }

    /** What the resource sets out to change, e.g. {@code "unblock limit 'api' for client <hash>"}. */
    void asked(String what) {
        this.asked = what;
    }

    /** What it did, e.g. {@code "unblocked limit 'api' for client <hash>"}: the line's outcome. */
    void did(String what) {
        this.did = what;
    }

    /** Why it failed part way, e.g. a change made in Redis whose announcement failed. */
    void failed(String why) {
        this.failure = why;
    }

    /** Writes the one line for the answer {@code status}; nothing for a call not opened, or written already. */
    void close(int status) {
        if (request != null) {
            OperatorAudit.write(who + " " + outcome(status) + " [" + request + " -> " + status + "]");
            request = null;
        }
    }

    private String outcome(int status) {
        if (did != null && status < 400) {
            return did;
        }
        String what = asked == null ? "" : " to " + asked;
        if (failure != null) {
            return "asked" + what + ", which failed: " + failure;
        }
        if (status >= 500) {
            return "asked" + what + ", which failed";
        }
        if (status >= 400) {
            return "was refused" + (asked == null ? "" : " (asked" + what + ")");
        }
        return asked == null ? "read" : asked;
    }

    @PreDestroy
    void unanswered() {
        close(500);
    }
}
