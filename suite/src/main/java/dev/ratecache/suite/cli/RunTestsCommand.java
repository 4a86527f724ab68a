package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.switches.FlagValue;
import dev.ratecache.suite.switches.OriginUrl;
import dev.ratecache.suite.switches.WholeNumber;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** The command line behind run-tests.sh (named so that no tool takes it for a test class). */
@Command(name = "run-tests.sh", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true, abbreviateSynopsis = true,
        // One string per paragraph: picocli wraps it at the terminal's width, between words.
        description = {
            "Runs a matrix of rate-limiting and caching configurations: for each cell it starts fresh Nginx tiers"
                    + " in front of the origin app server, runs a JMeter plan through them, and measures. Writes a"
                    + " report to results/<timestamp>/ (results/latest points at the newest).",
            "",
            // Examples are laid out by hand, so each stays within the narrowest (80-column) help.
            "  ./run-tests.sh                  the reference experiment's matrix",
            "  ./run-tests.sh --profile quick  the same, scaled down (under 2 minutes)",
            "  ./run-tests.sh test             run the tests (--full: the long lane too)",
            "  ./run-tests.sh fuzz             fuzz the parsers of logs and tools' output",
            "  ./run-tests.sh install-client   the client library into ~/.m2",
            "  ./run-tests.sh render DIR       write the rendered Nginx configs to DIR",
            "  ./run-tests.sh peak             each path's peak req/s against nginx's own",
            "  ./run-tests.sh clients          many clients, one key: four retry strategies",
            "  ./run-tests.sh reproduce [NAME] the source experiments beside their figures",
            "  ./run-tests.sh replay LOG       your access log through the same matrix",
            "  ./run-tests.sh advise LOG       limits and cache lifetimes for your log",
            "  ./run-tests.sh explain FILE     your nginx.conf's limits and cache in words",
            "  ./run-tests.sh compare A B      two run folders: better, worse or noise",
            "  ./run-tests.sh migrate --to X   your limit moved off nginx, request by request",
            "  ./run-tests.sh up [switches]    keep the stack up (Ctrl-C stops it)",
            "  ./run-tests.sh down             stop what up started, from another terminal",
            "  ./run-tests.sh load-server      a JMeter server on a load host (--load-hosts)",
            ""},
        subcommands = {ReplayCommand.class, AdviseCommand.class, ExplainCommand.class, RenderCommand.class, GuiCommand.class, PeakCommand.class, UpCommand.class,
            DownCommand.class, LoadServerCommand.class, ReproduceCommand.class, ExamplesCommand.class, ClientsCommand.class,
            CompareCommand.class, MigrateCommand.class},
        footer = {"", "Every process the suite starts is stopped on exit, on failure and on Ctrl-C."})
