package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ./run-tests.sh advise on crafted logs: one flooder among normal clients, and input it must refuse. */
class AdviseCommandTest {
    static final DateTimeFormatter COMBINED = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);
    static final ZonedDateTime START = ZonedDateTime.of(2026, 11, 20, 10, 0, 0, 0, ZoneOffset.UTC);
    static final String FLOODER = "203.0.113.66";

    private static Path dir;
    private final CommandRun cli = new CommandRun();

    @BeforeAll
    static void folder() throws IOException {
        dir = TestDirs.fresh(AdviseCommandTest.class, "advise");
    }


    static String line(String client, ZonedDateTime t, String method, String uri, int status) {
        return client + " - - [" + COMBINED.format(t) + "] \"" + method + " " + uri + " HTTP/1.1\" " + status
                + " 512 \"-\" \"test\"";
    }

    /**
     * Two minutes of 40 normal clients at about 1 request/s (sometimes 2 in a second, sometimes
     * none) over a few pages, and one client at 50 requests/s on one page.
     */
    static List<String> floodLog(String method) {
        Random random = new Random(7);
        List<String> lines = new ArrayList<>();
        String[] pages = {"/", "/news", "/about", "/api/items?page=1", "/api/items?page=2"};
        for (int s = 0; s < 120; s++) {
            ZonedDateTime t = START.plusSeconds(s);
            for (int c = 1; c <= 40; c++) {
                int n = random.nextInt(10) == 0 ? 2 : random.nextInt(10) == 0 ? 0 : 1;
                for (int k = 0; k < n; k++) {
                    lines.add(line("198.51.100." + c, t, method, pages[random.nextInt(pages.length)], 200));
                }
            }
            for (int k = 0; k < 50; k++) {
                lines.add(line(FLOODER, t, method, "/news", 200));
            }
        }
        return lines;
    }

    static Path write(String name, List<String> lines) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }

    @Test
    void recommendsTheFrontLimitThatRejectsTheFlooderAndHurtsNoNormalClient() throws IOException {
        Path log = write("flood.txt", floodLog("GET"));
        Path results = dir.resolve("results");
        assertThat(cli.run("advise", log.toString(), "--origin-capacity", "100", "--max-hurt-clients", "0%",
                "--results", results.toString())).as(cli.err()).isZero();
        String text = cli.out();
        Matcher folder = Pattern.compile("advice: (\\S+) \\(").matcher(text);
        assertThat(folder.find()).as(text).isTrue();
        Path advice = Path.of(folder.group(1));

        Matcher pick = Pattern.compile("recommended: rate=(\\d+)r/s burst=(\\d+)").matcher(text);
        assertThat(pick.find()).as(text).isTrue();
        int rate = Integer.parseInt(pick.group(1));
        int burst = Integer.parseInt(pick.group(2));
        // The flooder sends 50 in each second: a limit that lets it through is no limit on it.
        assertThat(rate + burst).isLessThan(50);
        // And the normal clients (at most 2 in a second) are all let through.
        String md = Files.readString(advice.resolve("advice.md"));
        assertThat(md).contains("| " + FLOODER + " | 6000 |").contains("1 outlier(s)");
        assertThat(md).containsPattern("\\| " + rate + " \\| " + burst + " \\| [0-9.]+ \\| [0-9.]+ \\| 0 \\| \\d+ \\| 1 \\|");
        assertThat(Files.readString(advice.resolve("nginx/front-rate-limit.conf")))
                .contains("rate=" + rate + "r/s;", "burst=" + burst + ";").doesNotContain("dry_run");
        assertThat(Files.readString(advice.resolve("nginx/dry-run/front-rate-limit.conf")))
                .contains("rate=" + rate + "r/s;", "limit_req_dry_run on;");
        assertThat(advice.resolve("nginx/back-rate-limit.conf")).content().contains("rate=100r/s;");
        assertThat(advice.resolve("nginx/edge-lifetimes.conf")).content().contains("location = /news {");
        assertThat(advice.resolve("nginx/dry-run/limit-req-status-log.conf")).content().contains("$limit_req_status");
        assertThat(md).contains("## Assumptions", "REJECTED_DRY_RUN");
    }

    /** Paths a JSON log may hold: what a terminal obeys, what breaks a line, and what nginx's config reads as syntax. */
    static final List<String> HOSTILE_PATHS = List.of("/clear\u001b[2J", "/title\u001b]0;owned\u0007", "/bell\u0007",
            "/line\nbreak", "/semi;colon{brace}\"quote'$var #x", "/plain");
    /** A client that sets the terminal's title, and floods, with a key that turns the terminal red. */
    static final String HOSTILE_CLIENT = "\u001b]0;client\u0007";
    static final String HOSTILE_KEY = "\u001b[31mkey";

    /**
     * Two minutes of the suite's JSON log: 40 clients at 1 r/s over {@link #HOSTILE_PATHS}, and
     * {@link #HOSTILE_CLIENT} at 20 r/s on /plain; the requests' keys (api_key) are the clients'.
     */
    static List<String> hostileLog() throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 120; s++) {
            String time = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(START.plusSeconds(s));
            for (int c = 1; c <= 40; c++) {
                lines.add(json.writeValueAsString(java.util.Map.of("time", time, "client", "198.51.100." + c,
                        "method", "GET", "uri", HOSTILE_PATHS.get((s + c) % HOSTILE_PATHS.size()), "status", 200, "bytes", 5,
                        "api_key", "k" + c)));
            }
            for (int k = 0; k < 20; k++) {
                lines.add(json.writeValueAsString(java.util.Map.of("time", time, "client", HOSTILE_CLIENT, "method", "GET",
                        "uri", "/plain", "status", 200, "bytes", 5, "api_key", HOSTILE_KEY)));
            }
        }
        return lines;
    }

    /** The folder advise wrote its advice to, from its last line. */
    static Path adviceFolder(String out) {
        Matcher folder = Pattern.compile("advice: (\\S+) \\(").matcher(out);
        assertThat(folder.find()).as(out).isTrue();
        return Path.of(folder.group(1));
    }

    @Test
    void whatALoggedValueHoldsThatIsNotPrintableIsEscapedOnTheTerminalAndInEveryFile() throws IOException {
        Path log = write("hostile.jsonl", hostileLog());
        assertThat(cli.run("advise", log.toString(), "--key-field", "api_key", "--results", dir.resolve("hostile").toString()))
                .as(cli.err()).isZero();

        String out = cli.out();
        assertThat(out).doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]")
                .contains("  \\x1b]0;client\\x07  2400 requests", "  /clear\\x1b[2J ", "  /title\\x1b]0;owned\\x07 ",
                        "  /bell\\x07 ");
        // Each path's row is one line of the table, a line break in the path included.
        assertThat(out.lines()).anySatisfy(l -> assertThat(l).matches("  /line\\\\x0abreak +\\d+ +\\d+ +[0-9.]+ +[0-9.]+ +\\d+  .+"));
        Path advice = adviceFolder(out);
        assertThat(advice.resolve("advice.md")).content().doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]")
                .contains("| \\x1b]0;client\\x07 | 2400 |", "\n### /line\\x0abreak (", "\n### /clear\\x1b[2J (",
                        "Outlier keys in anonymous: \\x1b[31mkey (2400 requests");
        String lifetimes = Files.readString(advice.resolve("nginx/edge-lifetimes.conf"));
        assertThat(lifetimes).doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]")
                .contains("location = /plain {", "location = \"/semi;colon{brace}\\\"quote'$var #x\" {")
                .contains("# Left out: \"/line\\x0abreak\"", "# Left out: \"/clear\\x1b[2J\"", "# Left out: \"/bell\\x07\"")
                .doesNotContain("location = \"/line", "location = \"/clear", "location = \"/bell", "location = \"/title");
    }

    @Test
    void aLogWithLinesOf64KiBIsAdvisedAndALinePastTheLimitIsABadLine() throws IOException {
        List<String> lines = new ArrayList<>(floodLog("GET"));
        String kib64 = "a".repeat(64 * 1024);
        lines.add(100, "198.51.100.1 - - [" + COMBINED.format(START.plusSeconds(1)) + "] \"GET /news?q=" + kib64
                + " HTTP/1.1\" 200 512 \"https://example.com/?" + kib64 + "\" \"" + kib64 + "\"");
        lines.add(200, "198.51.100.2 - - [" + COMBINED.format(START.plusSeconds(2)) + "] \"GET /news HTTP/1.1\" 200 512"
                + " \"-\" \"" + "b".repeat(dev.ratecache.accesslog.AccessLog.MAX_LINE_CHARS) + "\"");
        Path log = write("long-lines.txt", lines);

        assertThat(cli.run("advise", log.toString(), "--results", dir.resolve("long").toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("for " + lines.size() + " lines, 1 bad line (at line 201; 1 longer than"
                + " 1 MiB (1048576 characters), the most a line may have)");
    }

    @Test
    void aLogTooShortToSayAnythingIsOneLine() throws IOException {
        Path log = write("short.txt", floodLog("GET").subList(0, 50));
        assertThat(cli.run("advise", log.toString(), "--results", dir.resolve("r").toString())).isEqualTo(2);
        assertThat(cli.err()).contains("too short to say anything");
        assertThat(firstLine(cli.err())).contains(log.toString());
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void aLogOfOneRequestIsTooShortForAdviceNotForAReplay() throws IOException {
        Path log = write("one.txt", floodLog("GET").subList(0, 1));
        assertThat(cli.run("advise", log.toString(), "--results", dir.resolve("r").toString())).isEqualTo(2);
        assertThat(firstLine(cli.err())).isEqualTo("run-tests.sh: " + log + ": 1 request over 0 s: too short to say"
                + " anything (advise needs at least 100 requests over 60 s)");
        // Without the log's path, which may itself hold the word (a checkout named replay-something).
        assertThat(cli.err().replace(log.toString(), "LOG")).doesNotContain("replay");
    }

    @Test
    void capacityBelowTheMeanRateIsOneLine() throws IOException {
        Path log = write("capacity.txt", floodLog("GET"));
        assertThat(cli.run("advise", log.toString(), "--origin-capacity", "5", "--results", dir.resolve("r").toString()))
                .isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("--origin-capacity 5 r/s is below the log's mean rate");
    }

    @Test
    void noCacheablePathIsOneLine() throws IOException {
        Path log = write("posts.txt", floodLog("POST"));
        assertThat(cli.run("advise", log.toString(), "--results", dir.resolve("r").toString())).isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("no cacheable path");
    }

    @Test
    void badFlagsAreOneLineEach() {
        assertThat(cli.run("advise", "missing.log", "--max-hurt-clients", "150%", "--origin-capacity", "lots")).isEqualTo(2);
        assertThat(cli.err()).contains("--max-hurt-clients must be a percentage from 0 to 100",
                "--origin-capacity must be requests per second");
    }

    @Test
    void aCombinedLogsAdviceSaysItsTimesAreWholeSecondsAndOnWhichReadingItWasMade() throws IOException {
        Path log = write("seconds.txt", floodLog("GET"));
        assertThat(cli.run("advise", log.toString(), "--within-second", "spread", "--results", dir.resolve("seconds").toString()))
                .as(cli.err()).isZero();
        assertThat(cli.out()).contains("times are whole seconds: assumed spread evenly over their second");
        Matcher folder = Pattern.compile("advice: (\\S+) \\(").matcher(cli.out());
        assertThat(folder.find()).isTrue();
        assertThat(Path.of(folder.group(1)).resolve("advice.md")).content().contains("## Within a second",
                "(`--within-second spread`)", "| | spread evenly (assumed) | bunched at the start |");
    }

    /** Two minutes of the suite's JSON log: keys f1, f2 at 1 r/s, p1 at 8 r/s, and keyless requests, from one address. */
    static List<String> keyedLog() {
        List<String> lines = new ArrayList<>();
        DateTimeFormatter iso = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
        for (int ms = 0; ms < 120_000; ms += 125) {
            List<String> keys = new ArrayList<>(List.of("p1"));
            if (ms % 1000 == 0) {
                keys.addAll(List.of("f1", "f2", ""));
            }
            for (String key : keys) {
                lines.add("{\"time\":\"" + iso.format(START.plusNanos(ms * 1_000_000L)) + "\",\"client\":\"10.0.0.1\","
                        + "\"method\":\"GET\",\"uri\":\"/api/items\",\"status\":200,\"bytes\":5"
                        + (key.isEmpty() ? "" : ",\"api_key\":\"" + key + "\"") + "}");
            }
        }
        return lines;
    }

    @Test
    void withAKeyFieldAndATiersFileEachTierIsAdvisedAndTiersTxtIsWritten() throws IOException {
        Path log = write("api.jsonl", keyedLog());
        Path tiers = write("tiers-in.txt", List.of("free 100 100 nodelay f1,f2", "pro 100 100 nodelay p1"));
        assertThat(cli.run("advise", log.toString(), "--key-field", "api_key", "--tiers", tiers.toString(),
                "--front-mode", "nodelay", "--results", dir.resolve("keys").toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("per tier (key field api_key): free 1 r/s burst 5, pro 10 r/s burst 5,"
                + " anonymous 1 r/s burst 5 (tiers.txt)");
        Matcher folder = Pattern.compile("advice: (\\S+) \\(").matcher(cli.out());
        assertThat(folder.find()).isTrue();
        Path advice = Path.of(folder.group(1));
        assertThat(advice.resolve("tiers.txt")).content().contains("free 1 5 nodelay f1,f2\n", "pro 10 5 nodelay p1\n",
                "anonymous 1 5 nodelay\n");
        assertThat(advice.resolve("advice.md")).content().contains("## Per tier (keys from field api_key)",
                "Tier membership comes from `" + tiers + "`", "[tiers.txt](tiers.txt)");
        // Its times have fractions of a second: no reading of a second to state.
        assertThat(advice.resolve("advice.md")).content().doesNotContain("only that reading is worked out per tier");
    }

    @Test
    void aKeyedLogOfAWeekGetsADailyQuotaPerTierInTheTerminalAndAdviceMd() throws IOException {
        dev.ratecache.suite.advise.MultiDayLog week = dev.ratecache.suite.advise.MultiDayLog.generate(38, 7);
        Path log = week.write(dir.resolve("week"), "week.jsonl");
        assertThat(cli.run("advise", log.toString(), "--key-field", "api_key", "--tiers",
                dir.resolve("week/tiers-in.txt").toString(), "--results", dir.resolve("week-results").toString()))
                .as(cli.err()).isZero();

        assertThat(cli.out()).contains("daily quota per tier over the whole UTC days 2026-11-16 to 2026-11-22 (7 days),"
                + " the tightest that cuts at most 1 % of a tier's normal key-days:")
                .containsPattern("  free: 51 keys \\(1 outlier\\), \\d+ normal key-days, median \\d+ a day; recommended \\d+/d")
                .containsPattern("  pro: 21 keys \\(1 outlier\\), \\d+ normal key-days, median \\d+ a day; recommended \\d+/d");
        Path advice = adviceFolder(cli.out());
        assertThat(advice.resolve("advice.md")).content().contains("## Per tier (keys from field api_key)",
                "## Daily quota per tier", "### free: ", "### pro: ", "Outlier keys: pro-heavy");
    }

    @Test
    void aKeyedLogOfOneDayGetsNoQuotaAndOneLineSaysWhy() throws IOException {
        Path log = write("api-one-day.jsonl", keyedLog());
        assertThat(cli.run("advise", log.toString(), "--key-field", "api_key", "--results",
                dir.resolve("one-day").toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("daily quota per tier: none advised: the log spans one UTC day (2026-11-20):"
                + " a daily quota needs a log of two days or more\n");
        assertThat(adviceFolder(cli.out()).resolve("advice.md")).content()
                .contains("## Daily quota per tier\n\nNone advised: the log spans one UTC day (2026-11-20)");
    }

    @Test
    void aKeyFieldNoRequestHasIsOneLine() throws IOException {
        Path log = write("api-nokey.jsonl", keyedLog());
        assertThat(cli.run("advise", log.toString(), "--key-field", "token", "--results", dir.resolve("r").toString()))
                .isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("--key-field token: no request has a key in that field");
    }

    @Test
    void tiersWithoutAKeyFieldOrAKeyFieldOnACombinedLogIsOneLine() throws IOException {
        Path tiers = write("tiers-ok.txt", List.of("free 1 5 nodelay f1"));
        assertThat(cli.run("advise", "missing.log", "--tiers", tiers.toString())).isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("--tiers says which tier each key is in: add --key-field NAME");

        assertThat(cli.run("advise", "missing.log", "--key-field", "k", "--log-format", "combined")).isEqualTo(2);
        assertThat(cli.err()).contains("--key-field needs a log with named fields (suite-json or json:...);"
                + " --log-format combined has none");

        Path bad = write("tiers-bad.txt", List.of("free 1 5 sometimes f1"));
        assertThat(cli.run("advise", "missing.log", "--key-field", "k", "--tiers", bad.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--tiers " + bad + ":1: ");
    }

    @Test
    void aWithinSecondOtherThanStartOrSpreadIsOneLine() {
        assertThat(cli.run("advise", "missing.log", "--within-second", "middle")).isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("--within-second must be start or spread (got 'middle')");
    }

    @Test
    void aMissingLogIsOneLine() {
        assertThat(cli.run("advise", dir.resolve("nothing-here.log").toString())).isEqualTo(2);
        assertThat(firstLine(cli.err())).contains("no such file");
    }

    private static String firstLine(String text) {
        return Stream.of(text.split("\n")).findFirst().orElse("");
    }
}
