package dev.ratecache.suite.cli;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.ownconfig.OwnFrontConfig;
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
        Path rewired = null;
        for (Cell c : cells.stream().filter(c -> !c.direct())
                .sorted(java.util.Comparator.comparing(c -> !(c.frontLimit() && c.serverCache()))).toList()) {
            Path candidate = runDir.resolve("cells").resolve(c.name().replace('/', '-')).resolve("nginx/front")
                    .resolve(OwnFrontConfig.CHANGES);
            if (Files.isRegularFile(candidate)) {
                rewired = candidate;
                break;
            }
        }
        if (rewired != null) {
            Files.copy(rewired, runDir.resolve(OwnFrontConfig.CHANGES), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            lines.put("rewired", Files.readAllLines(runDir.resolve(OwnFrontConfig.CHANGES)).stream()
                    .filter(l -> !l.startsWith("#")).toList());
        }
        return lines;
    }
}
