package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.terminal.Terminal;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/**
 * compare's two configs: two runs of the run command over one matrix selection, each with its own
 * switches (or nginx config), their cells interleaved, A's then B's, so that a neighbour busy for a
 * while slows both sides alike rather than one. Each side is a whole run of the run command, with
 * its own run folder and report; only its cells wait for their turn.
 */
final class TwoConfigs {
    /**
     * Flags that choose what both sides run, given once to compare: inside one side's switches they
     * would make the two runs measure different things, or write elsewhere.
     */
    static final List<String> ONCE = List.of("--matrix", "--only", "--profile", "--repeat", "--results",
            "--no-dashboards", "--dry-run", "--baseline", "--fail-on-regression", "--help", "-h", "--version", "-V");

    /**
     * One side: its label (A or B), how it was given (for its problems' lines), and its own words,
     * which follow the flags both sides share.
     */
    record Side(String label, String given, List<String> words) {
        List<String> args(List<String> shared) {
            List<String> args = new ArrayList<>(shared);
            args.addAll(words);
            return args;
        }
    }

    private TwoConfigs() {}

    /**
     * The two sides of --switches or --nginx-conf, or none with the problem said in {@code problems}:
     * not two of one flag, both flags, a string that does not parse, the same config twice.
     */
    static List<Side> sides(List<String> switches, List<Path> configs, List<String> problems) {
        if (!switches.isEmpty() && !configs.isEmpty()) {
            problems.add("give two --switches or two --nginx-conf, not both: a side's own config goes inside its"
                    + " switches, --switches \"--nginx-conf FILE ...\"");
            return List.of();
        }
        if (!switches.isEmpty()) {
            if (switches.size() != 2) {
                problems.add("--switches takes two sets of switches, A's and B's: give it twice, --switches \"...\""
                        + " --switches \"...\" (got " + switches.size() + ")");
                return List.of();
            }
            List<Side> sides = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String text = switches.get(i);
                String given = "--switches '" + Printable.shown(text) + "'";
                try {
                    sides.add(new Side(i == 0 ? "A" : "B", given, words(text)));
                } catch (IllegalArgumentException e) {
                    problems.add(given + " does not parse: " + e.getMessage());
                }
            }
            if (sides.size() == 2 && sides.get(0).words().equals(sides.get(1).words())) {
                problems.add("--switches gives the same switches twice (" + sides.get(0).given().substring(
                        "--switches ".length()) + "): give two that differ, the change you mean to judge");
            }
            return problems.isEmpty() ? sides : List.of();
        }
        if (configs.size() != 2) {
            problems.add("--nginx-conf takes two configs, the old and the new: give it twice, --nginx-conf OLD"
                    + " --nginx-conf NEW (got " + configs.size() + ")");
            return List.of();
        }
        Path old = configs.get(0);
        Path neu = configs.get(1);
        if (sameConfig(old, neu)) {
            problems.add("--nginx-conf names the same config twice (" + Printable.shown(old.toString()) + ", "
                    + Printable.shown(neu.toString()) + "): give the old and the new");
            return List.of();
        }
        return List.of(new Side("A", "--nginx-conf " + Printable.shown(old.toString()), List.of("--nginx-conf", old.toString())),
                new Side("B", "--nginx-conf " + Printable.shown(neu.toString()), List.of("--nginx-conf", neu.toString())));
    }

    /** The same file, or two files of the same bytes; a missing file is the run command's to say. */
    private static boolean sameConfig(Path a, Path b) {
        if (a.equals(b)) {
            return true;
        }
        try {
            return Files.isRegularFile(a) && Files.isRegularFile(b)
                    && (Files.isSameFile(a, b) || Files.mismatch(a, b) == -1);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A string of flags split into words as a shell splits them: at spaces, with '...' and "..." keeping
     * theirs and a backslash its next character (outside '...'). An unclosed quote does not parse.
     */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                if (word == null) {
                    word = new StringBuilder();
                }
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '\\' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("its " + quote + " is never closed");
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /**
     * What is wrong with each side as the run command checks its input: a problem both sides have is
     * said once, one a side has alone is said with that side. With {@code machine}, once the input is
     * good, the machine's checks of each side too (its ports, each bound for a moment; its tools;
     * its folders), as the run makes them, so that neither side starts unless both could.
     */
    static List<String> problems(List<Side> sides, List<String> shared, Path results, boolean machine) {
        List<Checked> checked = new ArrayList<>();
        for (Side side : sides) {
            checked.add(check(side, shared, results));
        }
        List<String> lines = said(sides, checked.stream().map(Checked::problems).toList());
        if (!lines.isEmpty() || !machine) {
            return lines;
        }
        List<List<String>> ofMachine = new ArrayList<>();
        for (Checked c : checked) {
            List<String> problems = new ArrayList<>();
            try {
                c.command().checkMachine(c.run(), c.runDir());
            } catch (CommandLine.ParameterException e) {
                String.valueOf(e.getMessage()).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(problems::add);
            }
            ofMachine.add(problems);
        }
        return said(sides, ofMachine);
    }

    /** Each side's problems, one line each: once when both sides have it, else with the side's name. */
    private static List<String> said(List<Side> sides, List<List<String>> each) {
        Set<String> lines = new LinkedHashSet<>();
        for (int i = 0; i < sides.size(); i++) {
            for (String p : each.get(i)) {
                boolean both = each.stream().allMatch(e -> e.contains(p));
                lines.add(both ? p : sides.get(i).label() + " (" + sides.get(i).given() + "): " + p);
            }
        }
        return List.copyOf(lines);
    }

    /** A side's input checked: its problems, or the command and run it would start. */
    private record Checked(List<String> problems, RunTestsCommand command, MatrixCommand.Run run, Path runDir) {}

    private static Checked check(Side side, List<String> shared, Path results) {
        List<String> problems = new ArrayList<>();
        for (String word : side.words()) {
            String flag = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
            if (ONCE.contains(flag)) {
                problems.add(flag + " is given once, to compare, for both sides: take it out of the side's switches");
            }
        }
        if (!problems.isEmpty()) {
            return new Checked(problems, null, null, null);
        }
        CommandLine cli = quiet(RunTestsCommand.commandLine());
        CommandLine.ParseResult parsed;
        try {
            parsed = cli.parseArgs(side.args(shared).toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            problems.add(firstLine(e));
            return new Checked(problems, null, null, null);
        }
        if (parsed.hasSubcommand()) {
            problems.add("'" + Printable.shown(parsed.subcommand().commandSpec().name()) + "' is a command, not a switch"
                    + " of a run: give flags of the run command (./run-tests.sh --help lists them)");
            return new Checked(problems, null, null, null);
        }
        RunTestsCommand command = cli.getCommand();
        Path runDir = RunFolders.next(RunFolders.results(results), "");
        MatrixCommand.Run run = null;
        try {
            run = command.validate(runDir);
        } catch (CommandLine.ParameterException e) {
            String.valueOf(e.getMessage()).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(problems::add);
        } catch (RuntimeException e) {
            problems.add(String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
        }
        return new Checked(problems, command, run, runDir);
    }

    private static String firstLine(CommandLine.ParameterException e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
    }

    private static CommandLine quiet(CommandLine cli) {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        cli.setOut(none);
        cli.setErr(none);
        return cli;
    }

    /** The two runs' folders and exit codes; a folder is null for a side that stopped before its first cell. */
    record Runs(Path a, Path b, int exitA, int exitB) {
        boolean both() {
            return a != null && b != null;
        }
    }

    /**
     * Runs both sides, A's run started first and B's once A's waits at its first cell (each run's
     * checks of the machine bind its ports for a moment, and a run folder is named for its second),
     * then their cells in turn; their reports are written once every cell of both has run, A's first.
     */
    static Runs run(List<Side> sides, List<String> shared, PrintWriter out, PrintWriter err) throws InterruptedException {
        Baton baton = new Baton(out, (options, terminal, remote) -> new MatrixRunner(options, terminal, remote).run());
        List<java.util.function.IntSupplier> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int side = i;
            runs.add(() -> {
                CommandLine cli = RunTestsCommand.commandLine();
                cli.setOut(out);
                cli.setErr(err);
                RunTestsCommand command = cli.getCommand();
                command.turns = baton.turnsOf(side, sides.get(side));
                return cli.execute(sides.get(side).args(shared).toArray(String[]::new));
            });
        }
        int[] exits = inTurn(baton, runs);
        return new Runs(baton.runDir(0), baton.runDir(1), exits[0], exits[1]);
    }

    /**
     * Runs both sides' {@code runs}, each on a thread of its own, whose cells go through {@code baton}:
     * A's started first, B's once A waits at its first cell (or not at all when A stopped before). The
     * exit codes, 1 for a side that did not run.
     */
    static int[] inTurn(Baton baton, List<java.util.function.IntSupplier> runs) throws InterruptedException {
        int[] exits = {1, 1};
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int side = i;
            threads[i] = new Thread(() -> {
                try {
                    exits[side] = runs.get(side).getAsInt();
                } finally {
                    baton.gone(side);
                }
            }, "compare-" + (side == 0 ? "A" : "B"));
        }
        threads[0].start();
        if (!baton.awaitReadyOrGone(0)) {
            threads[0].join();
            return exits;
        }
        threads[1].start();
        threads[0].join();
        threads[1].join();
        return exits;
    }

    /**
     * The turns of the two runs: one cell of A, one of B, and so on; a side whose cells are done lets
     * the other run the rest. A side that stopped (refused by its machine checks, or failed) is gone,
     * and the other never waits for it.
     */
    static final class Baton {
        private final PrintWriter out;
        /** Runs one cell: a {@link MatrixRunner} of it, or a test's stand-in. */
        private final CellTurns oneCell;
        private final boolean[] ready = new boolean[2];
        private final boolean[] cellsDone = new boolean[2];
        private final boolean[] gone = new boolean[2];
        private final Path[] runDirs = new Path[2];
        private int turn;

        Baton(PrintWriter out, CellTurns oneCell) {
            this.out = out;
            this.oneCell = oneCell;
        }

        synchronized void gone(int side) {
            gone[side] = true;
            notifyAll();
        }

        synchronized Path runDir(int side) {
            return ready[side] ? runDirs[side] : null;
        }

        /** Whether {@code side} reached its first cell (else its run stopped before it). */
        synchronized boolean awaitReadyOrGone(int side) throws InterruptedException {
            while (!ready[side] && !gone[side]) {
                wait();
            }
            return ready[side];
        }

        CellTurns turnsOf(int side, Side given) {
            return (options, terminal, remote) -> cells(side, given, options, terminal, remote);
        }

        private MatrixRunner.Outcome cells(int side, Side given, MatrixRunner.Options options, Terminal terminal,
                JMeter.Remote remote) throws IOException {
            int other = 1 - side;
            try {
                synchronized (this) {
                    ready[side] = true;
                    runDirs[side] = options.runDir();
                    notifyAll();
                    while (!ready[other] && !gone[other]) {
                        wait();
                    }
                    if (!ready[other]) {
                        throw new IllegalStateException("the other side's run stopped before its first cell: nothing"
                                + " to compare with");
                    }
                }
                List<CellResult> results = new ArrayList<>();
                double total = 0;
                double jmeter = 0;
                double report = 0;
                List<dev.ratecache.suite.matrix.Cell> cells = options.cells();
                for (int k = 0; k < cells.size(); k++) {
                    synchronized (this) {
                        while (turn != side && !cellsDone[other] && !gone[other]) {
                            wait();
                        }
                    }
                    try {
                        out.printf("%n%s, cell %d of %d (%s):", given.label(), k + 1, cells.size(), given.given());
                        out.flush();
                        // A runner per cell: its origin is started for the cell and stopped after, so neither
                        // side's origin is warmer, and only one origin holds the stack's ports at a time.
                        MatrixRunner.Outcome one = oneCell.run(withCells(options, List.of(cells.get(k))), terminal, remote);
                        results.addAll(one.cells());
                        total += one.totalSeconds();
                        jmeter += one.jmeterSeconds();
                        report += one.reportSeconds();
                    } finally {
                        synchronized (this) {
                            turn = other;
                            notifyAll();
                        }
                    }
                }
                synchronized (this) {
                    cellsDone[side] = true;
                    notifyAll();
                    // No report is written while a cell of the other side runs, and A's comes first.
                    while (side == 0 ? !cellsDone[other] && !gone[other] : !gone[other]) {
                        wait();
                    }
                }
                return new MatrixRunner.Outcome(results, total, jmeter, report, options.dashboards());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for its turn", e);
            } finally {
                synchronized (this) {
                    cellsDone[side] = true;
                    notifyAll();
                }
            }
        }
    }

    private static MatrixRunner.Options withCells(MatrixRunner.Options o, List<dev.ratecache.suite.matrix.Cell> cells) {
        return new MatrixRunner.Options(cells, o.profile(), o.repeats(), o.switches(), o.ports(), o.originThreads(),
                o.jmeterProperties(), o.runDir(), o.originArgs(), o.cellReport(), o.redisPort(), o.dashboards(),
                o.database());
    }
}
