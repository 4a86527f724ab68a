package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.explain.ConfigReader;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.ConfigSpec;
import dev.ratecache.suite.explain.Explanation;
import dev.ratecache.suite.explain.Extractor;
import dev.ratecache.suite.explain.Pitfalls;
import dev.ratecache.suite.ingress.IngressLimits;
import dev.ratecache.suite.ingress.IngressNginxConf;
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
            "  ./run-tests.sh explain --ingress shop-ingress.yaml --replicas 2",
            ""})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", arity = "0..1",
            description = "The nginx config: a whole nginx.conf, or a file of server blocks that one includes inside http.")
    Path file;

    @Option(names = "--ingress", paramLabel = "FILE.yaml",
            description = "Instead of FILE: Kubernetes Ingress manifests (kubectl get ingress -o yaml) whose"
                    + " ingress-nginx annotations (limit-rps, limit-rpm, limit-burst-multiplier, limit-connections,"
                    + " limit-allowlist) are rendered as one controller replica writes them, then explained; the"
                    + " rendered ingress-nginx.conf is kept beside explain.md.")
    Path ingress;

    @Option(names = "--ingress-status", paramLabel = "CODE",
            description = "With --ingress: the controller's configmap limit-req-status-code and"
                    + " limit-conn-status-code. Default: ${DEFAULT-VALUE}, the controller's.")
    int ingressStatus = IngressLimits.DEFAULT_STATUS;

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
        if ((file == null) == (ingress == null)) {
            problems.add(file == null ? "explain takes FILE, your nginx config, or --ingress FILE.yaml"
                    : "explain takes FILE or --ingress FILE.yaml, not both");
        }
        if (ingress == null && spec.commandLine().getParseResult().hasMatchedOption("--ingress-status")) {
            problems.add("--ingress-status is the ingress-nginx controller's: give it with --ingress");
        }
        if (ingressStatus < 400 || ingressStatus > 599) {
            problems.add("--ingress-status must be an HTTP error status from 400 to 599 (got " + ingressStatus + ")");
        }
        if (replicas < 1) {
            problems.add("--replicas must be a whole number >= 1 (got " + replicas + ")");
        }
        RunFolders.notAFolder(RunFolders.results(results), "--results").ifPresent(problems::add);
        Refuse.ifAny(spec, problems);
        Path resultsDir = RunFolders.results(results);
        String rendered = null;
        List<String> notes = List.of();
        if (ingress != null) {
            List<IngressLimits> ingresses;
            try {
                ingresses = IngressLimits.read(ingress);
            } catch (dev.ratecache.accesslog.UserFile.Refused e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "explain --ingress " + e.getMessage());
            }
            rendered = IngressNginxConf.render(ingresses, ingressStatus, ingressStatus);
            notes = ingressNotes(ingresses);
        }
        Path work = Files.createTempDirectory("ratecache-explain-");
        ConfigReader.Read read;
        try {
            Path config = file;
            if (rendered != null) {
                config = Files.writeString(work.resolve(INGRESS_CONF), rendered);
            }
            read = ConfigReader.read(config, work.resolve("prefix"));
        } catch (ConfigRefused e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "explain " + e.getMessage());
        } finally {
            RunFolders.deleteQuietly(work);
        }
        ConfigSpec config = Extractor.extract(read.tree());
        String shown = ingress == null ? Printable.shown(file.toString())
                : Printable.shown(ingress.toString()) + " (as ingress-nginx renders it: " + INGRESS_CONF + ")";
        Explanation explanation = Explanation.of(shown, read.checked(), config,
                new Pitfalls.Context(behindProxy, replicas)).withNotes(notes);
        Path dir = RunFolders.next(resultsDir, "explain-");
        explanation.write(dir);
        if (rendered != null) {
            Files.writeString(dir.resolve(INGRESS_CONF), rendered);
        }
        out.print(explanation.text());
        out.println();
        out.println("explain: " + dir + " (explain.md, explain.json)");
        return 0;
    }

    /** The rendered config's name, in explain's folder: the file:line of every finding points into it. */
    static final String INGRESS_CONF = "ingress-nginx.conf";

    /** What a reader of an Ingress's explanation must know that the rendered config cannot say. */
    private List<String> ingressNotes(List<IngressLimits> ingresses) {
        List<String> notes = new ArrayList<>();
        long limited = ingresses.stream().filter(IngressLimits::limited).count();
        notes.add(ingresses.size() + " Ingress" + (ingresses.size() == 1 ? "" : "es") + " read, " + limited
                + " with rate-limit annotations; the file:line of each finding is in " + INGRESS_CONF
                + ", whose comments name the annotation each line comes from");
        notes.add("ingress-nginx keeps each limit per controller replica: with N replicas a client gets up to N times"
                + " it" + (replicas > 1 ? " (--replicas " + replicas + ": see the pitfalls)" : " (give --replicas N to"
                + " see what a client gets across yours)"));
        notes.add("the ingress-nginx controller was retired in March 2026; its users move to Gateway API"
                + " implementations such as Envoy Gateway and Traefik");
        return notes;
    }
}
