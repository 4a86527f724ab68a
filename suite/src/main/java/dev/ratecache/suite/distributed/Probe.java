package dev.ratecache.suite.distributed;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.jmeter.JMeter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Asks every load host, through JMeter's own -R, which JMeter it runs and what it holds for the
 * properties the plans rely on on the sending side (the JTL's extra columns, the client cache's
 * mode): one sample per host from probe.jmx, compared here with this controller's own.
 */
public final class Probe {
    /** Properties read where the samples are made, so on each load host, from jmeter/suite.properties. */
    public static final List<String> REMOTE_PROPERTIES = List.of("sample_variables",
            "cache_manager.cached_resource_mode", "RETURN_200_CACHE.message");

    private Probe() {}

    /**
     * Each host's mismatches, one line each naming the host, in the order of {@code remote.hosts()};
     * an empty list for a host that agrees with this controller.
     */
    public static Map<String, List<String>> problemsPerHost(JMeter jmeter, JMeter.Remote remote, String localVersion,
            Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path plan = dir.resolve("probe.jmx");
        try (InputStream in = Probe.class.getResourceAsStream("/jmeter/probe.jmx")) {
            Files.copy(in, plan, StandardCopyOption.REPLACE_EXISTING);
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("probe_names", String.join(",", REMOTE_PROPERTIES));
        JMeter.Run run = jmeter.run(plan, props, dir, remote);
        Map<String, String> wanted = suiteProperties();
        List<Sample> samples = Files.isRegularFile(run.jtl()) ? Jtl.read(run.jtl()) : List.of();
        Map<String, List<String>> problems = new LinkedHashMap<>();
        for (String host : remote.hosts()) {
            Sample answer = samples.stream().filter(s -> s.threadName().startsWith(host + "-")).findFirst().orElse(null);
            problems.put(host, answer == null
                    ? List.of("load host " + host + " did not run the probe plan: " + why(run.log(), host)
                            + " (see " + run.log() + ")")
                    : compare(host, answer.responseMessage(), localVersion, wanted));
        }
        return problems;
    }

    /**
     * One host's probe answer (probe.jmx's response message: {@code name=value} fields separated by
     * tabs, {@code jmeter} its version) against this controller's version and the properties the
     * plans need on the sending side: a line per mismatch.
     */
    static List<String> compare(String host, String answer, String localVersion, Map<String, String> wanted) {
        Map<String, String> theirs = new LinkedHashMap<>();
        for (String part : answer.split("\t")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                theirs.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        List<String> problems = new ArrayList<>();
        String version = theirs.getOrDefault("jmeter", "?");
        if (!version.equals(localVersion)) {
            problems.add("load host " + host + " runs JMeter " + version + ", this controller " + localVersion
                    + ": run ./run-tests.sh load-server from a checkout of the same version there");
        }
        wanted.forEach((name, value) -> {
            String remoteValue = theirs.get(name);
            if (!value.equals(remoteValue)) {
                problems.add("load host " + host + " lacks the plan property " + name + "=" + value + " (it has "
                        + remoteValue + "): start its JMeter with -q jmeter/suite.properties, as load-server does");
            }
        });
        return problems;
    }

    /** The first line of JMeter's log that names {@code host} and an error, or a general reason. */
    private static String why(Path log, String host) throws IOException {
        if (!Files.isRegularFile(log)) {
            return "JMeter did not start";
        }
        for (String line : Files.readAllLines(log)) {
            String l = line.toLowerCase();
            if ((l.contains("ssl") || l.contains("handshake")) && l.contains("exception")) {
                return "the RMI SSL handshake failed (both ends need the same --rmi-keystore file)";
            }
        }
        return "JMeter could not configure or start the remote engine";
    }

    /** The values of {@link #REMOTE_PROPERTIES} in jmeter/suite.properties. */
    static Map<String, String> suiteProperties() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Repo.jmeterProperties())) {
            p.load(in);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : REMOTE_PROPERTIES) {
            if (p.getProperty(name) != null) {
                out.put(name, p.getProperty(name));
            }
        }
        return out;
    }

    /** Samples per load host in a distributed run's JTL: JMeter prefixes each thread's name with its host. */
    public static Map<String, Long> samplesPerHost(List<Sample> samples, List<String> hosts) {
        Map<String, Long> counts = new LinkedHashMap<>();
        hosts.forEach(h -> counts.put(h, 0L));
        for (Sample s : samples) {
            for (String h : hosts) {
                if (s.threadName().startsWith(h + "-")) {
                    counts.merge(h, 1L, Long::sum);
                }
            }
        }
        return counts;
    }
}
