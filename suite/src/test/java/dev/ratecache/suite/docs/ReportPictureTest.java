package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.HeadlessChromium;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The README's picture, docs/report.png, is the first screen of the committed example's
 * index.html as headless Chromium draws it. This test draws it again and fails when the committed
 * picture shows something else (a report that changed its look, or a new example run), with the
 * command that takes it again. Fonts and anti-aliasing differ a little between machines, so a few
 * per cent of the pixels may differ; a changed table or chart moves far more.
 */
@StackTest
class ReportPictureTest {
    static final Path PICTURE = Repo.root().resolve("docs/report.png");
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 800;
    /** A pixel differs when a channel moved this much of 255: anti-aliasing moves edges a little. */
    private static final int CHANNEL = 64;
    private static final double MOST_DIFFERING = 0.04;

    @Test
    void theReadmesPictureIsTheExampleReportAsChromiumDrawsIt() throws Exception {
        Required.that(HeadlessChromium.binary().isPresent(), "no Chromium on the PATH (Debian's chromium)");
        Path dir = TestDirs.fresh(ReportPictureTest.class, "chromium");
        Path drawn = HeadlessChromium.in(dir, Duration.ofSeconds(90)).screenshot(
                Repo.root().resolve("results/example/index.html"), dir.resolve("report.png"), WIDTH, HEIGHT,
                Duration.ofSeconds(10));
        if (Committed.writing()) {
            Files.copy(drawn, PICTURE, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        String again = "take it again with ./mvnw -B verify -pl acceptance -am -Dtest=NONE -Dit.test=ReportPictureTest"
                + " -Ddocs.write=true";
        assertThat(PICTURE).as("docs/report.png: " + again).isRegularFile();
        BufferedImage committed = ImageIO.read(PICTURE.toFile());
        BufferedImage now = ImageIO.read(drawn.toFile());
        assertThat(committed.getWidth()).as(again).isEqualTo(now.getWidth());
        assertThat(committed.getHeight()).as(again).isEqualTo(now.getHeight());
        assertThat(differing(committed, now)).as("share of pixels that differ from the committed picture (" + drawn
                + "); " + again).isLessThan(MOST_DIFFERING);
    }

    private static double differing(BufferedImage a, BufferedImage b) {
        long differing = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                int p = a.getRGB(x, y);
                int q = b.getRGB(x, y);
                for (int shift = 0; shift <= 16; shift += 8) {
                    if (Math.abs(((p >> shift) & 0xff) - ((q >> shift) & 0xff)) > CHANNEL) {
                        differing++;
                        break;
                    }
                }
            }
        }
        return (double) differing / ((long) a.getWidth() * a.getHeight());
    }
}
