package dev.ratecache.suite.nginx;

/** The two Nginx tiers; each is its own nginx master process with its own prefix. */
public enum Tier {
    FRONT("front", "front-end.conf"),
    BACK("back", "back-end.conf");

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
