package dev.ratecache.accesslog;

import java.nio.file.Path;
import java.util.List;

/**
 * A whole log, read once, that any number of selections can be prepared from without reading the
 * file again.
 *
 * @param source the file as the user named it, for messages
 * @param format the format the lines were read in; never {@link LogFormat.Auto}, which is resolved
 * @param lines how many non-blank lines the file has (blank lines are neither requests nor bad)
 * @param requests every request that parsed, ordered by time; requests logged in the same instant
 *     keep their order in the file
 * @param bad the lines that did not parse
 * @param resolution whether the times are whole seconds, so that what is worked out from the spacing
 *     of requests can say what it assumed within a second ({@link WithinSecond})
 * @param keyField the field each request's key was read from ({@code --key-field}), empty when none was
 */
public record ParsedLog(Path source, LogFormat format, long lines, List<LoggedRequest> requests, BadLines bad,
        TimeResolution resolution, java.util.Optional<String> keyField) {
    public ParsedLog {
        requests = List.copyOf(requests);
    }

    public ParsedLog(Path source, LogFormat format, long lines, List<LoggedRequest> requests, BadLines bad,
            TimeResolution resolution) {
        this(source, format, lines, requests, bad, resolution, java.util.Optional.empty());
    }
}
