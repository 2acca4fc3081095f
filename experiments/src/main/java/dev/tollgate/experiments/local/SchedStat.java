package dev.tollgate.experiments.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The scheduler's counters of the thread that opened it, from {@code /proc/thread-self/schedstat} (Linux,
 * {@code CONFIG_SCHED_INFO}): nanoseconds on a CPU, nanoseconds runnable but waiting on a run queue, and
 * timeslices. The file is opened once and read again from offset 0 (the kernel writes it anew for each
 * read), into a buffer of its own: a read allocates nothing and takes a few microseconds, so it is made
 * around a block of calls, never around one.
 */
final class SchedStat implements AutoCloseable {

    /** Indexes into what {@link #read} fills. */
    static final int ON_CPU = 0;

    static final int RUN_QUEUE = 1;
    static final int SLICES = 2;

    private final FileChannel file;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(128);

    private SchedStat(FileChannel file) {
        this.file = file;
    }

    /** The calling thread's counters, or one that reads none where the file is missing. */
    static SchedStat ofCurrentThread() {
        try {
            SchedStat s = new SchedStat(FileChannel.open(Path.of("/proc/thread-self/schedstat")));
            return s.read(new long[3]) ? s : new SchedStat(null);
        } catch (IOException | UnsupportedOperationException e) {
            return new SchedStat(null);
        }
    }

    /** The three counters into {@code into[0..2]}; false when unreadable (then {@code into} means nothing). */
    boolean read(long[] into) {
        if (file == null) {
            return false;
        }
        try {
            buffer.clear();
            int n = file.read(buffer, 0);
            int field = 0;
            long value = 0;
            boolean digits = false;
            for (int i = 0; i < n && field < 3; i++) {
                byte b = buffer.get(i);
                if (b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                    digits = true;
                } else if (digits) {
                    into[field++] = value;
                    value = 0;
                    digits = false;
                }
            }
            if (digits && field < 3) {
                into[field++] = value;
            }
            return field == 3;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close();
        }
    }
}
