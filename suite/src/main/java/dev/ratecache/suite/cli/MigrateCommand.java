package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.AccessLogException;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.migrate.Migration;
import dev.ratecache.suite.migrate.Nearest;
import dev.ratecache.suite.migrate.OwnLimit;
import dev.ratecache.suite.explain.ConfigReader;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.Extractor;
import dev.ratecache.suite.migrate.Traffic;
import dev.ratecache.suite.migrate.Verify;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * ./run-tests.sh migrate --to PRODUCT: what moving a per-client limit off the default product changes
 * for its clients. Writes the product's nearest config, what differs and why, and both limits' models
 * on the same traffic request by request; with --verify, runs both for real.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true, abbreviateSynopsis = true, sortOptions = false,
        description = {
            "What changes for your clients when you move your per-client limit (the switches' --front-rate,"
                    + " --front-burst, --front-mode, --limit-key, --reject-status) off nginx: writes the other"
                    + " product's nearest config (as render --edge does), what differs and why (in each product's own"
                    + " words), and each request of the same traffic decided by both limits' models: a steady client at"
                    + " the rate, a burst after an idle minute, floods at 2x and 10x the rate, or your own access log"
                    + " (--log). Prints one sentence per traffic; writes report.md and migrate.json with the config."
                    + " Starts nothing unless --verify.",
            "",
            "  ./run-tests.sh migrate --to haproxy",
            "  ./run-tests.sh migrate --to varnish --front-rate 10 --front-burst 20",
            "  ./run-tests.sh migrate --to haproxy --log access.log --out moved",
            "  ./run-tests.sh migrate --to haproxy --verify",
            ""})
