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
    WRK("wrk", "wrk's connections ask again the moment an answer arrives, so the cell runs as fast as the cores that"
            + " wrk, the tiers and the origin share allow"),
    /**
     * bombardier (built from its Go module), as the HAProxy experiment ran it: a number of
     * connections sending a number of requests in all, each asking again the moment its answer arrives.
     */
    BOMBARDIER("bombardier", "bombardier's connections ask again the moment an answer arrives (or start requests at its"
            + " rate), so the cell runs as fast as the cores that bombardier, the tiers, the origin and its stores share"
            + " allow");

    private final String folder;
    private final String cpuPace;

    Generator(String folder, String cpuPace) {
        this.folder = folder;
        this.cpuPace = cpuPace;
    }

    /** The folder in the cell's run folder that holds the generator's JTL, log, dashboard and graphs. */
    public String folder() {
        return folder;
    }

    /**
     * Whether the CPU sets the pace of a cell this generator drives: then the shared-CPU model
     * predicts it from the cell's CPU per request at every process, not the simulation of the tiers.
     */
    public boolean cpuBound() {
        return cpuPace != null;
    }

    /** Why the CPU sets the pace of this generator's cells; null when it does not. */
    public String cpuPace() {
        return cpuPace;
    }
}
