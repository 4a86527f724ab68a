package dev.ratecache.suite.nginx;

/**
 * The Nginx tiers; each is its own nginx master process with its own prefix. The balancer runs
 * only with {@code --edges N > 1}, in front of N front end tiers.
 */
public enum Tier {
    FRONT("front", "front-end.conf"),
    BACK("back", "back-end.conf"),
    BALANCER("balancer", "edge-balancer.conf");

    private final String id;
    private final String template;

    Tier(String id, String template) {
        this.id = id;
        this.template = template;
    }

    public String id() {
        return id;
    }

    /** The top-level file, both in nginx/ and in the rendered conf/ folder. */
    public String template() {
        return template;
    }
}
