package dev.ratecache.suite.explain;

import java.util.Locale;

/** Numbers as the explanation says them: few digits, units a reader uses. */
final class Words {
    private Words() {}

    /** 10, 2.5, 0.017: whole numbers without decimals, others to two significant places past the point. */
    static String number(double value) {
        if (Math.abs(value - Math.rint(value)) < 1e-9) {
            return String.format(Locale.ROOT, "%d", (long) Math.rint(value));
        }
        if (Math.abs(value) >= 10) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (Math.abs(value) >= 1) {
            return String.format(Locale.ROOT, "%.1f", value).replace(".0", "");
        }
        return String.format(Locale.ROOT, "%.2g", value);
    }

    /** 10 ms, 2.5 s, 1 min, 3 h: whole minutes and hours said as such. */
    static String ms(long ms) {
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + " h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + " min";
        }
        if (ms < 120_000) {
            return number(ms / 1000.0) + " s";
        }
        return number(ms / 60_000.0) + " min";
    }

    /** 16,384. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** 10m, 512k, as nginx writes sizes. */
    static String bytes(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + "m";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + "k";
        }
        return bytes + " bytes";
    }

    /** A measured rate said roughly: whole from 3 up (9.87 is "10"), otherwise as {@link #number}. */
    static String about(double value) {
        return value >= 3 ? String.format(Locale.ROOT, "%d", Math.round(value)) : number(value);
    }

    /** "10 times a second", or per minute "6 times a minute". */
    static String often(double perSecond, boolean minutes) {
        String times = about(minutes ? perSecond * 60 : perSecond);
        return (times.equals("1") ? "once" : times + " times") + (minutes ? " a minute" : " a second");
    }

    /** "20 r/s", or per minute "2 r/m". */
    static String rate(double perSecond, boolean minutes) {
        return minutes ? number(perSecond * 60) + " r/m" : number(perSecond) + " r/s";
    }

    /** "10 a second" or "2 a minute". */
    static String perUnit(double perSecond, boolean minutes) {
        return minutes ? about(perSecond * 60) + " a minute" : about(perSecond) + " a second";
    }
}
