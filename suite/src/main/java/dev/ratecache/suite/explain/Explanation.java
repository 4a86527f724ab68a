package dev.ratecache.suite.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.suite.explain.ClientFigures.Figures;
import dev.ratecache.suite.explain.ClientFigures.Outcome;
import dev.ratecache.suite.explain.ConfigSpec.AppliedConn;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.CacheSettings;
import dev.ratecache.suite.explain.ConfigSpec.LimitZone;
import dev.ratecache.suite.explain.ConfigSpec.NotPredicted;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.ConfigSpec.Valid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A config explained: for each server and location what its limits and cache do, in words and in
 * the model's numbers for one client, then the pitfalls and what could not be predicted. One
 * {@link Explanation} gives the terminal's text, explain.md and explain.json alike.
 *
 * @param file        the config as the user named it
 * @param checked     what nginx -t said ("nginx -t: the config is valid", or why it did not run)
 * @param spec        what was read from the config
 * @param places      each server and location with its lines
 * @param pitfalls    the pitfalls found
 * @param notes       what the reader must know of where the config came from (an Ingress rendered
 *                    as its controller would), each a line; empty for a user's own file
 */
public record Explanation(String file, String checked, ConfigSpec spec, List<PlaceWords> places,
                          List<Finding> pitfalls, List<String> notes) {

    public Explanation {
        notes = List.copyOf(notes);
    }

    /** The same explanation with {@code more} notes after its own. */
    public Explanation withNotes(List<String> more) {
        List<String> all = new ArrayList<>(notes);
        all.addAll(more);
        return new Explanation(file, checked, spec, places, pitfalls, all);
    }

    /** One place's lines, and its figures when the model could give them. */
    public record PlaceWords(String server, String location, String where, List<String> lines, Figures figures) {
    }

    /** The explanation of {@code spec}, read from {@code file}. */
    public static Explanation of(String file, String checked, ConfigSpec spec, Pitfalls.Context context) {
        List<PlaceWords> places = new ArrayList<>();
        for (ConfigSpec.Server server : spec.servers()) {
            for (Place place : server.places()) {
                PlaceWords w = words(place);
                places.add(new PlaceWords(server.label(), w.location(), w.where(), w.lines(), w.figures()));
            }
        }
        return new Explanation(file, checked, spec, places, Pitfalls.of(spec, context), List.of());
    }

    static PlaceWords words(Place place) {
        List<String> lines = new ArrayList<>();
        String target = place.location().equals("(every path)") ? "this server" : place.location();
        lines.add(place.upstream() != null ? "passed to " + place.upstream()
                : place.returns() != null ? "answered by its return (" + place.returns() + ")"
                : "answered by nginx itself (no proxy_pass here)");
        for (AppliedLimit limit : place.limits()) {
            LimitZone zone = limit.zone();
            lines.add("limit_req zone=" + zone.name() + " (" + limit.where() + "): under "
                    + Words.rate(zone.perSecond(), zone.perMinute()) + " with " + limit.words() + ", counted per "
                    + zone.key().words() + "; zone " + zone.name() + " (" + zone.where() + ") holds about "
                    + Words.count(Pitfalls.states(zone)) + " keys");
            for (String exempt : zone.key().exemptions()) {
                lines.add("not limited by " + zone.name() + ": requests where " + exempt);
            }
            if (zone.key().shared()) {
                lines.add("one bucket for every client together: the figures below are for all clients at once");
            }
        }
        if (!place.limits().isEmpty()) {
            lines.add("refused requests get " + place.status() + (place.statusWhere() == null ? " (nginx's default)"
                    : " (limit_req_status at " + place.statusWhere() + ")"));
            if (place.limits().size() > 1) {
                lines.add("all " + place.limits().size() + " limits decide each request: the strictest refuses, and a"
                        + " request refused by one is counted by none");
            }
            if (place.dryRunWhere() != null) {
                lines.add("limit_req_dry_run on (" + place.dryRunWhere() + "): nginx refuses and delays nothing; what"
                        + " follows is what it would do, and logs in $limit_req_status");
            }
        }
        for (AppliedConn conn : place.conns()) {
            lines.add("limit_conn " + conn.zone().name() + " " + conn.max() + " (" + conn.where() + "): at most "
                    + conn.max() + " connections at once per " + conn.zone().key().words() + "; more get "
                    + place.connStatus() + ". Not predicted: the model counts requests, not connections");
        }
        Figures figures = null;
        List<NotPredicted> touching = place.notPredicted();
        if (!place.limits().isEmpty() && place.returns() != null) {
            // return runs in the rewrite phase, limit_req in preaccess, after it: no request here is counted.
            lines.add("the return (" + place.returns() + ") answers in the rewrite phase, before limit_req runs:"
                    + " no request here is limited or counted");
        } else if (!place.limits().isEmpty()) {
            boolean evaluable = place.limits().stream().allMatch(l -> l.zone().key().evaluable());
            if (!evaluable) {
                lines.add("figures not predicted: the key cannot be evaluated (see below)");
            } else {
                figures = ClientFigures.of(place);
                lines.addAll(figureLines(place, target, figures));
                if (!touching.isEmpty()) {
                    lines.add("the figures leave out what is not predicted here (see below)");
                }
            }
        }
        // The cache stores what proxy_pass fetches: where nothing is passed upstream it does nothing.
        boolean caches = place.cache() != null && place.upstream() != null;
        if (caches) {
            lines.add(cacheLine(place.cache()));
            lines.add(CacheFigures.of(place.cache()).map(CacheFigures::words).orElse("cache figures not predicted: "
                    + (place.cache().minUses() > 1 ? "the model does not count proxy_cache_min_uses"
                    : "no proxy_cache_valid of a second or more for 200, so the lifetime is the upstream's")));
        }
        if (place.limits().isEmpty() && place.conns().isEmpty() && !caches) {
            lines.add("no limit and no cache: every request goes through as it comes");
        }
        for (NotPredicted n : touching) {
            lines.add("not predicted: " + n.directive() + " (" + n.where() + "): " + n.reason());
        }
        return new PlaceWords(place.server(), place.location(), place.where(), lines, figures);
    }

    static List<String> figureLines(Place place, String target, Figures f) {
        boolean dry = place.dryRunWhere() != null;
        String get = dry ? "would get " : "get ";
        boolean minutes = ClientFigures.strictest(place).zone().perMinute();
        String under = "under " + (place.limits().size() > 1 ? "its strictest, " : "")
                + Words.rate(f.ratePerSecond(), minutes) + " with " + ClientFigures.strictest(place).words();
        List<String> lines = new ArrayList<>();
        Outcome steady = f.steady();
        lines.add("steady: a client sending " + Words.rate(steady.sentPerSecond(), minutes) + ", evenly spaced, to " + target
                + (steady.refused() == 0 ? " is answered in full" : (dry ? " would have " : " has ") + steady.refused()
                + " of " + steady.sent() + " refused") + (steady.delayed() > 0 ? ", waiting up to " + Words.ms(steady.maxDelayMs()) : ""));
        Outcome burst = f.burstAtOnce();
        lines.add("burst: " + burst.sent() + " requests at once: " + burst.answered() + " answered"
                + (burst.maxDelayMs() > 0 ? " (the last after " + Words.ms(burst.maxDelayMs()) + " in the queue)"
                : " at once") + ", " + burst.refused() + " " + (!dry && burst.refused() == 1 ? "gets " : get)
                + place.status()
                + (dry ? " (dry run: nginx answers them)" : ""));
        for (Outcome flood : List.of(f.flood2x(), f.flood10x())) {
            String label = flood.name() + ": " + under + ", a client sending " + Words.rate(flood.sentPerSecond(), minutes)
                    + " to " + target;
            if (flood.refused() == 0) {
                lines.add(label + " is answered in full" + (flood.delayed() > 0 ? ", waiting up to "
                        + Words.ms(flood.maxDelayMs()) : ""));
                continue;
            }
            // With no burst there is none to spend: the client is held to the rate from its second request.
            String spent = f.burst() == 0 ? " is answered "
                    : " is answered in full for about " + Words.ms(flood.firstRefusedMs()) + ", until the burst is spent,"
                    + " then ";
            lines.add(label + spent + Words.often(flood.answeredPerSecondAfter(), minutes)
                    + (flood.delayed() > 0 ? " (waiting up to " + Words.ms(flood.maxDelayMs()) + ")" : "")
                    + "; the other " + Words.perUnit(flood.refusedPerSecondAfter(), minutes) + " " + get + place.status()
                    + (dry ? " (dry run: nginx answers them)" : ""));
        }
        return lines;
    }

    static String cacheLine(CacheSettings c) {
        String valid = c.valid().isEmpty() ? "no proxy_cache_valid: only answers whose Cache-Control or Expires allow"
                + " it are stored"
                : c.valid().stream().map(Explanation::validWords).collect(Collectors.joining("; "))
                + (c.ignoreHeaders().contains("cache-control") && c.ignoreHeaders().contains("expires") ? ""
                : " (unless the upstream's Cache-Control, Expires or X-Accel-Expires say otherwise)");
        return "cache " + c.zone().name() + " (" + c.where() + ", proxy_cache_path at " + c.zone().where() + ", "
                + Words.bytes(c.zone().sizeBytes()) + " of keys, entries unused for " + Words.ms(c.zone().inactiveMs())
                + " removed): " + valid + "; lock " + (c.lock() ? "on" : "off") + ", stale while updating "
                + (c.useStale().contains("updating") ? "yes" : "no") + ", background update "
                + (c.backgroundUpdate() ? "on" : "off") + (c.minUses() > 1 ? ", stored after " + c.minUses() + " requests" : "")
                + "; key " + c.key();
    }

    private static String validWords(Valid v) {
        return String.join(" ", v.codes()) + " kept " + Words.ms(v.ms()) + " (" + v.where() + ")";
    }

    /** The text for the terminal, and for explain.md without its headings. */
    public String text() {
        StringBuilder s = new StringBuilder();
        s.append(file).append(": ").append(checked).append('\n');
        notes.forEach(n -> s.append("note: ").append(n).append('\n'));
        String server = null;
        for (PlaceWords p : places) {
            if (!p.server().equals(server)) {
                server = p.server();
                s.append('\n').append(server).append('\n');
            }
            s.append("  ").append(p.location().equals("(every path)") ? "every path" : "location " + p.location())
                    .append(" (").append(p.where()).append(")\n");
            p.lines().forEach(l -> s.append("    ").append(l).append('\n'));
        }
        if (places.isEmpty()) {
            s.append("\nno server blocks: nothing is limited or cached\n");
        }
        s.append('\n').append(pitfalls.isEmpty() ? "No pitfalls found." : "Pitfalls (" + pitfalls.size() + ")").append('\n');
        for (Finding f : pitfalls) {
            s.append("  ").append(f.where()).append(": ").append(f.what()).append("\n    fix: ").append(f.fix()).append('\n');
        }
        if (!spec.notPredicted().isEmpty()) {
            s.append("\nNot predicted\n");
            for (NotPredicted n : spec.notPredicted()) {
                s.append("  ").append(n.where()).append(": ").append(n.directive()).append(": ").append(n.reason())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /** explain.md: the same, as Markdown. */
    public String markdown() {
        StringBuilder s = new StringBuilder("# explain " + file + "\n\n" + checked + "\n");
        if (!notes.isEmpty()) {
            s.append('\n');
            notes.forEach(n -> s.append("- ").append(n).append('\n'));
        }
        String server = null;
        for (PlaceWords p : places) {
            if (!p.server().equals(server)) {
                server = p.server();
                s.append("\n## ").append(server).append("\n");
            }
            s.append("\n### ").append(p.location().equals("(every path)") ? "every path" : "location `" + p.location() + "`")
                    .append(" (").append(p.where()).append(")\n\n");
            p.lines().forEach(l -> s.append("- ").append(l).append('\n'));
        }
        s.append("\n## Pitfalls\n\n");
        if (pitfalls.isEmpty()) {
            s.append("None found.\n");
        }
        for (Finding f : pitfalls) {
            s.append("- **").append(f.where()).append("**: ").append(f.what()).append(". Fix: ").append(f.fix())
                    .append('\n');
        }
        if (!spec.notPredicted().isEmpty()) {
            s.append("\n## Not predicted\n\n");
            for (NotPredicted n : spec.notPredicted()) {
                s.append("- **").append(n.where()).append("** `").append(n.directive()).append("`: ").append(n.reason())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /** Writes explain.md and explain.json into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("explain.md"), markdown());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("explain.json").toFile(), this);
    }
}
