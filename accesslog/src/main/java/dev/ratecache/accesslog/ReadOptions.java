package dev.ratecache.accesslog;

import java.util.Optional;

/**
 * How forgiving reading is, and what beyond the request to read. A real log has the odd torn or
 * foreign line, which is counted and skipped; past a small share, the more likely story is that the
 * format is the wrong one, and replaying what happened to parse would measure something the user
 * never saw.
 *
 * @param badLinePercentLimit the largest share of lines, in percent, that may fail to parse
 * @param keyField the field of a JSON log that holds each request's key (an API key or token), as the
 *     user named it with {@code --key-field}; empty to read no key
 */
public record ReadOptions(double badLinePercentLimit, Optional<String> keyField) {
    public static final double DEFAULT_BAD_LINE_PERCENT_LIMIT = 1.0;

    public ReadOptions {
        if (!(badLinePercentLimit >= 0 && badLinePercentLimit <= 100)) {
            throw new IllegalArgumentException("bad line limit " + badLinePercentLimit + " % is not between 0 and 100 %");
        }
        if (keyField.isPresent() && keyField.get().isBlank()) {
            throw new IllegalArgumentException("--key-field needs the name of a field of the log, e.g. --key-field api_key");
        }
    }

    public ReadOptions(double badLinePercentLimit) {
        this(badLinePercentLimit, Optional.empty());
    }

    public static ReadOptions defaults() {
        return new ReadOptions(DEFAULT_BAD_LINE_PERCENT_LIMIT);
    }

    /** The same, reading each request's key from {@code field} (null: none). */
    public ReadOptions keyField(String field) {
        return new ReadOptions(badLinePercentLimit, Optional.ofNullable(field).map(String::strip));
    }
}