public final class MigrateCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--to", paramLabel = "PRODUCT", required = true,
            description = "The product you move to: any --edge but the default.")
    String to;

    @Option(names = "--nginx-conf", paramLabel = "FILE",
            description = "Your own nginx config in place of the limit's switches: its one limit_req (zone rate, key,"
                    + " burst, nodelay or delay=, limit_req_status), read as explain reads it (checked by nginx -t,"
                    + " parsed by crossplane, by nginx's merge rules). A config with several different limits is refused:"
                    + " give the one you move with the switches.")
    Path nginxConf;

    @Option(names = "--log", paramLabel = "ACCESS_LOG",
            description = "Your access log (as replay and advise read it) in place of the generated traffic: each"
                    + " request decided by both limits at its logged time, by its client's address (or its key: --key-field).")
    Path log;

    @Mixin
    LogInput logInput = new LogInput();

    @Option(names = "--key-field", paramLabel = "NAME",
            description = "With --log, a JSON log (suite-json or json:...): the field holding each request's key, which"
                    + " both limits then count by in place of the client's address (as your --limit-key does); a request"
                    + " without one is counted by its address.")
    String keyField;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where the config, report.md and migrate.json go: a new or empty folder. Default: a new"
                    + " migrate-<time> folder in results/.")
    Path out;

    @Option(names = "--verify",
            description = "Also run both for real (nginx's tiers from your switches, the other product's from the"
                    + " nearest config, each in front of the suite's origin on free ports) under one client's flood at "
                    + Verify.FLOOD_TIMES_RATE + "x the rate for a few seconds, and compare each product's own"
                    + " decisions with its model's, request by request; exits 1 when more than 2 %% differ.")
    boolean verify;

    @Mixin
    DryRun dryRun = new DryRun();

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    StackSwitches switches = new StackSwitches();

    /** The products --to takes: every registered one but the default, as typed. */
    static List<String> targets() {
        return Arrays.stream(EdgeProduct.values()).filter(p -> p != EdgeProduct.DEFAULT).map(EdgeProduct::toString).toList();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        List<String> problems = new ArrayList<>();
        Optional<EdgeProduct> target = Arrays.stream(EdgeProduct.values())
                .filter(p -> p != EdgeProduct.DEFAULT && p.toString().equals(to.strip().toLowerCase(Locale.ROOT))).findFirst();
        if (target.isEmpty()) {
            problems.add("--to takes the product you move to from " + EdgeProduct.DEFAULT + ": "
                    + String.join(", ", targets()) + " (got '" + Printable.shown(to) + "')");
        }
        problems.addAll(switches.problems());
        problems.addAll(ports.problems(switches));
        if (!switches.frontLimit()) {
            problems.add("migrate compares the per-client limit, which --no-front-limit turns off: drop --no-front-limit");
        }
        if (log != null && !Files.isRegularFile(log)) {
            problems.add("--log " + Printable.shown(log.toString()) + " is not a readable file: give your access log");
        }
        logInput.badLinesProblem().ifPresent(problems::add);
        dev.ratecache.accesslog.LogFormat format = null;
        try {
            format = logInput.format();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (keyField != null) {
            problems.addAll(LogInput.keyFieldProblems(keyField, format));
            if (log == null) {
                problems.add("--key-field names the field of --log that holds each request's key: give --log FILE too");
            }
        }
        if (out != null) {
            RunFolders.notAFolder(out, "--out").ifPresent(problems::add);
            if (problems.isEmpty() && Files.exists(out) && !emptyFolder(out)) {
                problems.add("--out " + Printable.shown(out.toString()) + " is not a new or empty folder: give one,"
                        + " or leave --out out for a new folder in results/");
            }
        }
        if (verify) {
            // The flood is the suite's own: plain HTTP, from one address without a key, to the suite's origin.
            if (switches.tls()) {
                problems.add("--verify floods over plain HTTP: drop --tls, or drop --verify");
            }
            if (!switches.origins().isEmpty()) {
                problems.add("--verify runs both products in front of the suite's origin: drop --origin, or drop --verify");
            }
        }
        if (nginxConf != null) {
            List<String> given = LIMIT_FLAGS.stream()
                    .filter(f -> spec.commandLine().getParseResult().hasMatchedOption(f)).toList();
            if (!given.isEmpty()) {
                problems.add("--nginx-conf gives the limit, and so does " + String.join(", ", given)
                        + ": give the limit one way, the config or the switches");
            }
        }
        Refuse.ifAny(spec, problems);
        String source = "the switches";
        if (nginxConf != null) {
            OwnLimit own = ownLimit();
            own.applyTo(switches);
            source = Printable.shown(nginxConf.toString()) + "'s " + own.where();
            Refuse.ifAny(spec, switches.problems());
        }
        if (verify && !switches.limitKey().byAddress()) {
            // Asked once the limit is known: --nginx-conf's may count by a key.
            Refuse.ifAny(spec, List.of("--verify floods from one address without a key: give --limit-key addr, or drop"
                    + " --verify"));
        }
        Edge from = EdgeProduct.DEFAULT.adapter();
        Edge edge = target.get().adapter();
        Optional<Nearest> nearest = Nearest.of(edge, switches, ports);
        if (nearest.isEmpty()) {
            Refuse.ifAny(spec, List.of(edge.refusal(switches.spec(ports)).orElseThrow()));
        }
        if (verify) {
            List<String> missing = new ArrayList<>();
            from.notInstalled().ifPresent(missing::add);
            edge.notInstalled().ifPresent(missing::add);
            Refuse.ifAny(spec, missing.stream().map(m -> "--verify runs both products: " + m).toList());
        }
        if (dryRun.on && log == null) {
            List<String> wouldRun = new ArrayList<>();
            wouldRun.add("both limits' models on " + String.join(", ", Traffic.generated(switches.frontRate(),
                    switches.frontBurst()).stream().map(Traffic::words).toList()));
            wouldRun.add(edge.displayName() + "'s nearest config into " + (out != null ? out : "a new migrate folder in results/"));
            if (verify) {
                wouldRun.add("both products for real, each under one client's flood at " + Verify.FLOOD_TIMES_RATE
                        + "x the rate for " + Verify.FLOOD.toSeconds() + " s");
            }
            return dryRun.report(stdout, wouldRun);
        }
        List<Traffic> traffics;
        if (log != null) {
            ParsedLog parsed;
            try {
                parsed = logInput.read(log, logInput.format(), keyField);
            } catch (AccessLogException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            traffics = List.of(Traffic.fromLog(Printable.shown(log.getFileName().toString()), parsed.requests(),
                    parsed.resolution() == TimeResolution.WHOLE_SECONDS));
            if (dryRun.on) {
                return dryRun.report(stdout, List.of("both limits' models on " + parsed.requests().size()
                        + " requests of your log", edge.displayName() + "'s nearest config"));
            }
        } else {
            traffics = Traffic.generated(switches.frontRate(), switches.frontBurst());
        }
        Migration migration = Migration.of(from, edge, switches, nearest.get(), traffics, source);
        Path dir = out != null ? out : RunFolders.next(RunFolders.results(null), "migrate-");
        Files.createDirectories(dir);
        List<String> files = new ArrayList<>();
        for (Path file : edge.render(nearest.get().switches().spec(ports), dir.resolve("config"))) {
            files.add(dir.relativize(file).toString());
        }
        stdout.print(migration.text());
        String verified = null;
        List<Verify.Result> results = List.of();
        int exit = 0;
        if (verify) {
            stdout.println("Verifying: both configs run for real, one client's flood at " + Verify.FLOOD_TIMES_RATE
                    + "x the rate for " + Verify.FLOOD.toSeconds() + " s each ...");
            stdout.flush();
            results = Verify.run(from, switches, edge, nearest.get().switches(), dir.resolve("verify"));
            StringBuilder b = new StringBuilder("Each product's own decisions (its front's events) against its model's, on"
                    + " one client's flood at " + Verify.FLOOD_TIMES_RATE + "x the rate for " + Verify.FLOOD.toSeconds()
                    + " s; at most " + Math.round(Verify.TOLERANCE * 100) + " % of requests (and at least "
                    + Verify.TOLERANCE_MIN + ") may differ, on a millisecond of the product's clock:\n");
            for (Verify.Result r : results) {
                b.append("\n- ").append(r.words());
                stdout.println("  - " + r.words());
                if (!r.agrees()) {
                    exit = 1;
                }
            }
            verified = b.toString();
        }
        migration.write(dir, files, verified, results);
        stdout.println("migrate: " + dir + " (report.md, migrate.json, " + String.join(", ", files) + ")");
        return exit;
    }

    /** The switches a config given by --nginx-conf says instead. */
    static final List<String> LIMIT_FLAGS = List.of("--front-rate", "--front-burst", "--front-mode", "--limit-key",
            "--reject-status");

    /** The limit of --nginx-conf, read as explain reads it; refused in one line when the switches cannot say it. */
    private OwnLimit ownLimit() throws Exception {
        Path work = Files.createTempDirectory("ratecache-migrate-");
        try {
            ConfigReader.Read read = ConfigReader.read(nginxConf, work.resolve("prefix"));
            return OwnLimit.of(Extractor.extract(read.tree()), Printable.shown(nginxConf.toString()));
        } catch (ConfigRefused e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "migrate --nginx-conf " + e.getMessage());
        } catch (OwnLimit.Unsaid e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nginx-conf " + e.getMessage());
        } finally {
            RunFolders.deleteQuietly(work);
        }
    }

    private static boolean emptyFolder(Path dir) throws java.io.IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.findAny().isEmpty();
        }
    }
}
