package dev.tollgate.experiments.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Interrupts and softirqs each CPU has served so far, from {@code /proc/interrupts} and {@code
 * /proc/softirqs} (every line's count for that CPU, summed). A CPU spends them on whatever thread it runs, and
 * this kernel (no {@code CONFIG_IRQ_TIME_ACCOUNTING}) charges that time to the thread's CPU time: a burst of
 * them during a call makes CPU time the call's code never used. Read like {@link ThreadCounters}: once per
 * block, into a buffer of its own, allocating nothing.
 */
final class CpuInterrupts implements AutoCloseable {

    private final FileChannel interrupts;
    private final FileChannel softirqs;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
    private final long[] line;

    private CpuInterrupts(FileChannel interrupts, FileChannel softirqs, int cpus) {
        this.interrupts = interrupts;
        this.softirqs = softirqs;
        this.line = new long[Math.max(cpus, 1)];
    }

    /** The counts of this machine's CPUs, or one that reads none where the files are missing. */
    static CpuInterrupts open(int cpus) {
        try {
            CpuInterrupts c = new CpuInterrupts(
                    FileChannel.open(Path.of("/proc/interrupts")), FileChannel.open(Path.of("/proc/softirqs")), cpus);
            if (c.read(new long[cpus])) {
                return c;
            }
            c.close();
        } catch (IOException | UnsupportedOperationException e) {
            // left unread
        }
        return new CpuInterrupts(null, null, 0);
    }

    /** Per CPU, interrupts and softirqs so far into {@code into[cpu]}; false when unreadable. */
    boolean read(long[] into) {
        if (interrupts == null) {
            return false;
        }
        Arrays.fill(into, 0);
        try {
            return add(interrupts, into) && add(softirqs, into);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Adds each line's per-CPU counts: after the header ("CPU0 CPU1 ..."), a line is a label ending in ':', then
     * one number per CPU, then (in /proc/interrupts) a description; lines with fewer numbers ("ERR:") are
     * left out.
     */
    private boolean add(FileChannel file, long[] into) throws IOException {
        buffer.clear();
        int n = Math.max(file.read(buffer, 0), 0);
        if (n == buffer.capacity()) {
            return false;
        }
        int i = 0;
        while (i < n && buffer.get(i) != '\n') {
            i++; // the header
        }
        while (i < n) {
            while (i < n && buffer.get(i) != ':' && buffer.get(i) != '\n') {
                i++;
            }
            if (i >= n || buffer.get(i) == '\n') {
                i++;
                continue;
            }
            i++;
            int found = 0;
            while (found < line.length) {
                while (i < n && buffer.get(i) == ' ') {
                    i++;
                }
                if (i >= n || buffer.get(i) < '0' || buffer.get(i) > '9') {
                    break;
                }
                long v = 0;
                while (i < n && buffer.get(i) >= '0' && buffer.get(i) <= '9') {
                    v = v * 10 + (buffer.get(i++) - '0');
                }
                line[found++] = v;
            }
            if (found == line.length && found <= into.length) {
                for (int c = 0; c < found; c++) {
                    into[c] += line[c];
                }
            }
            while (i < n && buffer.get(i) != '\n') {
                i++;
            }
            i++;
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        if (interrupts != null) {
            interrupts.close();
            softirqs.close();
        }
    }
}
