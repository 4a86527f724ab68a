package dev.ratecache.appserver.api;

import java.nio.charset.StandardCharsets;

/**
 * A replayed path's body: {@code length} bytes of one line of text repeated, the same for the
 * same length and content version, so that the strong entity tag names it. It is written as it
 * goes out ({@link ReplayBodyConverter}) because a log may have logged a download of gigabytes.
 */
record ReplayBody(long length, byte[] block) {

    private static final int BLOCK_BYTES = 64 * 1024;

    /** The block that bodies of this content version repeat; a whole number of lines. */
    static byte[] blockFor(String contentVersion) {
        byte[] line = ("replayed by the ratecache origin, content " + contentVersion + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] block = new byte[(BLOCK_BYTES / line.length) * line.length];
        for (int i = 0; i < block.length; i += line.length) {
            System.arraycopy(line, 0, block, i, line.length);
        }
        return block;
    }
}
