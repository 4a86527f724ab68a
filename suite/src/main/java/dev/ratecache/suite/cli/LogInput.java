package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.AccessLogException;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.ReadOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * --log-format and --bad-lines, for every command that reads an access log (advise, replay), and
 * what --key-field needs of the log whatever the command does with the keys.
 */
final class LogInput {
    @Option(names = "--log-format", paramLabel = "FORMAT",
            description = "auto (combined, common or the suite's JSON), combined, common, suite-json, or"
                    + " json:MAPPING, where MAPPING names the log's own fields (F): time=F,client=F,method=F,uri=F"
                    + " and any of ,status=F ,bytes=F ,request_time=F ,upstream_time=F ,limit_status=F (nginx's $limit_req_status, for advise --nginx-conf)."
                    + " Default: ${DEFAULT-VALUE}.")
    String logFormat = "auto";

    @Option(names = "--bad-lines", paramLabel = "PERCENT",
            description = "The share of lines that may fail to parse before the log is refused. Default: ${DEFAULT-VALUE}.")
    double badLines = ReadOptions.DEFAULT_BAD_LINE_PERCENT_LIMIT;

    /** @throws IllegalArgumentException in one line, for a --log-format that names no format */
    LogFormat format() {
        return LogFormat.parse(logFormat);
    }

    Optional<String> badLinesProblem() {
        return badLines >= 0 && badLines <= 100 ? Optional.empty()
                : Optional.of("--bad-lines must be a percentage from 0 to 100 (got " + badLines + ")");
    }

    /** The log as {@code format} reads it, each request with its key from {@code keyField} (null for none). */
    ParsedLog read(Path log, LogFormat format, String keyField) throws AccessLogException {
        return AccessLog.read(log, format, new ReadOptions(badLines).keyField(keyField));
    }

    /**
     * What is wrong with {@code --key-field keyField} whatever the command: no name, or a log without
     * named fields to find it in ({@code format} null when it could not be read).
     */
    static List<String> keyFieldProblems(String keyField, LogFormat format) {
        List<String> problems = new ArrayList<>();
        if (keyField.isBlank()) {
            problems.add("--key-field needs the name of a field of the log, e.g. --key-field api_key");
        }
        if (format != null && !(format instanceof LogFormat.Auto) && !format.hasFields()) {
            problems.add("--key-field needs a log with named fields (suite-json or json:...); --log-format "
                    + format.spelling() + " has none");
        }
        return problems;
    }
}
