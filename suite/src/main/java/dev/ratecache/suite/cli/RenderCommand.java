package dev.ratecache.suite.cli;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Writes the rendered configs of both tiers, for reading or copying; starts nothing. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Write the Nginx configs of both tiers, rendered with these switches, to DIR/front and DIR/back.")
final class RenderCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    NginxSwitches switches = new NginxSwitches();

    @Parameters(paramLabel = "DIR", description = "Output folder.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (!switches.problems().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", switches.problems()));
        }
        NginxRenderer renderer = new NginxRenderer(Repo.nginxTemplates());
        // --tls without a certificate of your own: a throwaway CA in DIR/tls, its ca.pem for curl --cacert.
        switches = Stack.withTls(switches, ports, dir);
        int edges = switches.edges();
        spec.commandLine().getOut().println(renderer.render(Tier.BACK, switches, ports, dir.resolve("back")));
        if (edges == 1) {
            spec.commandLine().getOut().println(renderer.render(Tier.FRONT, switches, ports, dir.resolve("front")));
        } else {
            // Each edge on its own port behind the balancer, as a run starts them.
            for (int i = 0; i < edges; i++) {
                spec.commandLine().getOut().println(renderer.render(Tier.FRONT, switches, ports.edge(i, edges),
                        dir.resolve("front-" + (i + 1))));
            }
            spec.commandLine().getOut().println(renderer.render(Tier.BALANCER, switches, ports,
                    dir.resolve("balancer")));
        }
        return 0;
    }
}
