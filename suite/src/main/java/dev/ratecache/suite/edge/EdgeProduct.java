package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import java.util.Locale;
import java.util.Optional;

/** The edge products the suite can put in front of the origin, as {@code --edge} names them. */
public enum EdgeProduct {
    NGINX, HAPROXY, VARNISH;

    /**
     * The product's adapter behind the stack spec; empty for nginx, which the suite still drives
     * through its own renderer and servers until the seam is complete.
     */
    public Optional<Edge> adapter() {
        return switch (this) {
            case NGINX -> Optional.empty();
            case HAPROXY -> Optional.of(new HaproxyEdge(Repo.haproxyTemplates()));
            case VARNISH -> Optional.of(new VarnishEdge(Repo.varnishTemplates()));
        };
    }

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
