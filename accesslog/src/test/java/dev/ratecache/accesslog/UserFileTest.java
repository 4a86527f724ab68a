package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's file is read only when it is a regular file, and never past its bound: a device would fill the memory. */
class UserFileTest {
    @TempDir
    Path dir;

    @Test
    void aDeviceIsRefusedUnread() {
        assertThatThrownBy(() -> UserFile.bytes(Path.of("/dev/zero"), UserFile.SMALL))
                .isInstanceOf(UserFile.Refused.class)
                .hasMessage("/dev/zero is not a regular file (a device, a pipe or a socket), which may never end: give a"
                        + " file, or copy what it gives into one");
    }

    @Test
    void aFolderOrNothingIsRefusedSayingWhich() {
        assertThat(UserFile.problem(dir)).hasValue(dir + " is a directory, not a file");
        assertThat(UserFile.problem(dir.resolve("none"))).hasValue(dir.resolve("none") + " does not exist");
        assertThat(UserFile.problem(Path.of(""))).hasValue("'' names no file: give the path of one");
    }

    @Test
    void aFileAtTheBoundIsReadAndOneByteMoreIsRefused() throws IOException {
        Path at = Files.write(dir.resolve("at"), new byte[1024]);
        Path past = Files.write(dir.resolve("past"), new byte[1025]);

        assertThat(UserFile.bytes(at, 1024)).hasSize(1024);
        assertThatThrownBy(() -> UserFile.bytes(past, 1024)).isInstanceOf(UserFile.Refused.class)
                .hasMessage(past + " is larger than 1024 bytes, the most read: give a smaller file");
    }

    @Test
    void linesAreSplitAsFilesReadAllLinesSplitsThem() throws IOException {
        Path file = Files.writeString(dir.resolve("lines"), "a\r\nb\n\nc\rd\n");

        assertThat(UserFile.lines(file, UserFile.SMALL)).isEqualTo(List.of("a", "b", "", "c", "d"))
                .isEqualTo(Files.readAllLines(file));
        assertThat(UserFile.lines(Files.writeString(dir.resolve("empty"), ""), UserFile.SMALL)).isEmpty();
    }
}
