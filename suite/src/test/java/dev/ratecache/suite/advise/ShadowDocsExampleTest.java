package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.ReadOptions;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.DocFixtures;
import dev.ratecache.suite.docs.YourConfigPage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/your-traffic.md quotes what advise says of the docs' own dry-run log against the nginx.conf
 * of docs/your-config.md: the lines it quotes are the ones the what-if gives today.
 */
class ShadowDocsExampleTest {
    @TempDir
    Path dir;

    @Test
    void theLinesYourTrafficQuotesAreWhatAdviseSaysOfTheDocsDryRunLog() throws Exception {
        Path log = Files.write(dir.resolve("limit-dry-run.log"), DocFixtures.dryRunLog());
        ParsedLog parsed = AccessLog.read(log, LogFormat.AUTO, ReadOptions.defaults());
        ChosenServer server = ChosenServer.of(ConfText.parse(YourConfigPage.example()), null);
        WhatIfReport report = WhatIfReport.of("nginx.conf", "nginx -t takes it", server, parsed.requests(),
                parsed.resolution() == TimeResolution.WHOLE_SECONDS, parsed.format().hasLimitStatus());

        String page = Files.readString(Repo.root().resolve("docs/your-traffic.md"));
        assertThat(report.shadow().agreementPct()).isEqualTo(100.0);
        report.terminal().lines().skip(1).forEach(line -> assertThat(page).as("docs/your-traffic.md").contains(line));
    }
}
