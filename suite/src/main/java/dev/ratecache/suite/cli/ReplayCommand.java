package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.AccessLogException;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.Replay;
import dev.ratecache.accesslog.ReplayInput;
import dev.ratecache.accesslog.ScheduledRequest;
import dev.ratecache.accesslog.Selection;
import dev.ratecache.suite.advise.AdviceWriter;
import dev.ratecache.suite.advise.Advisor;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellReport;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.predict.Predictor;
import dev.ratecache.suite.replay.ReplayCellReport;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.ScheduleCheck;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.TierMembership;
import dev.ratecache.suite.switches.WholeNumber;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * ./run-tests.sh replay ACCESS_LOG: the user's own traffic through the same matrix as the
 * reference experiment's plans. Each original client sends from its own 127.x address, so the
 * front end's per-client limit acts per client, as in production.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        abbreviateSynopsis = true,
        description = {
            "Replays an access log through the stack: each request starts at its logged time (divided by --speed),"
                    + " from an address of its own client (127.16.0.1 onward), through the same cells as the"
                    + " reference experiment's matrix (no client-cache cells: a replay's JMeter threads are not the"
                    + " log's clients). The suite's origin answers every logged path with its logged size and delay."
                    + " The report adds per-path and per-client tables and how far the replay kept to the schedule.",
            "",
            "  ./run-tests.sh replay access.log",
            "  ./run-tests.sh replay access.log.gz --speed 10 --only replay/server-cache",
            // A command longer than the narrowest help goes on with a backslash, so that it copies whole.
            "  ./run-tests.sh replay app.jsonl \\",
            "      --log-format json:time=ts,client=ip,method=verb,uri=path",
            "  ./run-tests.sh replay api.jsonl --key-field api_key \\",
            "      --limit-key header:X-Api-Key --tiers tiers.txt",
            ""})
public final class ReplayCommand extends MatrixCommand {
    private static final WholeNumber THREADS = WholeNumber.of("--threads", 1, 5000);

    @Parameters(index = "0", paramLabel = "ACCESS_LOG",
            description = "The log: nginx or Apache combined, common, the suite's JSON log, or JSON lines (see --log-format); gzip is read as it is;"
                    + " a line longer than " + AccessLog.MAX_LINE + " is a bad line (see --bad-lines).")
    Path log;

    @Mixin
    LogInput logInput = new LogInput();

    @Option(names = "--key-field", paramLabel = "NAME",
            description = "For a JSON log (suite-json or json:...): the field holding each request's key (API key, token),"
                    + " sent in the header of --limit-key header:NAME; each client still sends from its own address."
                    + " Requests without one are sent without the header.")
    String keyField;

    @Option(names = "--from", paramLabel = "TIME", description = "Replay from this time on, e.g. 2026-11-20T10:00:00+01:00.")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Replay up to (not including) this time.")
    String to;

    @Option(names = "--first", paramLabel = "N", description = "Replay only the first N requests (after --from/--to).")
    Integer first;

    @Option(names = "--methods", paramLabel = "LIST",
            description = "The methods to replay; the others are counted and listed as skipped (logs hold no bodies). Default: ${DEFAULT-VALUE}.")
    String methods = "GET,HEAD";

    @Option(names = "--speed", paramLabel = "X", description = "How many times faster than logged. Default: ${DEFAULT-VALUE}.")
    double speed = 1;

    @Option(names = "--max-age", paramLabel = "SECONDS",
            description = "The freshness the suite's origin gives every replayed path. Default: ${DEFAULT-VALUE}.")
    int maxAge = Math.toIntExact(OriginDefaults.get().replayMaxAge().toSeconds());

    @Option(names = "--threads", paramLabel = "N",
            description = "JMeter threads: the most requests waiting or in flight at once. Default: ${DEFAULT-VALUE}.")
    int threads = 200;

    @Option(names = "--use-advice",
            description = "Replay with the settings ./run-tests.sh advise recommends for this log: its front per-client"
                    + " rate and burst, its back limit (with --origin-capacity) and its lifetime for each busy path; the"
                    + " report then shows the model's prediction beside what the stack did with them.")
    boolean useAdvice;

    @Option(names = "--origin-capacity", paramLabel = "R/s",
            description = "With --use-advice: requests/s the origin can serve, so that a back limit is advised too.")
    Double originCapacity;

    @Option(names = "--max-lateness", paramLabel = "MS",
            description = "The start lateness p99 (ms) past which the generator has fallen behind the log's schedule:"
                    + " the cell's figures are then marked distorted and its check fails. Default: ${DEFAULT-VALUE}.")
    long maxLateness = ReplayCellReport.DEFAULT_MAX_LATENESS_MS;

