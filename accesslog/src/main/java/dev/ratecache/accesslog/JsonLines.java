package dev.ratecache.accesslog;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** One JSON object per line, its fields named by a mapping from what the replay needs to what the log calls it. */
final class JsonLines {
    /** A line with something after its object is not one request; Jackson would otherwise ignore the rest. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private JsonLines() {}

    /** @param keyField the field holding the request's key, or null to read none */
    static Optional<LoggedRequest> parse(Map<String, String> fields, long line, String text, String keyField) {
        String t = text.strip();
        if (!t.startsWith("{")) {
            return Optional.empty();
        }
        JsonNode object;
        try {
            object = JSON.readTree(t);
        } catch (JacksonException e) {
            return Optional.empty();
        }
        if (object == null || !object.isObject()) {
            return Optional.empty();
        }
        Optional<OffsetDateTime> time = field(object, fields.get(LogFormat.Json.TIME)).flatMap(JsonLines::time);
        Optional<String> client = field(object, fields.get(LogFormat.Json.CLIENT)).filter(JsonNode::isValueNode)
                .map(JsonNode::asText).filter(s -> !s.isEmpty());
        Optional<String> method = field(object, fields.get(LogFormat.Json.METHOD)).filter(JsonNode::isValueNode)
                .map(JsonNode::asText);
        Optional<String> uri = field(object, fields.get(LogFormat.Json.URI)).filter(JsonNode::isValueNode)
                .map(JsonNode::asText);
        if (time.isEmpty() || client.isEmpty() || method.isEmpty() || uri.isEmpty()) {
            return Optional.empty();
        }
        // A mapped status that is no status ("two hundred") makes the line a bad one, not a request
        // with status 0, which would pass unseen into advice that counts rejections by status.
        Optional<JsonNode> statusField = field(object, fields.get(LogFormat.Json.STATUS));
        int status = statusField.map(JsonLines::status).orElse(0);
        if (statusField.isPresent() && status == 0) {
            return Optional.empty();
        }
        OptionalLong bytes = field(object, fields.get(LogFormat.Json.BYTES))
                .filter(n -> n.canConvertToLong() || n.asText().matches("\\d+"))
                .map(n -> OptionalLong.of(n.asLong())).orElse(OptionalLong.empty());
        OptionalDouble requestTime = seconds(field(object, fields.get(LogFormat.Json.REQUEST_TIME)));
        OptionalDouble upstreamTime = seconds(field(object, fields.get(LogFormat.Json.UPSTREAM_TIME)));
        // nginx logs an empty method for a connection that sent no request line; so is "-".
        String m = method.get().isEmpty() || method.get().equals("-")
                ? LoggedRequest.NO_REQUEST : method.get().toUpperCase(java.util.Locale.ROOT);
        // A line without the field, or with an empty one, is a request without a key, not a bad
        // line: an API serves keyless requests too (nginx logs "-" or "" for a header not sent).
        String key = field(object, keyField).filter(JsonNode::isValueNode).map(JsonNode::asText)
                .filter(k -> !k.isEmpty() && !k.equals("-")).orElse(LoggedRequest.NO_KEY);
        // nginx logs "" (escape=json) or "-" for a request no limit_req decided: no status, not a bad line.
        String limitStatus = field(object, fields.get(LogFormat.Json.LIMIT_STATUS)).filter(JsonNode::isValueNode)
                .map(n -> n.asText().strip().toUpperCase(java.util.Locale.ROOT)).filter(v -> !v.isEmpty() && !v.equals("-"))
                .orElse(LoggedRequest.NO_LIMIT_STATUS);
        return Optional.of(new LoggedRequest(line, time.get(), client.get(), m, uri.get(), status, bytes,
                requestTime, upstreamTime, key, limitStatus));
    }

    /** An HTTP status, 100 to 599, as a number or its digits; 0 for anything else. */
    private static int status(JsonNode n) {
        String digits = n.isIntegralNumber() ? n.asText() : n.isTextual() ? n.asText().strip() : "";
        if (!digits.matches("[1-5]\\d\\d")) {
            return 0;
        }
        return Integer.parseInt(digits);
    }

    /** The field by its exact name, else by a dotted path into nested objects ({@code http.method}). */
    private static Optional<JsonNode> field(JsonNode object, String name) {
        if (name == null) {
            return Optional.empty();
        }
        JsonNode n = object.get(name);
        if (n == null && name.contains(".")) {
            n = object;
            for (String part : name.split("\\.")) {
                n = n == null ? null : n.get(part);
            }
        }
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n);
    }

    private static Optional<OffsetDateTime> time(JsonNode n) {
        if (n.isNumber()) {
            return plain(n).flatMap(LogTimes::epoch);
        }
        if (!n.isTextual()) {
            return Optional.empty();
        }
        String t = n.asText().strip();
        return LogTimes.either(t).or(() -> LogTimes.epoch(t));
    }

    /** A number in plain digits; empty for one past a double (1e999 reads as Infinity, which has no digits). */
    private static Optional<String> plain(JsonNode n) {
        return n.isFloatingPointNumber() && !Double.isFinite(n.doubleValue()) ? Optional.empty()
                : Optional.of(n.decimalValue().toPlainString());
    }

    private static OptionalDouble seconds(Optional<JsonNode> n) {
        if (n.isEmpty()) {
            return OptionalDouble.empty();
        }
        Optional<String> text = n.get().isNumber() ? plain(n.get()) : Optional.of(n.get().asText());
        return text.flatMap(NcsaLines::seconds).orElse(OptionalDouble.empty());
    }
}
