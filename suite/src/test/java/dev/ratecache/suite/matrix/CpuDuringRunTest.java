package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.proc.MachineCpu;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The machine's and the generator's shares over the samples' window, from made-up readings. */
class CpuDuringRunTest {

    /** A reading at {@code ms}: the machine's jiffies (100 per second per core, two cores) and the generator's seconds. */
    private static CpuDuringRun.Tick at(long ms, long busyJiffies, double generatorSeconds) {
        return new CpuDuringRun.Tick(ms, new MachineCpu.Reading(busyJiffies, ms / 5), generatorSeconds);
    }

    @Test
    void theGeneratorsStartUpBeforeTheFirstRequestIsNotCounted() {
        // Start-up: 0-2 s, both cores busy, the generator at 1.5 cores. Requests: 2-4 s, one core busy, the generator at half of one.
        List<CpuDuringRun.Tick> ticks = List.of(at(0, 0, Double.NaN), at(1_000, 200, 1.5), at(2_000, 400, 3.0),
                at(3_000, 500, 3.5), at(4_000, 600, 4.0), at(5_000, 700, Double.NaN));

        CellMeasurement.WindowCpu cpu = CpuDuringRun.over(ticks, 2_000, 4_000);

        assertThat(cpu.machinePct()).isEqualTo(50.0, within(1e-9));
        assertThat(cpu.generatorPct()).isEqualTo(50.0, within(1e-9));
    }

    @Test
    void aWindowBetweenReadingsIsWidenedToTheReadingsAroundIt() {
        List<CpuDuringRun.Tick> ticks = List.of(at(0, 0, 0), at(1_000, 100, 0.2), at(2_000, 300, 1.2), at(3_000, 300, 1.2));

        CellMeasurement.WindowCpu cpu = CpuDuringRun.over(ticks, 1_200, 1_900);

        assertThat(cpu.machinePct()).isEqualTo(100.0, within(1e-9));
        assertThat(cpu.generatorPct()).isEqualTo(100.0, within(1e-9));
    }

    @Test
    void aGeneratorReadOnceHasNoShare() {
        List<CpuDuringRun.Tick> ticks = List.of(at(0, 0, Double.NaN), at(1_000, 100, 0.5), at(2_000, 200, Double.NaN));

        assertThat(CpuDuringRun.over(ticks, 0, 2_000).generatorPct()).isNull();
    }

    @Test
    void aMachineWithoutProcStatHasNoShare() {
        List<CpuDuringRun.Tick> ticks = List.of(new CpuDuringRun.Tick(0, null, 0), new CpuDuringRun.Tick(1_000, null, 1));

        assertThat(CpuDuringRun.over(ticks, 0, 1_000).machinePct()).isNull();
    }
}
