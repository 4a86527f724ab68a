package dev.ratecache.appserver.replay;

import java.nio.file.Path;

/** The paths file cannot be read or is not in the form the suite writes; the origin does not start. */
public class ReplayPathsFileException extends RuntimeException {

    private final transient Path file;

    ReplayPathsFileException(Path file, String problem) {
        super(problem);
        this.file = file;
    }

    ReplayPathsFileException(Path file, String problem, Throwable cause) {
        super(problem, cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** What is wrong, without the file name, e.g. "line 3: body_bytes must be ...". */
    public String problem() {
        return getMessage();
    }
}
