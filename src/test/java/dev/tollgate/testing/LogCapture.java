package dev.tollgate.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what one logger writes, at every level, while open. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Level previous;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture(Class<?> source) {
        logger = Logger.getLogger(source.getName());
        previous = logger.getLevel();
        logger.setLevel(Level.ALL);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /** The messages logged at exactly {@code level}. */
    public List<String> at(Level level) {
        return records.stream()
                .filter(r -> r.getLevel().equals(level))
                .map(LogRecord::getMessage)
                .toList();
    }

    /** Whether every record logged at {@code level} is one line without a stack trace. */
    public boolean oneLineEach(Level level) {
        return records.stream()
                .filter(r -> r.getLevel().equals(level))
                .allMatch(r -> r.getThrown() == null && !r.getMessage().contains("\n"));
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previous);
    }
}
