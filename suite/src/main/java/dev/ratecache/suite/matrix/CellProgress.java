package dev.ratecache.suite.matrix;

import dev.ratecache.suite.jmeter.Summariser;
import dev.ratecache.suite.terminal.LiveLine;
import dev.ratecache.suite.terminal.Terminal;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A cell's generator while it runs, as the terminal shows it: its own output, which goes to a
 * file in the cell's folder, read as it grows; with --verbose copied to the terminal line by
 * line, otherwise summed up in one live line (elapsed, requests, r/s, errors and time left), each
 * second, on a terminal only.
 */
final class CellProgress implements AutoCloseable {
    private final Terminal terminal;
    private final Path output;
    private final Duration cellGuess;
    private final Duration runGuess;
    private final long started;
    private final Summariser summariser = new Summariser();
    private final LiveLine line;
    private final ScheduledExecutorService ticker;
    private long read;

    /**
     * @param output    the generator's own output file; null for one that writes none
     * @param cellGuess the cell's expected time, {@code runGuess} the run's left, both from {@code started}
     * @param started   the cell's start ({@link System#nanoTime()}): its stack's start counts too
     * @param ticking   false: shown only when told ({@link #tick()}), as a test does
     */
    CellProgress(Terminal terminal, Path output, Duration cellGuess, Duration runGuess, long started, boolean ticking) {
        this.terminal = terminal;
        this.output = output;
        this.cellGuess = cellGuess;
        this.runGuess = runGuess;
        this.started = started;
        this.line = new LiveLine(terminal);
        if (ticking && (terminal.live() || terminal.verbose())) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cell-progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.SECONDS);
        } else {
            ticker = null;
        }
    }

    static CellProgress start(Terminal terminal, Path output, Duration cellGuess, Duration runGuess, long started) {
        return new CellProgress(terminal, output, cellGuess, runGuess, started, true);
    }

    /** Reads what the generator wrote since, then shows it: whole with --verbose, else as the live line. */
    void tick() {
        readNewLines();
        if (!terminal.verbose()) {
            line.show(text((System.nanoTime() - started) / 1e9, summariser, cellGuess, runGuess));
        }
    }

    /**
     * The live line: e.g. "  0m12s  1234 req  102.2 r/s  1.0 % err  left: cell 0m20s, run 3m10s". The
     * counts are JMeter's summariser's, once it has said any (429s are errors to it). It must fit 80
     * columns: a longer line wraps, and the carriage return then rewrites only its last part.
     */
    static String text(double elapsedSeconds, Summariser s, Duration cellGuess, Duration runGuess) {
        StringBuilder sb = new StringBuilder("  ").append(minutes(elapsedSeconds));
        if (s.samples() > 0) {
            sb.append(String.format(Locale.ROOT, "  %d req", s.samples()));
            s.rate().ifPresent(r -> sb.append(String.format(Locale.ROOT, "  %.1f r/s", r)));
            sb.append(String.format(Locale.ROOT, "  %.1f %% err", 100.0 * s.errors() / s.samples()));
        }
        return sb.append("  left: cell ").append(minutes(cellGuess.toSeconds() - elapsedSeconds))
                .append(", run ").append(minutes(runGuess.toSeconds() - elapsedSeconds)).toString();
    }

    static String minutes(double seconds) {
        Duration d = Duration.ofSeconds(Math.max(0, Math.round(seconds)));
        return String.format(Locale.ROOT, "%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }

    private void readNewLines() {
        if (output == null || !Files.isRegularFile(output)) {
            return;
        }
        try (RandomAccessFile file = new RandomAccessFile(output.toFile(), "r")) {
            if (file.length() <= read) {
                return;
            }
            byte[] bytes = new byte[(int) Math.min(file.length() - read, 1 << 20)];
            file.seek(read);
            file.readFully(bytes);
            // Up to the last whole line: the rest is read once its newline is written.
            int end = lastNewline(bytes);
            if (end < 0) {
                return;
            }
            read += end + 1;
            for (String l : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n", -1)) {
                summariser.accept(l);
                if (terminal.verbose()) {
                    terminal.out().println(l);
                }
            }
            terminal.out().flush();
        } catch (IOException e) {
            // A file that cannot be read now costs this second's line, not the cell.
        }
    }

    private static int lastNewline(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Stops the ticks, shows with --verbose what came last, and blanks the live line for the cell's result. */
    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
            try {
                ticker.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (terminal.verbose()) {
            readNewLines();
        }
        line.clear();
    }
}
