package dev.ratecache.suite.matrix;

/** Which load generator sends a cell's traffic; each writes its files into a folder of the cell's own. */
public enum Generator {
    /** JMeter, running the cell's plan. */
    JMETER("jmeter", null),
    /** The client library's load driver (client/): its cache, and 429/503 retried after Retry-After. */
    LIBRARY("library", null),
    /**
     * wrk (Debian's package), as the experiments the suite reproduces ran it: a number of connections
     * kept busy for a duration, each asking again the moment its answer arrives.
     */
    WRK("wrk", "the model has service times, limits and caches, not CPU: wrk's connections ask again the moment"
            + " an answer arrives, so with no delay anywhere on the path the cell runs as fast as the cores that"
            + " wrk, the tiers and the origin share allow, which the model does not include"),
    /**
     * bombardier (built from its Go module), as the HAProxy experiment ran it: a number of
     * connections sending a number of requests in all, each asking again the moment its answer arrives.
     */
    BOMBARDIER("bombardier", "the model has service times, limits and caches, not CPU: bombardier's connections ask"
            + " again the moment an answer arrives, so the cell runs as fast as the cores that bombardier, the tiers,"
            + " the origin and its database share allow, which the model does not include");

    private final String folder;
    private final String modelGap;

    Generator(String folder, String modelGap) {
        this.folder = folder;
        this.modelGap = modelGap;
    }

    /** The folder in the cell's run folder that holds the generator's JTL, log, dashboard and graphs. */
    public String folder() {
        return folder;
    }

    /** Why the model cannot predict a cell this generator drives; null when it can. */
    public String modelGap() {
        return modelGap;
    }
}
