package dev.ratecache.accesslog;

/**
 * How forgiving reading is. A real log has the odd torn or foreign line, which is counted and
 * skipped; past a small share, the more likely story is that the format is the wrong one, and
 * replaying what happened to parse would measure something the user never saw.
 *
 * @param badLinePercentLimit the largest share of lines, in percent, that may fail to parse
 */
public record ReadOptions(double badLinePercentLimit) {
    public static final double DEFAULT_BAD_LINE_PERCENT_LIMIT = 1.0;

    public ReadOptions {
        if (!(badLinePercentLimit >= 0 && badLinePercentLimit <= 100)) {
            throw new IllegalArgumentException("bad line limit " + badLinePercentLimit + " % is not between 0 and 100 %");
        }
    }

    public static ReadOptions defaults() {
        return new ReadOptions(DEFAULT_BAD_LINE_PERCENT_LIMIT);
    }
}