public final class RunTestsCommand extends MatrixCommand {
    @Option(names = "--plan", paramLabel = "FILE.jmx",
            description = "Your own JMeter plan instead of the stress and load plans; its cells are named after the file.")
    Path plan;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The longest argument taken: a path's longest on Linux (PATH_MAX), longer than any flag's value.
     * A longer one is refused before picocli or a flag's check reads it, at once whatever its length.
     */
    static final int MAX_ARGUMENT_CHARS = 4096;

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RunTestsCommand()) {
            @Override
            public int execute(String... args) {
                for (int i = 0; i < args.length; i++) {
                    if (args[i].length() > MAX_ARGUMENT_CHARS) {
                        getErr().println("run-tests.sh: argument " + (i + 1) + " is " + args[i].length()
                                + " characters long, past the longest taken (" + MAX_ARGUMENT_CHARS + ", a path's"
                                + " longest): '" + Printable.shown(OriginUrl.masked(args[i])) + "'");
                        getErr().println("Try ./run-tests.sh --help for every flag and its accepted values.");
                        getErr().flush();
                        return 2;
                    }
                }
                return super.execute(args);
            }
        };
        // The commands' enum options, for every subcommand: spelled as --help lists them, refused in one line.
        cli.registerConverter(Profile.class, FlagValue.oneOf(Profile.class, "a profile"));
        cli.registerConverter(MatrixKind.class, FlagValue.oneOf(MatrixKind.class, "a matrix"));
        cli.registerConverter(AppCacheOption.class, FlagValue.oneOf(AppCacheOption.class, "an app cache mode"));
        cli.registerConverter(dev.ratecache.suite.origin.OriginDatabase.Kind.class,
                FlagValue.oneOf(dev.ratecache.suite.origin.OriginDatabase.Kind.class, "a database"));
        cli.registerConverter(EdgeProduct.class, FlagValue.oneOf(EdgeProduct.class, "an edge"));
        // A number past an int is refused naming the flag's range, as one in an int but out of range is.
        cli.registerConverter(Integer.class, new WholeNumber.Converter());
        cli.registerConverter(int.class, new WholeNumber.Converter());
        cli.setParameterExceptionHandler(RunTestsCommand::badInput);
        WordWrappedHelp.install(cli);
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            if (e instanceof Repo.NotFound) {
                c.getErr().println("run-tests.sh: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        return cli;
    }

    /** Bad input: one clear line (and where to look), before anything starts. */
    private static int badInput(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        String hint = "";
        // picocli's own suggestions: the flags (or subcommands) that look like a mistyped one.
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            // All of them, as picocli's own handler lists them: its ranking does not always put the intended one first.
            hint = " (did you mean one of " + String.join(", ", unmatched.getSuggestions()) + "?)";
        }
        // Problems quote what they were given (flags, lines of a log or of --assert-file): each stays
        // one line, and nothing from a binary file reaches the terminal as a control character. Nor
        // does a password in a URL, which picocli quotes too when its flag is unknown to the command.
        String message = WholeNumber.refusal(e).or(() -> tooManyArguments(e)).orElse(String.valueOf(e.getMessage()));
        String lines = String.join("\n", message.lines().map(line -> Printable.escape(OriginUrl.masked(line))).toList());
        cli.getErr().println("run-tests.sh: " + lines + hint);
        cli.getErr().println("Try ./run-tests.sh --help for every flag and its accepted values.");
        return 2;
    }

    /**
     * An argument past those a command takes, said in its words (picocli's own line gives only the
     * argument's index): what the command takes, and the argument left over.
     */
    private static java.util.Optional<String> tooManyArguments(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched) || !unmatched.getSuggestions().isEmpty()
                || unmatched.getUnmatched().isEmpty() || unmatched.getUnmatched().get(0).startsWith("-")) {
            return java.util.Optional.empty();
        }
        CommandLine cli = e.getCommandLine();
        String extra = "'" + Printable.shown(unmatched.getUnmatched().get(0)) + "'";
        List<CommandLine.Model.PositionalParamSpec> takes = cli.getCommandSpec().positionalParameters();
        if (cli.getParent() == null) {
            List<String> commands = cli.getSubcommands().entrySet().stream()
                    .filter(c -> !c.getValue().getCommandSpec().usageMessage().hidden()).map(java.util.Map.Entry::getKey)
                    .toList();
            return java.util.Optional.of(extra + " is not a command: use " + String.join(", ", commands)
                    + ", or flags alone for a run");
        }
        String name = cli.getCommandName();
        if (takes.isEmpty()) {
            return java.util.Optional.of(name + " takes no arguments, only flags (got " + extra + ")");
        }
        return java.util.Optional.of(name + " takes " + String.join(" ", takes.stream().map(p -> p.arity().max() > 1
                ? p.paramLabel() + "..." : p.paramLabel()).toList()) + (takes.stream().allMatch(p -> p.arity().min() == 0)
                ? " at most" : "") + ", and no more arguments: drop " + extra);
    }

    @Override
    List<Plan> plans(List<String> problems, Path runDir) {
        if (plan == null) {
            return Plan.REFERENCE;
        }
        Plan mine = Plan.custom(plan);
        if (!Files.isRegularFile(plan) || !plan.toString().endsWith(".jmx")) {
            problems.add("--plan " + Printable.shown(plan.toString()) + " is not a .jmx file: give the path of a JMeter plan");
        } else if (Plan.builtIn(mine.name()).isPresent()) {
            problems.add("--plan " + Printable.shown(plan.toString()) + ": rename your plan (" + String.join(", ", Plan.builtInNames())
                    + " are the suite's own plans' names)");
        }
        return List.of(mine);
    }

    @Override
    boolean ownPlan() {
        return plan != null;
    }

    @Override
    String notOwnPlan() {
        return "drop --plan";
    }
}
