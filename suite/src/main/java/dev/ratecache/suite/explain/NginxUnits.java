package dev.ratecache.suite.explain;

import dev.ratecache.model.Rate;
import java.util.OptionalLong;

/**
 * nginx's own readings of sizes, times and rates (ngx_parse_size, ngx_parse_time,
 * ngx_http_limit_req_zone's rate=), character by character as nginx reads them. Each answers
 * empty where nginx would refuse the value; nginx -t has said so first when it ran.
 */
final class NginxUnits {
    private NginxUnits() {}

    /** ngx_parse_size: digits, then k/K, m/M or g/G or nothing, in bytes. */
    static OptionalLong size(String text) {
        if (text.isEmpty()) {
            return OptionalLong.empty();
        }
        long scale = switch (text.charAt(text.length() - 1)) {
            case 'k', 'K' -> 1024L;
            case 'm', 'M' -> 1024L * 1024;
            case 'g', 'G' -> 1024L * 1024 * 1024;
            default -> 1;
        };
        String digits = scale == 1 ? text : text.substring(0, text.length() - 1);
        OptionalLong n = digits(digits);
        return n.isPresent() && n.getAsLong() <= Long.MAX_VALUE / scale ? OptionalLong.of(n.getAsLong() * scale)
                : OptionalLong.empty();
    }

    /**
     * ngx_parse_time in milliseconds: numbers each with a unit (ms, s, m, h, d, w, M, y), spaces
     * between them allowed; a number alone is seconds.
     */
    static OptionalLong timeMs(String text) {
        long total = 0;
        int i = 0;
        int n = text.length();
        boolean any = false;
        while (i < n) {
            while (i < n && text.charAt(i) == ' ') {
                i++;
            }
            int start = i;
            while (i < n && Character.isDigit(text.charAt(i))) {
                i++;
            }
            if (start == i) {
                return any && i == n ? OptionalLong.of(total) : OptionalLong.empty();
            }
            long value = Long.parseLong(text.substring(start, Math.min(i, start + 15)));
            long unit;
            if (i + 1 < n && text.charAt(i) == 'm' && text.charAt(i + 1) == 's') {
                unit = 1;
                i += 2;
            } else if (i < n && "smhdwMy".indexOf(text.charAt(i)) >= 0) {
                unit = switch (text.charAt(i)) {
                    case 's' -> 1000L;
                    case 'm' -> 60_000L;
                    case 'h' -> 3_600_000L;
                    case 'd' -> 86_400_000L;
                    case 'w' -> 7 * 86_400_000L;
                    case 'M' -> 30 * 86_400_000L;
                    default -> 365 * 86_400_000L;
                };
                i++;
            } else if (i == n) {
                unit = 1000L;
            } else {
                return OptionalLong.empty();
            }
            total += value * unit;
            any = true;
        }
        return any ? OptionalLong.of(total) : OptionalLong.empty();
    }

    /** {@code rate=Nr/s} or {@code rate=Nr/m} (the part after "rate="), as the model holds it. */
    static java.util.Optional<Rate> rate(String text) {
        boolean perMinute = text.endsWith("r/m");
        if (!perMinute && !text.endsWith("r/s")) {
            return java.util.Optional.empty();
        }
        OptionalLong n = digits(text.substring(0, text.length() - 3));
        if (n.isEmpty() || n.getAsLong() <= 0 || (perMinute && n.getAsLong() * 1000 / 60 <= 0)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(perMinute ? Rate.perMinute(n.getAsLong()) : Rate.perSecond(n.getAsLong()));
    }

    /** A whole number nginx's ngx_atoi takes: digits only. */
    static OptionalLong digits(String text) {
        if (text.isEmpty() || text.length() > 15 || !text.chars().allMatch(Character::isDigit)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(text));
    }
}
