package dev.ratecache.suite.matrix;

/** Which load generator sends a cell's traffic; each writes its files into a folder of the cell's own. */
public enum Generator {
    /** JMeter, running the cell's plan. */
    JMETER("jmeter"),
    /** The client library's load driver (client/): its cache, and 429/503 retried after Retry-After. */
    LIBRARY("library");

    private final String folder;

    Generator(String folder) {
        this.folder = folder;
    }

    /** The folder in the cell's run folder that holds the generator's JTL, log, dashboard and graphs. */
    public String folder() {
        return folder;
    }
}
