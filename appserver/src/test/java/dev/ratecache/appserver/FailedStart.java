package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A start of the origin in this JVM that its configuration refuses: what it printed on stderr and
 * stdout. The configuration is bound and checked before any port is opened, so no web server is
 * started and no port bound; the failure is reported by the same reporters a real start runs.
 * That a refused start also exits non-zero, as a process, AppServerJarIT shows on the jar.
 */
final class FailedStart {

    private final List<String> stderr;
    private final String stdout;

    private FailedStart(List<String> stderr, String stdout) {
        this.stderr = stderr;
        this.stdout = stdout;
    }

    /** Starts it with {@code args} on the command line and {@code environment} as its environment variables. */
    static FailedStart of(Map<String, String> environment, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream systemErr = System.err;
        PrintStream systemOut = System.out;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> new SpringApplicationBuilder(AppServerApplication.class)
                    .web(WebApplicationType.NONE).environment(environmentOf(environment)).run(args))
                    .as("the start is refused").isInstanceOf(RuntimeException.class);
        } finally {
            System.setErr(systemErr);
            System.setOut(systemOut);
        }
        FailedStart start = new FailedStart(err.toString(StandardCharsets.UTF_8).lines().toList(),
                out.toString(StandardCharsets.UTF_8));
        assertThat(start.stdout).doesNotContain("APPLICATION FAILED TO START").doesNotContain("\tat ");
        return start;
    }

    static List<String> stderrOf(String... args) {
        return of(Map.of(), args).stderr;
    }

    List<String> stderr() {
        return stderr;
    }

    /** The process's environment as Spring sees it, replaced by {@code variables}: no other variable leaks in. */
    private static StandardEnvironment environmentOf(Map<String, String> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.copyOf(variables)));
        return environment;
    }
}
