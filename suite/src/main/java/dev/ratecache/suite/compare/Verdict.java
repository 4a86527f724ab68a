package dev.ratecache.suite.compare;

/** What compare says of a metric's change from A to B. */
public enum Verdict {
    BETTER("better"),
    WORSE("worse"),
    SAME("same within noise"),
    /** Neither samples, seconds nor repeats to measure the noise with: the change is shown, not judged. */
    UNJUDGED("not judged (no noise measure)");

    private final String words;

    Verdict(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
