package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The edge products the suite can put in front of the origin, as {@code --edge} names them. */
public enum EdgeProduct {
    NGINX, HAPROXY, VARNISH;

    /** The product's adapter behind the stack spec, with the templates of its folder in the checkout. */
    public Edge adapter() {
        return switch (this) {
            case NGINX -> new NginxEdge(Repo.nginxTemplates());
            case HAPROXY -> new HaproxyEdge(Repo.haproxyTemplates());
            case VARNISH -> new VarnishEdge(Repo.varnishTemplates());
        };
    }

    /**
     * The adapter for configs to copy to another machine (render --portable): nginx's as any Debian
     * machine with the optional modules would run them, naming the TLS certificate and key without
     * copying them; HAProxy's and Varnish's name nothing of the machine that renders them.
     */
    public Edge portableAdapter() {
        return this == NGINX ? new NginxEdge(Repo.nginxTemplates(), NginxRenderer.Machine.debian()) : adapter();
    }

    /**
     * The one line that says why this product cannot run the stack {@code switches} and
     * {@code ports} describe (a flag its adapter does not render yet, or a capability the product
     * lacks); empty when it can, and always for nginx, which runs every switch.
     */
    public Optional<String> refusal(StackSwitches switches, TierPorts ports) {
        return adapter().refusal(switches.spec(ports));
    }

    /** What the product can do for a stack; nginx, whose switches the suite grew from, can do all. */
    public Set<Capability> capabilities() {
        return adapter().capabilities();
    }

    /** What nginx can do and this product cannot, as the report says it: empty for nginx. */
    public String cannot() {
        return String.join(", ", EnumSet.complementOf(EnumSet.copyOf(capabilities())).stream().map(Capability::label)
                .toList());
    }

    /** Its per-client limit's algorithm, named as the report says it. */
    public String limiter() {
        return switch (this) {
            case NGINX -> "leaky bucket (limit_req)";
            case HAPROXY -> "sliding-window counter (http_req_rate)";
            case VARNISH -> "token bucket (vsthrottle)";
        };
    }

    /** As the report names it: nginx, HAProxy, Varnish. */
    public String displayName() {
        return switch (this) {
            case NGINX -> "nginx";
            case HAPROXY -> "HAProxy";
            case VARNISH -> "Varnish";
        };
    }

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The product the suite grew from and measures the others against, which runs every switch:
     * what a stack runs when no product is named.
     */
    public static EdgeProduct reference() {
        return NGINX;
    }
}
