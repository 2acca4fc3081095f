package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tollgate.testing.LogCapture;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The audit logger is hard to silence by accident, and says so once when it is silenced. */
class OperatorAuditTest {

    private final Logger audit = Logger.getLogger(OperatorAudit.LOGGER);
    private final List<LogRecord> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void listen() {
        audit.addHandler(handler);
    }

    @AfterEach
    void stop() {
        audit.removeHandler(handler);
        audit.setLevel(null);
    }

    @Test
    void aWarningThresholdKeepsTheAuditLines() {
        audit.setLevel(Level.WARNING);
        OperatorAudit.write("operator read [GET /tollgate/admin/state -> 200]");
        assertEquals(1, lines.size());
        assertEquals(OperatorAudit.AUDIT, lines.get(0).getLevel());
        assertEquals(
                "Tollgate audit: operator read [GET /tollgate/admin/state -> 200]",
                lines.get(0).getMessage());
    }

    @Test
    void aSilencedTrailSaysSoOnceAtSevere() {
        audit.setLevel(Level.OFF);
        try (LogCapture told = new LogCapture(OperatorAudit.class)) {
            OperatorAudit.write("operator read [GET /tollgate/admin/state -> 200]");
            OperatorAudit.write("operator read [GET /tollgate/admin/state -> 200]");
            assertEquals(1, told.at(Level.SEVERE).size(), told.at(Level.SEVERE).toString());
        }
        assertEquals(List.of(), lines);
    }

    @Test
    void noLineCanBeForged() {
        String cleaned = OperatorAudit.clean("x\r\nTollgate audit: admin reset everything\u2028", 200);
        assertFalse(cleaned.contains("\n") || cleaned.contains("\r") || cleaned.contains("\u2028"), cleaned);
        assertEquals("ab...", OperatorAudit.clean("abc", 2));
    }
}
