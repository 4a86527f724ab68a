package dev.ratecache.suite.cli;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.jmeter.JtlSummary;
import dev.ratecache.suite.net.Ports;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.commons.text.similarity.LevenshteinDistance;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The command line behind run-tests.sh. */
@Command(name = "run-tests.sh", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Starts the origin app server, the back end and the front end Nginx tiers, runs a JMeter plan",
            "through the front end, and writes the results to results/<timestamp>/.",
            "",
            "  ./run-tests.sh              run the stress plan through the stack",
            "  ./run-tests.sh test         run every test (./mvnw -B verify)",
            "  ./run-tests.sh render DIR   write the rendered Nginx configs for these switches to DIR",
            ""},
        subcommands = {RenderCommand.class},
        footer = {"", "Every process the suite starts is stopped on exit, on failure and on Ctrl-C."})
public final class RunTests implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    NginxSwitches switches = new NginxSwitches();

    @Option(names = "--origin-threads", paramLabel = "N",
            description = "Request threads of the suite's origin (its capacity on /hare is about N x 10 responses/s). Default: ${DEFAULT-VALUE}.")
    int originThreads = 10;

    @Option(names = "--plan", paramLabel = "FILE.jmx", description = "JMeter plan to run. Default: jmeter/plans/stress.jmx.")
    Path plan;

    @Option(names = "-J", paramLabel = "NAME=VALUE",
            description = "A JMeter property for the plan, e.g. -Jusers=10 -Jloops=5; repeatable.")
    Map<String, String> jmeterProperties = new LinkedHashMap<>();

    @Option(names = "--results", paramLabel = "DIR", description = "Where run folders go. Default: results/ in the checkout.")
    Path results;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RunTests());
        cli.setParameterExceptionHandler(RunTests::badInput);
        return cli;
    }

    /** Bad input: one clear line (and where to look), before anything starts. */
    private static int badInput(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        String hint = "";
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            hint = closestOption(cli, unmatched.getUnmatched().get(0)).map(o -> " (did you mean " + o + "?)").orElse("");
        }
        cli.getErr().println("run-tests.sh: " + e.getMessage() + hint);
        cli.getErr().println("Try ./run-tests.sh --help for every flag and its accepted values.");
        return 2;
    }

    /** The flag nearest to a mistyped one, when one is near enough to be what was meant. */
    static Optional<String> closestOption(CommandLine cli, String typed) {
        LevenshteinDistance distance = new LevenshteinDistance(3);
        return cli.getCommandSpec().options().stream()
                .flatMap(o -> Arrays.stream(o.names()))
                .filter(name -> distance.apply(name, typed) >= 0)
                .min(Comparator.comparingInt(name -> distance.apply(name, typed)));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<String> problems = new ArrayList<>(switches.problems());
        if (originThreads < 1 || originThreads > 1000) {
            problems.add("--origin-threads must be a whole number from 1 to 1000 (got " + originThreads + ")");
        }
        Path planFile = plan != null ? plan : Repo.plans().resolve("stress.jmx");
        if (!Files.isRegularFile(planFile)) {
            problems.add("--plan " + planFile + " is not a file: give the path of a .jmx plan");
        }
        problems.addAll(ports.problems(switches.origins().isEmpty()));
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }

        Path runDir = (results != null ? results : Repo.root().resolve("results"))
                .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(runDir);
        out.println("run folder: " + runDir);
        out.println("switches:   " + switches.describe());
        out.flush();

        Map<String, String> props = new LinkedHashMap<>();
        props.put("host", Ports.LOOPBACK);
        props.put("port", String.valueOf(ports.front()));
        props.putAll(jmeterProperties);
        try (Stack stack = Stack.start(switches, ports, runDir, originThreads, List.of())) {
            out.println("stack up:   front " + stack.frontUri() + ", back " + stack.backUri()
                    + stack.ownOrigin().map(o -> ", origin " + o.uri()).orElse(""));
            out.println("running " + planFile.getFileName() + " with " + props);
            out.flush();
            JMeter.Run run = JMeter.assembled().run(planFile, props, runDir.resolve("jmeter"), true);
            JtlSummary summary = JtlSummary.read(run.jtl());
            out.println();
            out.println(summary.describe());
            if (summary.samples() == 0) {
                spec.commandLine().getErr().println("run-tests.sh: the run produced no samples; see "
                        + run.log());
                return 1;
            }
            out.println("results in " + runDir);
            return 0;
        }
    }
}
