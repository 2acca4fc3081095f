package dev.tollgate.experiments.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The kernel's counters of the thread that opened it (Linux): from {@code /proc/thread-self/schedstat}
 * ({@code CONFIG_SCHED_INFO}) nanoseconds on a CPU, nanoseconds runnable but waiting on a run queue and
 * timeslices; from {@code /proc/thread-self/stat} its minor and major page faults and the CPU it last ran on.
 * The files are opened once
 * and read again from offset 0 (the kernel writes them anew for each read), into a buffer of their own: a
 * read allocates nothing and takes a few microseconds, so it is made around a block of calls, never around
 * one.
 */
final class ThreadCounters implements AutoCloseable {

    /** Indexes into what {@link #read} fills. */
    static final int ON_CPU = 0;

    static final int RUN_QUEUE = 1;
    static final int SLICES = 2;
    static final int FAULTS = 3;
    static final int CPU = 4;
    static final int COUNTERS = 5;

    private final FileChannel schedstat;
    private final FileChannel stat;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1024);
    private final long[] fields = new long[36];

    private ThreadCounters(FileChannel schedstat, FileChannel stat) {
        this.schedstat = schedstat;
        this.stat = stat;
    }

    /** The calling thread's counters, or one that reads none where the files are missing. */
    static ThreadCounters ofCurrentThread() {
        try {
            ThreadCounters c = new ThreadCounters(
                    FileChannel.open(Path.of("/proc/thread-self/schedstat")),
                    FileChannel.open(Path.of("/proc/thread-self/stat")));
            if (c.read(new long[COUNTERS])) {
                return c;
            }
            c.close();
        } catch (IOException | UnsupportedOperationException e) {
            // left unread
        }
        return new ThreadCounters(null, null);
    }

    /**
     * The counters into {@code into[0..COUNTERS-1]} (page faults: minor and major together); false when
     * unreadable (then {@code into} means nothing).
     */
    boolean read(long[] into) {
        if (schedstat == null) {
            return false;
        }
        try {
            int n = fill(schedstat);
            if (numbers(0, n, into, ON_CPU, 3) != 3) {
                return false;
            }
            n = fill(stat);
            // "pid (comm) state ppid ...": the name may hold spaces, so fields are counted from its ')';
            // minflt and majflt are fields 10 and 12, the 7th and 9th number after it (the state is not a
            // number), processor field 39, the 36th.
            int from = n;
            while (from > 0 && buffer.get(from - 1) != ')') {
                from--;
            }
            if (from == 0 || numbers(from, n, fields, 0, fields.length) != fields.length) {
                return false;
            }
            into[FAULTS] = fields[6] + fields[8];
            into[CPU] = fields[35];
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private int fill(FileChannel file) throws IOException {
        buffer.clear();
        int n = file.read(buffer, 0);
        return Math.max(n, 0);
    }

    /** Up to {@code count} decimal numbers from {@code buffer[from, to)} into {@code into[at..]}; how many. */
    private int numbers(int from, int to, long[] into, int at, int count) {
        int field = 0;
        long value = 0;
        boolean digits = false;
        for (int i = from; i < to && field < count; i++) {
            byte b = buffer.get(i);
            if (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                digits = true;
            } else if (digits) {
                into[at + field++] = value;
                value = 0;
                digits = false;
            }
        }
        if (digits && field < count) {
            into[at + field++] = value;
        }
        return field;
    }

    @Override
    public void close() throws IOException {
        if (schedstat != null) {
            schedstat.close();
            stat.close();
        }
    }
}
