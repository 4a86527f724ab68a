package dev.ratecache.suite.cli;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.ownconfig.OwnFrontConfig;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.spec.UserFront;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the report's header says of a run through the user's own config: the config, what the cells
 * leave out of it, and every line the copy changed, from the first cell that ran it with its limits
 * and cache as written (its front/rewired.txt, kept as rewired.txt in the run's folder).
 */
final class OwnConfigReport {
    private OwnConfigReport() {}

    static Map<String, Object> header(UserFront own, List<Cell> cells, Path runDir) throws IOException {
        Map<String, Object> lines = new LinkedHashMap<>();
        lines.put("your config", own.describe());
        lines.put("your config's cells", "a cell with the front limit off runs it without its limit_req and limit_conn"
                + " directives, with the server cache off without its proxy_cache ones; "
                + (!own.limits() && !own.caches() ? OwnConfigCells.nothingToShow(own)
                : "the direct cells send the same paths straight to the origin"));
        List<String> changes = changes(cells, runDir);
        if (!changes.isEmpty()) {
            lines.put("rewired", changes.size() + " changes to your config for this machine, in the section \""
                    + TITLE + "\" and " + OwnFrontConfig.CHANGES);
        }
        return lines;
    }

    static final String TITLE = "Your config, as it ran here";

    /** The section listing every change, once a cell ran the config; empty before. */
    static java.util.Optional<ReportSection> section(List<Cell> cells, Path runDir) throws IOException {
        List<String> changes = changes(cells, runDir);
        return changes.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(new ReportSection(TITLE,
                "Your file is never edited: a copy runs, changed only where it names this machine's addresses, files and"
                + " processes, line by line below (from the cell that ran your limits and cache as written; a cell"
                + " that leaves them out lists that too, in its nginx/front/" + OwnFrontConfig.CHANGES + ").", changes));
    }

    /** The changes, from the first cell that ran the config with its limits and cache; kept as rewired.txt in the run. */
    private static List<String> changes(List<Cell> cells, Path runDir) throws IOException {
        Path kept = runDir.resolve(OwnFrontConfig.CHANGES);
        if (!Files.isRegularFile(kept)) {
            for (Cell c : cells.stream().filter(c -> !c.direct())
                    .sorted(java.util.Comparator.comparing(c -> !(c.frontLimit() && c.serverCache()))).toList()) {
                Path candidate = runDir.resolve("cells").resolve(c.name().replace('/', '-')).resolve("nginx/front")
                        .resolve(OwnFrontConfig.CHANGES);
                if (Files.isRegularFile(candidate)) {
                    Files.copy(candidate, kept);
                    break;
                }
            }
        }
        return Files.isRegularFile(kept) ? Files.readAllLines(kept).stream().filter(l -> !l.startsWith("#")).toList()
                : List.of();
    }
}
