package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.AccessLogException;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.WithinSecond;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.accesslog.UserFile;
import dev.ratecache.suite.advise.AdviceWriter;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.advise.Advisor;
import dev.ratecache.suite.advise.EdgeSizing;
import dev.ratecache.suite.advise.ChosenServer;
import dev.ratecache.suite.advise.WhatIfReport;
import dev.ratecache.suite.explain.ConfigReader;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.advise.QuotaAdviceReport;
import dev.ratecache.suite.advise.QuotaAdvisor;
import dev.ratecache.suite.advise.TierAdviceReport;
import dev.ratecache.suite.peak.ServiceDemands;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.TierMembership;
import dev.ratecache.suite.switches.TiersFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * ./run-tests.sh advise ACCESS_LOG: candidate limits and cache lifetimes swept over the user's
 * own traffic through the model, no stack started. Reads the log with replay's readers.
 */
@Command(name = "advise", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Reads an access log and sweeps candidate settings through the model of the two tiers: the front's"
                    + " per-client rate and burst (the share of requests rejected or delayed, the clients hurt, the"
                    + " largest flood one client could push through), cache lifetimes per path (hit ratio, origin"
                    + " requests per second, the oldest content a client could see) and the back's limit at the"
                    + " origin's capacity. Recommends the tightest front limit within --max-hurt-clients, a lifetime"
                    + " per path where the gain flattens, and writes advice.md and the nginx snippets (also in"
                    + " limit_req_dry_run form) to results/advise-<timestamp>/.",
            "",
            "With --nginx-conf, the what-if: the model's limit_req decision for every logged request under your own"
                    + " config (nginx -t checks it, crossplane reads it), with the rejections and delays per key, path and"
                    + " minute and the clients hit hardest; and when the log carries $limit_req_status (the dry-run log"
                    + " format advise writes), shadow mode: each of nginx's decisions beside the model's, and their"
                    + " agreement. Written to advice.md, whatif.json and whatif.csv.",
            "",
            "  ./run-tests.sh advise access.log",
            "  ./run-tests.sh advise access.log.gz --origin-capacity 100 --max-staleness 60",
            // A command longer than the narrowest help goes on with a backslash, so that it copies whole.
            "  ./run-tests.sh advise app.jsonl \\",
            "      --log-format json:time=ts,client=ip,method=verb,uri=path",
            "  ./run-tests.sh advise api.jsonl --key-field api_key --tiers tiers.txt",
            "  ./run-tests.sh advise limit-dry-run.log --nginx-conf nginx.conf",
            "  ./run-tests.sh advise access.log --sizing      cores per tier for the busiest minute",
            ""})
