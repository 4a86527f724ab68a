package dev.ratecache.suite.cli;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.spec.UserFront;
import java.util.ArrayList;
import java.util.List;

/**
 * The matrix's cells through a user's own config (--nginx-conf): each plan sends the config's
 * paths in place of /hare, /tortoise and /snail (the stress and flood plans the first, the load
 * plan each in turn); the user's -J values still override them. A config that neither limits nor
 * caches the paths the plans send has nothing for the tiers' cells to show: the direct cells alone run.
 */
final class OwnConfigCells {
    private OwnConfigCells() {}

    static List<Cell> of(UserFront own, List<Cell> cells) {
        boolean nothingToShow = !own.limits() && !own.caches();
        List<Cell> out = new ArrayList<>();
        for (Cell cell : cells) {
            if (nothingToShow && !cell.direct()) {
                continue;
            }
            Cell sent = cell;
            int i = 0;
            for (String property : cell.plan().paths().keySet()) {
                sent = sent.withProperty(property, own.paths().get(i % own.paths().size()).path());
                i++;
            }
            out.add(sent);
        }
        return out;
    }

    /** The line the run's header gives a config whose paths meet no limit and no cache. */
    static String nothingToShow(UserFront own) {
        return "your config neither limits nor caches the paths the plans send (" + String.join(", ",
                own.paths().stream().map(UserFront.SentPath::path).toList()) + "): only the direct cells run";
    }
}
