package dev.ratecache.suite.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run measured on, for the report: figures mean little without it. */
public final class Machine {
    private Machine() {}

    /** One line for a report header, e.g. "2 CPUs (AMD EPYC), 23.5 GiB, Linux 6.1, Java 17.0.15, nginx/1.22.1". */
    public static String oneLine(String nginxVersion) {
        Map<String, String> m = describe(nginxVersion);
        return m.get("cpus") + " CPUs (" + m.get("cpu_model") + "), " + m.get("memory_gib") + " GiB, " + m.get("os")
                + ", Java " + System.getProperty("java.version") + ", " + m.get("nginx");
    }

    public static Map<String, String> describe(String nginxVersion) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("cpu_model", cpuModel());
        m.put("memory_gib", String.format(java.util.Locale.ROOT, "%.1f", memoryGib()));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("nginx", nginxVersion);
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException ignored) {
            // Not Linux: say so below.
        }
        return "unknown";
    }

    private static double memoryGib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0 / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // Not Linux.
        }
        return 0;
    }
}