    @Option(names = "--top", paramLabel = "N", description = "Paths and clients listed in the report, by requests (every rejected client is listed too). Default: ${DEFAULT-VALUE}.")
    int top = 10;

    private ReplayInput input;
    private Advisor.Advice advice;

    @Override
    List<Plan> plans(List<String> problems, Path runDir) {
        int before = problems.size();
        if (!(speed > 0) || Double.isInfinite(speed)) {
            problems.add("--speed must be a number above 0, e.g. --speed 10 (got " + speed + ")");
        }
        if (maxAge < 0) {
            problems.add("--max-age must be a whole number of seconds >= 0 (got " + maxAge + ")");
        }
        THREADS.check(problems, threads);
        if (maxLateness < 1 || maxLateness > 60_000) {
            problems.add("--max-lateness must be a whole number of ms from 1 to 60000 (got " + maxLateness + ")");
        }
        if (top < 1) {
            problems.add("--top must be a whole number >= 1 (got " + top + ")");
        }
        if (first != null && first < 1) {
            problems.add("--first must be a whole number >= 1 (got " + first + ")");
        }
        logInput.badLinesProblem().ifPresent(problems::add);
        Selection selection = Selection.defaults();
        LogFormat format = null;
        try {
            format = logInput.format();
            if (from != null) {
                selection = selection.from(Selection.parseTime(from));
            }
            if (to != null) {
                selection = selection.to(Selection.parseTime(to));
            }
            if (first != null && first > 0) {
                selection = selection.first(first);
            }
            selection = selection.methods(Selection.parseMethods(methods));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (keyField != null) {
            problems.addAll(keyFieldProblems(keyField, format, switches.limitKey()));
        }
        if (problems.size() > before || format == null) {
            return List.of();
        }
        try {
            ParsedLog parsed = logInput.read(log, format, keyField);
            input = Replay.prepare(parsed, selection, speed);
            if (useAdvice) {
                advice = Advisor.advise(parsed.requests(), new Advisor.Options(originCapacity,
                        AdviseCommand.DEFAULT_MAX_HURT_PCT, null, top, false));
                applyAdvice();
            }
        } catch (AccessLogException e) {
            problems.add(e.getMessage());
            return List.of();
        } catch (Advisor.BadLog e) {
            problems.add("--use-advice: " + e.getMessage());
            return List.of();
        }
        List<ScheduledRequest> schedule = input.schedule();
        double seconds = schedule.get(schedule.size() - 1).offsetMs() / 1000.0;
        return List.of(Plan.replay(replayDir(runDir).resolve(ReplayInput.SCHEDULE_CSV), schedule.size(), seconds, threads,
                input.keyed() ? switches.limitKey().name() : null));
    }

    /**
     * What is wrong with {@code --key-field} beside these switches, each in one line: beside what any
     * command needs of it ({@link LogInput#keyFieldProblems}), a replay sends keys only in a header (a
     * cookie would be kept by the edge cache's rules for credentials, an argument would change every URI).
     */
    static List<String> keyFieldProblems(String keyField, LogFormat format, LimitKey limitKey) {
        List<String> problems = LogInput.keyFieldProblems(keyField, format);
        if (limitKey.kind() != LimitKey.Kind.HEADER) {
            problems.add("--key-field sends each request's key in the limit key's header: add --limit-key header:NAME"
                    + " (got --limit-key " + limitKey + ")");
        }
        return problems;
    }

    /**
     * The advised limits become this run's switches; the lifetimes go to the paths file (prepare).
     * The advice is for the log's own pace: at --speed X every rate is X times higher and every
     * lifetime X times shorter, so that each client and each cache entry meet the same limits and
     * expiries per logged request as they would in real time.
     */
    private void applyAdvice() {
        Advisor.FrontCandidate front = advice.frontPick();
        switches.frontLimit(true).frontRate(scaledRate(front.rate())).frontBurst(front.burst())
                .frontMode(LimitMode.QUEUE);
        if (advice.back() != null && advice.back().recommended() != null) {
            switches.backLimit(true).backRate(scaledRate(advice.back().recommended().rate()))
                    .backBurst(advice.back().recommended().burst());
        }
    }

    private int scaledRate(int perSecond) {
        return (int) Math.max(1, Math.round(perSecond * speed));
    }

    private int scaledLifetime(int seconds) {
        return (int) Math.max(1, Math.round(seconds / speed));
    }

    @Override
    boolean ownPlan() {
        return true;
    }

    @Override
    String notOwnPlan() {
        return "a replay runs --matrix default or full";
    }

    /** The reference's caching combinations, without a client cache: JMeter's is per thread, and a thread is no client. */
    @Override
    List<Cell> cellsOf(List<Plan> plans) {
        return super.cellsOf(plans).stream().filter(c -> !c.clientCache()).toList();
    }

    @Override
    void prepare(Path runDir, PrintWriter out) throws IOException {
        input.write(replayDir(runDir));
        if (advice != null) {
            writeAdvisedLifetimes(replayDir(runDir).resolve(ReplayInput.PATHS_CSV));
            out.println("advice:     " + adviceText());
        }
        out.println("replay:     " + input.summary().text());
        out.println("            schedule, clients and paths in " + replayDir(runDir));
        out.flush();
    }

    /** The paths file again, with each advised path's lifetime in the column the origin reads (max_age_s). */
    private void writeAdvisedLifetimes(Path pathsCsv) throws IOException {
        Map<String, Integer> lifetimes = new LinkedHashMap<>();
        advice.paths().forEach(p -> lifetimes.put(p.path(), scaledLifetime(p.recommended())));
        List<String> lines = new java.util.ArrayList<>();
        try (java.io.Reader in = java.nio.file.Files.newBufferedReader(pathsCsv);
                org.apache.commons.csv.CSVParser csv = org.apache.commons.csv.CSVFormat.DEFAULT.builder().setHeader()
                        .setSkipHeaderRecord(true).get().parse(in)) {
            java.io.StringWriter text = new java.io.StringWriter();
            try (org.apache.commons.csv.CSVPrinter printer = new org.apache.commons.csv.CSVPrinter(text,
                    org.apache.commons.csv.CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
                List<String> header = new java.util.ArrayList<>(csv.getHeaderNames());
                header.add("max_age_s");
                printer.printRecord(header);
                for (org.apache.commons.csv.CSVRecord row : csv) {
                    List<String> values = new java.util.ArrayList<>(row.toList());
                    Integer seconds = lifetimes.get(row.get("path"));
                    values.add(seconds == null ? "" : String.valueOf(seconds));
                    printer.printRecord(values);
                }
            }
            lines.add(text.toString());
        }
        java.nio.file.Files.writeString(pathsCsv, String.join("", lines));
    }

    private String adviceText() {
        Advisor.FrontCandidate front = advice.frontPick();
        String back = advice.back() != null && advice.back().recommended() != null
                ? "back " + advice.back().recommended().rate() + " r/s burst " + advice.back().recommended().burst()
                : "back limit as switched (give --origin-capacity to have one advised)";
        return "applied ./run-tests.sh advise's settings: front " + front.rate() + " r/s burst " + front.burst()
                + " per client, " + back + ", lifetimes for " + advice.paths().size() + " paths ("
                + String.join(", ", advice.paths().stream()
                        .map(p -> Printable.escape(p.path(), AdviceWriter.TERMINAL_CELL_CHARS) + " " + p.recommended() + " s").toList())
                + ")" + (speed == 1 ? "" : String.format(java.util.Locale.ROOT,
                        "; at --speed %s, rates x%s and lifetimes /%s", speed, speed, speed));
    }

    @Override
    List<String> originArgs(Path runDir) {
        return List.of("--origin.replay.paths-file=" + replayDir(runDir).resolve(ReplayInput.PATHS_CSV).toAbsolutePath(),
                "--origin.replay.max-age=" + maxAge + "s");
    }

    @Override
    CellReport cellReport() {
        return new ReplayCellReport(input.clients(), top, maxLateness,
                input.keyed() ? TierMembership.of(switches.limitTiers()) : null);
    }

    @Override
    List<Check.Outcome> builtInChecks(List<CellResult> cells) {
        List<Check.Outcome> checks = new java.util.ArrayList<>(super.builtInChecks(cells));
        checks.addAll(ScheduleCheck.check(cells, maxLateness));
        return checks;
    }

    @Override
    Predictor.ReplayTraffic replayTraffic() {
        Map<String, Long> delays = new LinkedHashMap<>();
        input.paths().forEach(p -> p.delayMs().ifPresent(d -> delays.put(p.path(), d)));
        return new Predictor.ReplayTraffic(input.schedule(), delays, maxAge);
    }

    @Override
    Map<String, Object> describeInput() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("replay", input.summary().text());
        if (advice != null) {
            described.put("advice", adviceText());
        }
        return described;
    }

    private static Path replayDir(Path runDir) {
        return runDir.resolve("replay");
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(REPEAT, THREADS);
    }
}
