package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.explain.ConfigReader;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.ConfigSpec;
import dev.ratecache.suite.explain.Explanation;
import dev.ratecache.suite.explain.Extractor;
import dev.ratecache.suite.explain.Pitfalls;
import dev.ratecache.suite.switches.Cidr;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * ./run-tests.sh explain FILE: the user's own nginx config in words and the model's numbers, with
 * its pitfalls. Starts no stack: nginx -t checks the config and crossplane parses it.
 */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Reads your own nginx config (with its includes, as nginx -t resolves them, parsed by crossplane) and says"
                    + " for each server and location what its limit_req, limit_conn and proxy_cache do: in words, and"
                    + " in the model's numbers for one client sending at the rate, a burst at once, and floods at 2x"
                    + " and 10x the rate. Then the pitfalls, each with its file:line and the fix, and what the model"
                    + " cannot predict (Lua, njs, keys it cannot evaluate). Writes explain.md and explain.json to"
                    + " results/explain-<timestamp>/. Pitfalls are findings (exit 0); a file that cannot be read, or"
                    + " that nginx refuses, exits 2 with one line.",
            "",
            "  ./run-tests.sh explain /etc/nginx/nginx.conf",
            "  ./run-tests.sh explain site.conf --behind-proxy 10.0.0.0/8",
            "  ./run-tests.sh explain nginx.conf --replicas 3",
            ""})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE",
            description = "The nginx config: a whole nginx.conf, or a file of server blocks that one includes inside http.")
    Path file;

    @Option(names = "--behind-proxy", paramLabel = "ADDRESS",
            description = "The address or network (CIDR) of the proxy or load balancer in front of this nginx: a limit"
                    + " keyed on the address without set_real_ip_from is then a pitfall, and its fix names it.")
    String behindProxy;

    @Option(names = "--replicas", paramLabel = "N",
            description = "How many instances of this config share the traffic: says what a client's limit is across"
                    + " them. Default: ${DEFAULT-VALUE}.")
    int replicas = 1;

    @Option(names = "--results", paramLabel = "DIR", description = "Where the explain folder goes. Default: results/ in the checkout.")
    Path results;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<String> problems = new ArrayList<>();
        if (behindProxy != null && !Cidr.valid(behindProxy)) {
            problems.add("--behind-proxy takes an IP address or a network as CIDR, e.g. 10.0.0.0/8 (got '"
                    + Printable.shown(behindProxy) + "')");
        }
        if (replicas < 1) {
            problems.add("--replicas must be a whole number >= 1 (got " + replicas + ")");
        }
        RunFolders.notAFolder(RunFolders.results(results), "--results").ifPresent(problems::add);
        Refuse.ifAny(spec, problems);
        Path resultsDir = RunFolders.results(results);
        Path work = Files.createTempDirectory("ratecache-explain-");
        ConfigReader.Read read;
        try {
            read = ConfigReader.read(file, work);
        } catch (ConfigRefused e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "explain " + e.getMessage());
        } finally {
            deleteTree(work);
        }
        ConfigSpec config = Extractor.extract(read.tree());
        Explanation explanation = Explanation.of(Printable.shown(file.toString()), read.checked(), config,
                new Pitfalls.Context(behindProxy, replicas));
        Path dir = RunFolders.next(resultsDir, "explain-");
        explanation.write(dir);
        out.print(explanation.text());
        out.println();
        out.println("explain: " + dir + " (explain.md, explain.json)");
        return 0;
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // A temporary folder left behind is no reason to fail the explanation.
        }
    }
}
