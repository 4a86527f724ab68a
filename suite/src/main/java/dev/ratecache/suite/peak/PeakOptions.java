package dev.ratecache.suite.peak;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.nio.file.Path;
import java.util.List;

/**
 * What a peak run measures and how, the same for every mode (the paths, --tls, --edge,
 * --breakdown); a mode reads the fields it has a use for.
 *
 * @param switches      the tiers' switches as given; each mode makes the limits open or binding itself
 * @param workers       the switches' worker setting, which the ceilings copy
 * @param path          the URL path to warm and hit
 * @param origin        the suite's own origin's extra arguments, or null for the switches' --origin
 * @param originThreads the suite's origin's threads
 * @param dir           where the tiers' prefixes and the clients' output go
 * @param streams       --tls: h2load's requests in flight per connection (-m); its -c makes wrk's -c in flight
 * @param fleet         --fleet: the MISS and rejection paths through a fleet too, its limit split and shared
 * @param quota         --quota's window and mode, whose cost the quota's rows measure with
 *                      {@link PeakRun#OPEN_QUOTA} requests a window; null for no quota rows
 * @param product       whose edge: nginx's paths, or another product's full edge against its bare form
 */
public record PeakOptions(StackSwitches switches, String workers, StackPorts ports, Wrk.Load load, int rounds,
        String path, List<String> origin, int originThreads, Path dir, int streams, boolean fleet, Quota quota,
        EdgeProduct product) {}