public final class AdviseCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ACCESS_LOG",
            description = "The log: nginx or Apache combined, common, the suite's JSON log, or JSON lines (see --log-format); gzip is read as it is;"
                    + " a line longer than " + AccessLog.MAX_LINE + " is a bad line (see --bad-lines).")
    Path log;

    @Mixin
    LogInput logInput = new LogInput();

    @Option(names = "--origin-capacity", paramLabel = "R/s",
            description = "Requests per second the origin can serve; sizes the back limit (none advised without it).")
    String originCapacity;

    @Option(names = "--max-hurt-clients", paramLabel = "P%",
            description = "The share of normal clients (outliers apart) the front limit may reject at least once. Default: ${DEFAULT-VALUE}.")
    String maxHurtClients = DEFAULT_MAX_HURT_PCT + "%";

    /** The share of normal clients a front limit may hurt, unless told otherwise (replay --use-advice uses it too). */
    static final double DEFAULT_MAX_HURT_PCT = 1;

    @Option(names = "--max-staleness", paramLabel = "S",
            description = "The oldest content, in seconds, a client may be answered with: caps every lifetime.")
    Integer maxStaleness;

    @Option(names = "--top", paramLabel = "N", description = "Paths, by requests, that get a lifetime. Default: ${DEFAULT-VALUE}.")
    int top = 10;

    @Option(names = "--front-mode", paramLabel = "queue|nodelay",
            description = "How the front limit treats requests inside the burst. Default: ${DEFAULT-VALUE}.")
    String frontMode = "queue";

    @Option(names = "--within-second", paramLabel = "start|spread",
            description = "For a log of whole seconds (combined, common): where in its second each request is taken to have"
                    + " come for the figures and the recommendation, bunched at its start as written or spread evenly over"
                    + " it; advice.md gives the other reading beside it. Default: ${DEFAULT-VALUE}.")
    String withinSecond = "start";

    @Option(names = "--key-field", paramLabel = "NAME",
            description = "For a JSON log (suite-json or json:...): the field holding each request's key. advise then"
                    + " recommends a rate and burst per tier (keys as the clients, within --max-hurt-clients of each"
                    + " tier's normal keys) and writes tiers.txt, ready for --tiers. A log of several UTC days also"
                    + " gets a daily quota per tier: the tightest that cuts at most --max-hurt-clients of the tier's"
                    + " normal key-days.")
    String keyField;

    @Option(names = "--tiers", paramLabel = "FILE",
            description = "With --key-field: the tiers file whose keys say which tier each key is in (its rates are"
                    + " what is advised anew). Without it every key is in one tier, anonymous.")
    Path tiers;

    @Option(names = "--nginx-conf", paramLabel = "FILE",
            description = "Your nginx config (a whole nginx.conf, or a file of server blocks): the model decides every"
                    + " logged request under its limit_req (the what-if), and compares each decision with nginx's own"
                    + " when the log carries $limit_req_status (shadow mode).")
    Path nginxConf;

    @Option(names = "--server-name", paramLabel = "NAME",
            description = "With --nginx-conf: the server block whose requests the log holds, as nginx matches a Host."
                    + " Default: the default server of the config's first listen.")
    String serverName;

    @Option(names = "--results", paramLabel = "DIR", description = "Where the advice folder goes. Default: results/ in the checkout.")
    Path results;

    @Option(names = "--sizing",
            description = "Also size the tiers: for the log's busiest minute at its hit ratio by path, the cores each tier"
                    + " needs at 70 %% utilisation, from measured CPU per request (--demands); beside it the cache off and"
                    + " a flood at 10x from one key, each with the tier that saturates first and at what rate.")
    boolean sizing;

    @Option(names = "--demands", paramLabel = "FILE",
            description = "With --sizing: the service demands to size with, as ./run-tests.sh peak --demands writes them"
                    + " (yours, measured on your machine). Default: results/demands.json when peak --demands wrote it"
                    + " here, else results/example-capacity/demands.json, measured on this project's 2-core machine.")
    Path demandsFile;

    /** --sizing's demands, read by {@link #validate}. */
    private EdgeSizing.Demands demands;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Advisor.Options options = validate();
        List<LimitTier> given = givenTiers();
        ParsedLog parsed;
        Advisor.Advice advice;
        TierAdviceReport perTier = null;
        QuotaAdvisor.QuotaAdvice quotas = null;
        long started = System.nanoTime();
        String noAdvice = null;
        try {
            parsed = logInput.read(log, logInput.format(), keyField);
            try {
                advice = Advisor.advise(parsed.requests(), parsed.resolution(), options);
            } catch (Advisor.BadLog e) {
                if (nginxConf == null) {
                    throw e;
                }
                // The what-if needs no minute of traffic: a short dry-run log still compares.
                advice = null;
                noAdvice = e.getMessage();
            }
            if (keyField != null && advice != null) {
                perTier = perTier(parsed, options, given);
                TierMembership membership = TierMembership.of(given);
                quotas = QuotaAdvisor.advise(parsed.requests(), options.maxHurtPct(), membership.names(),
                        membership::tierOf, LimitTier.ANONYMOUS);
            }
        } catch (AccessLogException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (Advisor.BadLog e) {
            throw new CommandLine.ParameterException(spec.commandLine(), log + ": " + e.getMessage());
        }
        WhatIfReport whatIf = nginxConf == null ? null : whatIf(parsed);
        double seconds = (System.nanoTime() - started) / 1e9;
        Path dir = RunFolders.next(RunFolders.results(results), "advise-");
        Files.createDirectories(dir);
        String source = log.getFileName().toString();
        if (advice != null) {
            AdviceWriter.write(dir, source, advice, perTier, quotas);
            out.println(AdviceWriter.terminal(advice));
        } else {
            AdviceWriter.writeWithoutAdvice(dir, source, noAdvice);
            out.println("no limit or lifetime advised: " + noAdvice);
        }
        if (perTier != null) {
            out.println(perTier.terminal());
        }
        if (sizing && advice != null) {
            String text = EdgeSizing.text(EdgeSizing.size(parsed.requests(), advice.paths(), advice.frontPick().rate(),
                    demands));
            Files.writeString(dir.resolve("advice.md"), "\n## Sizing\n\n```\n" + text + "```\n",
                    java.nio.charset.StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
            out.println();
            out.print(text);
        }
        if (quotas != null) {
            out.println(QuotaAdviceReport.terminal(quotas));
        }
        if (whatIf != null) {
            Files.writeString(dir.resolve("advice.md"), whatIf.markdown(), java.nio.charset.StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            whatIf.write(dir);
            out.println();
            out.println(whatIf.terminal());
        }
        out.println();
        out.printf(Locale.ROOT, "advice: %s (advice.md, %snginx/, nginx/dry-run/); %.1f s for %d lines, %s%n", dir,
                whatIf == null ? "" : WhatIfReport.JSON + ", " + WhatIfReport.CSV + ", ", seconds, parsed.lines(),
                parsed.bad().text());
        return 0;
    }

    /**
     * The what-if of the log under --nginx-conf: the config read as explain reads it (nginx -t, then
     * crossplane), refused in one line when it cannot be, before anything is written.
     */
    private WhatIfReport whatIf(ParsedLog parsed) throws Exception {
        Path work = Files.createTempDirectory("ratecache-advise-");
        ConfigReader.Read read;
        try {
            read = ConfigReader.read(nginxConf, work);
        } catch (ConfigRefused e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nginx-conf " + e.getMessage());
        } finally {
            RunFolders.deleteQuietly(work);
        }
        ChosenServer server;
        try {
            server = ChosenServer.of(read.tree(), serverName);
        } catch (ChosenServer.NoServer e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nginx-conf " + Printable.shown(nginxConf.toString())
                    + ": " + e.getMessage());
        }
        return WhatIfReport.of(Printable.shown(nginxConf.toString()), read.checked(), server, parsed.requests(),
                parsed.resolution() == TimeResolution.WHOLE_SECONDS, parsed.format().hasLimitStatus());
    }

    /** The --tiers file's tiers (checked by {@link #validate}); empty without one. */
    private List<LimitTier> givenTiers() {
        if (tiers == null) {
            return List.of();
        }
        try {
            return TiersFile.read(tiers);
        } catch (TiersFile.Malformed e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tiers " + e.getMessage());
        }
    }

    /**
     * Each tier advised with its keys as the clients. A log read with a key field in which no request
     * has one is refused: the likelier story is a misspelt field name.
     */
    private TierAdviceReport perTier(ParsedLog parsed, Advisor.Options options, List<LimitTier> given)
            throws Advisor.BadLog {
        long keyed = parsed.requests().stream().filter(r -> r.hasKey()).count();
        if (keyed == 0) {
            throw new Advisor.BadLog("--key-field " + keyField + ": no request has a key in that field; check its name"
                    + " (a dotted name reaches into nested objects, e.g. auth.key)");
        }
        TierMembership membership = TierMembership.of(given);
        List<Advisor.TierAdvice> advised = Advisor.adviseTiers(parsed.requests(), parsed.resolution(), options,
                membership.names(), membership::tierOf, LimitTier.ANONYMOUS);
        return new TierAdviceReport(keyField, tiers == null ? null : tiers.toString(), given, advised, keyed,
                parsed.requests().size() - keyed, options.nodelay(), options.maxHurtPct(),
                parsed.resolution() == dev.ratecache.accesslog.TimeResolution.WHOLE_SECONDS ? options.withinSecond() : null);
    }

    /** Every flag checked before the log is read; all problems at once, one line each. */
    Advisor.Options validate() {
        List<String> problems = new ArrayList<>();
        Double capacity = null;
        if (originCapacity != null) {
            capacity = number(originCapacity.replaceFirst("(?i)\\s*r/s$", ""));
            if (capacity == null || !(capacity >= 1)) {
                problems.add("--origin-capacity must be requests per second >= 1, e.g. --origin-capacity 100 (got '"
                        + originCapacity + "')");
            }
        }
        Double hurt = number(maxHurtClients.replaceFirst("\\s*%$", ""));
        if (hurt == null || hurt < 0 || hurt > 100) {
            problems.add("--max-hurt-clients must be a percentage from 0 to 100, e.g. --max-hurt-clients 1% (got '"
                    + maxHurtClients + "')");
        }
        if (maxStaleness != null && maxStaleness < 1) {
            problems.add("--max-staleness must be a whole number of seconds >= 1 (got " + maxStaleness + ")");
        }
        if (top < 1) {
            problems.add("--top must be a whole number >= 1 (got " + top + ")");
        }
        if (!frontMode.equals("queue") && !frontMode.equals("nodelay")) {
            problems.add("--front-mode must be queue or nodelay (got '" + frontMode + "')");
        }
        WithinSecond reading = Stream.of(WithinSecond.values())
                .filter(w -> w.spelling().equalsIgnoreCase(withinSecond.strip())).findFirst().orElse(null);
        if (reading == null) {
            problems.add("--within-second must be start or spread (got '" + withinSecond + "')");
        }
        logInput.badLinesProblem().ifPresent(problems::add);
        LogFormat format = null;
        try {
            format = logInput.format();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (keyField != null) {
            problems.addAll(LogInput.keyFieldProblems(keyField, format));
        }
        if (tiers != null && keyField == null) {
            problems.add("--tiers says which tier each key is in: add --key-field NAME, the log's field holding the key");
        }
        if (tiers != null) {
            try {
                TiersFile.read(tiers);
            } catch (TiersFile.Malformed e) {
                problems.add("--tiers " + e.getMessage());
            }
        }
        if (nginxConf != null) {
            UserFile.problem(nginxConf).ifPresent(p -> problems.add("--nginx-conf " + p));
        }
        if (serverName != null && nginxConf == null) {
            problems.add("--server-name chooses a server of your config: add --nginx-conf FILE");
        }
        if (serverName != null && serverName.isBlank()) {
            problems.add("--server-name needs a name, as the config's server_name writes it, e.g. --server-name api.example.com");
        }
        RunFolders.notAFolder(RunFolders.results(results), "--results").ifPresent(problems::add);
        if (demandsFile != null && !sizing) {
            problems.add("--demands is what --sizing sizes with: add --sizing");
        }
        if (sizing) {
            Path file = demandsFile != null ? demandsFile : defaultDemands();
            Optional<String> unreadable = UserFile.problem(file);
            if (unreadable.isPresent()) {
                problems.add("--demands " + unreadable.get() + (demandsFile == null
                        ? ": measure them with ./run-tests.sh peak --demands" : ""));
            } else {
                try {
                    demands = EdgeSizing.read(file);
                } catch (java.io.IOException e) {
                    problems.add("--demands " + e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }
        return new Advisor.Options(capacity, hurt, maxStaleness, top, frontMode.equals("nodelay"), reading);
    }

    /**
     * --sizing's demands unless --demands names some: yours, where ./run-tests.sh peak --demands wrote
     * them (results/demands.json), else those measured on this project's 2-core machine.
     */
    static Path defaultDemands() {
        Path yours = Repo.root().resolve(ServiceDemands.defaultFile(dev.ratecache.suite.edge.EdgeProduct.DEFAULT));
        return Files.isRegularFile(yours) ? yours
                : Repo.root().resolve(ServiceDemands.COMMITTED).resolve(ServiceDemands.fileName(
                        dev.ratecache.suite.edge.EdgeProduct.DEFAULT));
    }

    private static Double number(String text) {
        try {
            double v = Double.parseDouble(text.trim());
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
