package dev.ratecache.appserver.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * The gzip representation of an endpoint that compresses: when a request accepts it, what its
 * entity tag is, and its body. The origin makes it, not a tier in front, so that it has a strong
 * entity tag of its own (a transforming proxy could only weaken the identity one).
 */
final class GzipRepresentation {

    private GzipRepresentation() {
    }

    /**
     * Whether any Accept-Encoding header lists {@code gzip}, {@code x-gzip} or {@code *} with a
     * non-zero quality (RFC 9110 section 12.5.3).
     */
    static boolean accepted(List<String> acceptEncodingHeaders) {
        if (acceptEncodingHeaders == null) {
            return false;
        }
        for (String header : acceptEncodingHeaders) {
            for (String member : header.split(",")) {
                String[] parts = member.split(";");
                String coding = parts[0].strip().toLowerCase(Locale.ROOT);
                if ((coding.equals("gzip") || coding.equals("x-gzip") || coding.equals("*")) && !zeroQuality(parts)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean zeroQuality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("q=")) {
                return parameter.substring(2).strip().matches("0(\\.0{0,3})?");
            }
        }
        return false;
    }

    /** The strong tag of the gzip representation: the identity tag's value with "+gzip". */
    static String entityTag(String identityTag) {
        return identityTag.substring(0, identityTag.length() - 1) + "+gzip\"";
    }

    static byte[] compress(byte[] identity) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(identity);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
