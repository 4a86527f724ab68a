package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.replay.ReplayCellReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What makes a replay's figures the log's: the generator kept to the log's schedule. A cell whose
 * start lateness p99 (over its worst run) is above {@code --max-lateness} measured other traffic
 * than the log's, later and bunched, so the check fails and the run's exit code says so.
 */
public final class ScheduleCheck {
    private ScheduleCheck() {}

    /** The check's line for one cell, as the report and checks.xml name it. */
    public static String text(String cell, long maxLatenessMs) {
        return cell + " kept to the log's schedule (start lateness p99 <= " + maxLatenessMs + " ms)";
    }

    /** One check per replay cell (cells without a replay's breakdown have none). */
    public static List<Check.Outcome> check(List<CellResult> cells, long maxLatenessMs) {
        List<Check.Outcome> outcomes = new ArrayList<>();
        for (CellResult r : cells) {
            String name = r.cell().name();
            // The metric is none of the cells' medians: the lateness is the generator's, from each run's replay
            // breakdown as the measurement carries it (no file is read).
            Check check = new Check(text(name, maxLatenessMs), name, null, "<=", maxLatenessMs);
            if (r.failed()) {
                outcomes.add(new Check.Outcome(check, false, "cell " + name + " failed: " + r.failure()));
                continue;
            }
            Optional<ReplayCellReport.Schedule> schedule = ReplayCellReport.schedule(r);
            schedule.ifPresent(s -> outcomes.add(new Check.Outcome(check, !s.behind(), s.describe()
                    + (s.behind() ? ": the generator fell behind, so these figures are not the log's traffic"
                            + " (replay at a lower --speed, or with more --threads)" : ""))));
        }
        return outcomes;
    }
}
