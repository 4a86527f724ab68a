package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** The edge products the suite can put in front of the origin, as {@code --edge} names them. */
public enum EdgeProduct {
    // The one place a product is registered (its adapter and its folder of templates): everything else asks the adapter.
    // nginx's portable configs are as any Debian machine with the optional modules would run them.
    NGINX(NginxEdge::new, templates -> new NginxEdge(templates, NginxRenderer.Machine.debian()), "nginx"),
    HAPROXY(HaproxyEdge::new, null, "haproxy"),
    VARNISH(VarnishEdge::new, null, "varnish"),
    ENVOY(EnvoyEdge::new, null, "envoy"),
    TRAEFIK(TraefikEdge::new, null, "traefik");

    /**
     * The product of a run without --edge: the reference experiment's, whose tiers were nginx's, so a
     * default run is the one its published figures stand beside.
     */
    public static final EdgeProduct DEFAULT = NGINX;

    private final Function<Path, Edge> adapter;
    private final Function<Path, Edge> portable;
    private final String folder;

    /**
     * {@code adapter} builds the product's adapter from its folder of templates, {@code folder} of
     * the checkout; {@code portable}, null when the product's configs name nothing of the machine
     * that renders them, the one for configs to copy to another machine (render --portable).
     */
    EdgeProduct(Function<Path, Edge> adapter, Function<Path, Edge> portable, String folder) {
        this.adapter = adapter;
        this.portable = portable;
        this.folder = folder;
    }

    /** The product's adapter behind the stack spec, with the templates of its folder in the checkout. */
    public Edge adapter() {
        return adapter.apply(Repo.root().resolve(folder));
    }

    /**
     * The adapter for configs to copy to another machine (render --portable), which copy no TLS
     * certificate or key but name them; empty when the product's configs name nothing of the
     * machine that renders them (HAProxy's, Varnish's), so that its own adapter renders them.
     */
    public Optional<Edge> portableAdapter() {
        return Optional.ofNullable(portable).map(p -> p.apply(Repo.root().resolve(folder)));
    }

    /**
     * The adapter for what it declares of its product alone (names, capabilities, models), which
     * reads no template: a report or a prediction made outside the checkout still has them.
     */
    public Edge declared() {
        return adapter.apply(Path.of(folder));
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
        return declared().capabilities();
    }

    /** What nginx can do and this product cannot, as the report says it: empty for nginx. */
    public String cannot() {
        return String.join(", ", EnumSet.complementOf(EnumSet.copyOf(capabilities())).stream()
                .filter(Capability::theProducts).filter(c -> !declared().notBuiltYet().contains(c))
                .map(Capability::label).toList());
    }

    /** Its per-client limit's algorithm, named as the report says it. */
    public String limiter() {
        return declared().limiter();
    }

    /** Whether a request its limit denies still counts toward the rate ({@link Edge#limiterCountsDenials}). */
    public boolean limiterCountsDenials() {
        return declared().limiterCountsDenials();
    }

    /** As the report names it: nginx, HAProxy, Varnish. */
    public String displayName() {
        return declared().displayName();
    }

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
