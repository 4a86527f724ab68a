package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import dev.ratecache.suite.spec.Quota;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a {@code --tiers} file: one tier a line, {@code NAME RATE BURST MODE [quota=Q] [KEYS]}, where
 * RATE is requests/s (a whole number, {@code r/s} optional), BURST a whole number, MODE queue,
 * nodelay or delay=N, and KEYS either the keys comma-separated or {@code @FILE}, a file of keys one a
 * line, relative to the tiers file. The optional {@code quota=Q} field gives the tier a quota of
 * its own beside its rate and burst: Q in --quota's form ({@link Quota#FORM}), or {@code none} for
 * no quota even with --quota; a tier without the field takes --quota, if given, and every tier
 * shares --quota-window. The field is told from the keys by its place (right after MODE) and its
 * {@code quota=} prefix: a field there that starts with {@code quota=} is always the quota, so a key
 * that starts with {@code quota=} goes in a {@code @FILE} key file. Keys are exact, case included, but two keys that differ only in case
 * are refused: nginx's map cannot tell them apart (snippets/shared/limit-tier.conf). Blank lines
 * and lines starting with {@code #} are skipped. A tier named {@code anonymous} takes the unknown
 * keys (it lists none). Anything else is refused with the file's name and line number, before
 * anything starts.
 */
public final class TiersFile {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
    private static final Pattern RATE = Pattern.compile("(\\d+)(?:r/s)?");
    /**
     * What a key may hold here: the characters API keys and tokens are made of (base64 and base64url
     * included), nothing that nginx's config syntax or a map's regex prefix (~) would read as its
     * own. 256 bytes at most, as on the wire.
     */
    static final Pattern KEY = Pattern.compile("[A-Za-z0-9._+/=:@-][A-Za-z0-9._~+/=:@-]{0,255}");
    /** The prefix of the optional quota field, after MODE. */
    static final String QUOTA_FIELD = "quota=";
    static final String FIELDS = "NAME RATE BURST MODE [quota=N/WINDOW] [KEYS]";
    static final String KEY_RULE = "1 to 256 of A-Z a-z 0-9 . _ ~ + / = : @ - (not starting with ~)";

    /**
     * A file that is not a tiers file: one line, {@code FILE:LINE: what is wrong}. Escaped whole,
     * since it quotes the file's fields and paths (a key file's among them); text escaped twice reads
     * the same.
     */
    public static final class Malformed extends Exception {
        Malformed(Path file, int line, String message) {
            super(Printable.escape(file + ":" + line + ": " + message));
        }

        Malformed(Path file, String message) {
            super(Printable.escape(file + ": " + message));
        }

        /** A refusal that names the file itself, already fit for one line. */
        Malformed(String message) {
            super(message);
        }
    }

    private TiersFile() {}

    public static List<LimitTier> read(Path file) throws Malformed {
        List<String> lines = lines(file, file, 0);
        List<LimitTier> tiers = new ArrayList<>();
        // nginx's map lowercases its keys and what it looks up: keys that differ only in case are one to it.
        Map<String, Listed> listedByFoldedKey = new HashMap<>();
        Map<String, Integer> lineOfTier = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int n = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            boolean quotaField = f.length > 4 && f[4].startsWith(QUOTA_FIELD);
            if (f.length < 4 || f.length > (quotaField ? 6 : 5)) {
                if (f.length == 6 && f[5].startsWith(QUOTA_FIELD)) {
                    throw new Malformed(file, n, "the quota goes before the keys: " + FIELDS
                            + ", e.g. 'pro 50 100 nodelay quota=1000/d key1,key2'");
                }
                throw new Malformed(file, n, "expected " + FIELDS + ", e.g. 'pro 50 100 nodelay quota=1000/d key1,key2'"
                        + " (got " + f.length + " field" + (f.length == 1 ? "" : "s") + ")");
            }
            String name = f[0];
            if (!NAME.matcher(name).matches()) {
                throw new Malformed(file, n, "tier name '" + name + "' must be a lowercase letter, then up to 31"
                        + " lowercase letters, digits, _ or -");
            }
            Integer earlier = lineOfTier.putIfAbsent(name.replace('-', '_'), n);
            if (earlier != null) {
                throw new Malformed(file, n, "tier '" + name + "' is already defined on line " + earlier);
            }
            var rate = RATE.matcher(f[1]);
            if (!rate.matches() || !within(rate.group(1), 1, LimitTier.MAX_RATE)) {
                throw new Malformed(file, n, "rate '" + f[1] + "' must be a whole number of requests/s from 1 to "
                        + LimitTier.MAX_RATE + ", e.g. 10 or 10r/s");
            }
            if (!within(f[2], 0, LimitTier.MAX_BURST)) {
                throw new Malformed(file, n, "burst '" + f[2] + "' must be a whole number from 0 to " + LimitTier.MAX_BURST);
            }
            LimitMode mode;
            try {
                mode = LimitMode.parse(f[3]);
            } catch (IllegalArgumentException e) {
                throw new Malformed(file, n, e.getMessage());
            }
            String quota = quotaField ? quota(file, n, f[4].substring(QUOTA_FIELD.length())) : "";
            int keysAt = quotaField ? 5 : 4;
            List<Listed> listed = f.length > keysAt ? keys(file, n, name, f[keysAt]) : List.of();
            List<String> keys = listed.stream().map(Listed::key).toList();
            if (name.equals(LimitTier.ANONYMOUS) && !keys.isEmpty()) {
                throw new Malformed(file, n, "the anonymous tier takes every key no other tier lists: it lists none");
            }
            if (!name.equals(LimitTier.ANONYMOUS) && keys.isEmpty()) {
                throw new Malformed(file, n, "tier '" + name + "' lists no keys: add them comma-separated or as @FILE");
            }
            for (Listed key : listed) {
                Listed other = listedByFoldedKey.putIfAbsent(key.key().toLowerCase(Locale.ROOT), key);
                if (other != null && other.key().equals(key.key())) {
                    throw new Malformed(file, n, "key '" + abbreviated(key.key()) + "'" + key.where() + " is in tier '"
                            + other.tier() + "' already: a key belongs to one tier");
                }
                if (other != null) {
                    throw new Malformed(file, n, "key '" + abbreviated(key.key()) + "'" + key.where() + " differs from key '"
                            + abbreviated(other.key()) + "' (line " + other.line()
                            + (other.keyFileLine() == null ? "" : ", " + other.keyFileLine()) + ", tier '" + other.tier()
                            + "') only in case: nginx's map matches keys ignoring case, so it cannot tell them apart");
                }
            }
            tiers.add(new LimitTier(name, Integer.parseInt(rate.group(1)), Integer.parseInt(f[2]), mode, keys, quota));
        }
        if (tiers.isEmpty()) {
            throw new Malformed(file, "no tiers: expected lines of " + FIELDS);
        }
        return tiers;
    }

    /** The value of a {@code quota=} field: none, or a quota in --quota's form (its window checked later, with --quota-window). */
    private static String quota(Path file, int n, String value) throws Malformed {
        if (value.equals(LimitTier.NO_QUOTA)) {
            return value;
        }
        try {
            return Quota.parse(value, Quota.Window.SLIDING).flag();
        } catch (IllegalArgumentException e) {
            throw new Malformed(file, n, "quota '" + Printable.escape(value, 43) + "' must be " + Quota.FORM
                    + ", or none (no quota for this tier even with --quota)");
        }
    }

    /**
     * {@code tiers} as a tiers file that {@link #read} takes back: a header comment, then one line a
     * tier, its keys inline. The keys must be ones a tiers file can hold (they came from one, or
     * were checked against {@link #KEY}).
     *
     * @param comment lines to open the file with, each written after {@code # }
     */
    public static String format(List<LimitTier> tiers, List<String> comment) {
        StringBuilder s = new StringBuilder();
        comment.forEach(c -> s.append("# ").append(c).append('\n'));
        s.append(tiers.stream().anyMatch(LimitTier::ownQuota) ? "# name  rate  burst  mode  quota  keys\n"
                : "# name  rate  burst  mode  keys\n");
        for (LimitTier t : tiers) {
            s.append(t.name()).append(' ').append(t.rate()).append(' ').append(t.burst()).append(' ').append(t.mode());
            if (t.ownQuota()) {
                s.append(' ').append(QUOTA_FIELD).append(t.quota());
            }
            if (!t.keys().isEmpty()) {
                s.append(' ').append(String.join(",", keysInline(t)));
            }
            s.append('\n');
        }
        return s.toString();
    }

    /**
     * A tier's keys in the order a line can hold them: where the line has no quota field, a key that
     * starts with {@code quota=} must not come first, or it would be read as one.
     */
    private static List<String> keysInline(LimitTier t) {
        if (t.ownQuota() || !t.keys().get(0).startsWith(QUOTA_FIELD)) {
            return t.keys();
        }
        List<String> keys = new ArrayList<>(t.keys().stream().filter(k -> !k.startsWith(QUOTA_FIELD)).toList());
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("tier '" + t.name() + "' has only keys that start with " + QUOTA_FIELD
                    + ", which a line without a quota field reads as its quota: list them in a key file");
        }
        keys.addAll(t.keys().stream().filter(k -> k.startsWith(QUOTA_FIELD)).toList());
        return keys;
    }

    /**
     * A key as the file lists it: its tier, its line in the tiers file and, for a key file's, that
     * file and line ({@code FILE:LINE}; null for a key listed inline).
     */
    private record Listed(String key, String tier, int line, String keyFileLine) {
        /** Where the key file lists it, as a parenthesis to put after the key; empty for an inline key. */
        String where() {
            return keyFileLine == null ? "" : " (" + keyFileLine + ")";
        }
    }

    private static List<Listed> keys(Path file, int n, String tier, String field) throws Malformed {
        if (field.startsWith("@")) {
            Path keyFile;
            try {
                keyFile = (file.toAbsolutePath().getParent() == null ? Path.of(".") : file.toAbsolutePath().getParent())
                        .resolve(field.substring(1));
            } catch (InvalidPathException e) {
                // A NUL byte, which no path may hold; the JDK's message would quote it as it is.
                throw new Malformed(file, n, "key file '" + field.substring(1) + "' is no path");
            }
            List<Listed> keys = new ArrayList<>();
            List<String> lines = lines(keyFile, file, n);
            for (int i = 0; i < lines.size(); i++) {
                String key = lines.get(i).strip();
                if (key.isEmpty() || key.startsWith("#")) {
                    continue;
                }
                if (!KEY.matcher(key).matches()) {
                    throw new Malformed(keyFile, i + 1, "key '" + abbreviated(key) + "' must be " + KEY_RULE);
                }
                keys.add(new Listed(key, tier, n, keyFile + ":" + (i + 1)));
            }
            return keys;
        }
        List<Listed> keys = new ArrayList<>();
        for (String key : field.split(",", -1)) {
            if (!KEY.matcher(key).matches()) {
                throw new Malformed(file, n, "key '" + abbreviated(key) + "' must be " + KEY_RULE);
            }
            keys.add(new Listed(key, tier, n, null));
        }
        return keys;
    }

    private static List<String> lines(Path path, Path tiersFile, int line) throws Malformed {
        try {
            return UserFile.lines(path, UserFile.KEYS);
        } catch (UserFile.Refused e) {
            if (Files.exists(path)) {
                // A device, a folder or a file past the bound; the message names the file already.
                throw line == 0 ? new Malformed(e.getMessage()) : new Malformed(tiersFile, line, "the key file "
                        + e.getMessage());
            }
            throw line == 0 ? new Malformed(path, "the tiers file does not exist")
                    : new Malformed(tiersFile, line, "the key file " + path + " does not exist");
        } catch (CharacterCodingException e) {
            throw line == 0 ? new Malformed(path, "not UTF-8 text") : new Malformed(tiersFile, line, path + " is not UTF-8 text");
        } catch (IOException e) {
            String why = Files.exists(path) ? "cannot be read (" + e.getMessage() + ")" : "does not exist";
            throw line == 0 ? new Malformed(path, "the tiers file " + why)
                    : new Malformed(tiersFile, line, "the key file " + path + " " + why);
        }
    }

    /** Whether {@code text} is a whole number from min to max, however many digits it has. */
    private static boolean within(String text, int min, int max) {
        if (!text.matches("\\d{1,10}")) {
            return false;
        }
        long n = Long.parseLong(text);
        return n >= min && n <= max;
    }

    /** A key fit for a one-line message: what is not printable escaped (not only controls: U+2028 breaks a line too), cut short. */
    private static String abbreviated(String key) {
        return Printable.escape(key, 43);
    }
}
