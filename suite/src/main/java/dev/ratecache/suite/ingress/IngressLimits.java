package dev.ratecache.suite.ingress;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The rate limits of a Kubernetes Ingress as ingress-nginx reads its annotations
 * ({@code nginx.ingress.kubernetes.io/limit-rps}, {@code limit-rpm}, {@code limit-burst-multiplier},
 * {@code limit-connections}, {@code limit-allowlist} and its alias {@code limit-whitelist}), by the
 * controller's own code: {@code internal/ingress/annotations/ratelimit/main.go} gives each limit a
 * zone of 5 MB and a burst of the limit times the multiplier (5 by default); {@code buildRateLimit}
 * in its template writes {@code limit_req ... nodelay}, the connections first, then r/s, then r/m.
 *
 * @param namespace   the Ingress's namespace ("default" when it names none)
 * @param name        the Ingress's name
 * @param rules       its hosts and paths, each with the Service it sends to
 * @param rps         limit-rps, 0 when not set
 * @param rpm         limit-rpm, 0 when not set
 * @param connections limit-connections, 0 when not set
 * @param multiplier  limit-burst-multiplier (5 when not set)
 * @param allowlist   limit-allowlist: addresses and CIDRs never limited
 */
public record IngressLimits(String namespace, String name, List<Route> rules, int rps, int rpm, int connections,
        int multiplier, List<String> allowlist) {

    /** The annotations' prefix, the controller's default {@code --annotations-prefix}. */
    public static final String PREFIX = "nginx.ingress.kubernetes.io/";

    /** ratelimit/main.go's defBurst: "allow 5 times the specified limit as burst". */
    public static final int DEFAULT_MULTIPLIER = 5;

    /** ratelimit/main.go's defSharedSize, in MB: "1MB -> 16 thousand 64-byte states". */
    public static final int ZONE_MB = 5;

    /** The configmap's limit-req-status-code and limit-conn-status-code when not set. */
    public static final int DEFAULT_STATUS = 503;

    /** One host and path of the Ingress, and the Service port it sends to. */
    public record Route(String host, String path, String pathType, String service, String port) {
    }

    public IngressLimits {
        rules = List.copyOf(rules);
        allowlist = List.copyOf(allowlist);
    }

    /** Whether any limit is set: ingress-nginx writes no zone for an Ingress with none. */
    public boolean limited() {
        return rps > 0 || rpm > 0 || connections > 0;
    }

    /** The zones' common stem, as the controller names them (namespace_name, less the object's UID a file lacks). */
    public String zoneStem() {
        return namespace + "_" + name;
    }

    /**
     * Every Ingress in {@code file} (one YAML document each, or a {@code kind: List}), in order.
     *
     * @throws UserFile.Refused one line saying what is wrong: not YAML, no Ingress, a value the
     *                          controller would refuse
     */
    public static List<IngressLimits> read(Path file) throws IOException {
        String text = new String(UserFile.bytes(file, UserFile.SMALL), StandardCharsets.UTF_8);
        String shown = Printable.shown(file.toString());
        List<Map<?, ?>> objects = new ArrayList<>();
        try {
            for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text)) {
                collect(doc, objects);
            }
        } catch (YAMLException e) {
            throw new UserFile.Refused(shown + " is not YAML: " + Printable.shown(firstLine(e.getMessage()))
                    + ": give an Ingress manifest (kubectl get ingress NAME -o yaml)");
        }
        List<IngressLimits> ingresses = new ArrayList<>();
        for (Map<?, ?> object : objects) {
            if ("Ingress".equals(object.get("kind"))) {
                ingresses.add(of(object, shown));
            }
        }
        if (ingresses.isEmpty()) {
            throw new UserFile.Refused(shown + " holds no object of kind Ingress: give an Ingress manifest (kubectl"
                    + " get ingress NAME -o yaml)");
        }
        return ingresses;
    }

    private static void collect(Object doc, List<Map<?, ?>> into) {
        if (doc instanceof Map<?, ?> map) {
            if ("List".equals(map.get("kind")) && map.get("items") instanceof List<?> items) {
                items.forEach(item -> collect(item, into));
            } else {
                into.add(map);
            }
        }
    }

    private static IngressLimits of(Map<?, ?> ingress, String shown) throws UserFile.Refused {
        Map<?, ?> metadata = map(ingress.get("metadata"));
        String name = text(metadata.get("name"), "unnamed");
        String namespace = text(metadata.get("namespace"), "default");
        Map<?, ?> annotations = map(metadata.get("annotations"));
        String where = shown + ": Ingress " + namespace + "/" + name;
        int rps = whole(annotations, "limit-rps", 0, where);
        int rpm = whole(annotations, "limit-rpm", 0, where);
        int connections = whole(annotations, "limit-connections", 0, where);
        int multiplier = whole(annotations, "limit-burst-multiplier", DEFAULT_MULTIPLIER, where);
        Object list = annotations.containsKey(PREFIX + "limit-allowlist") ? annotations.get(PREFIX + "limit-allowlist")
                : annotations.get(PREFIX + "limit-whitelist");
        List<String> allowlist = new ArrayList<>();
        for (String cidr : text(list, "").split(",")) {
            if (!cidr.isBlank()) {
                String c = cidr.strip();
                // The controller parses them (net.ParseCIDRs) and refuses the Ingress over one it cannot.
                if (!dev.ratecache.suite.switches.Cidr.valid(c)) {
                    throw new UserFile.Refused(where + ": limit-allowlist takes addresses and CIDRs separated by"
                            + " commas (got '" + Printable.shown(c) + "')");
                }
                allowlist.add(c);
            }
        }
        return new IngressLimits(namespace, name, routes(map(ingress.get("spec"))), rps, rpm, connections, multiplier,
                allowlist);
    }

    private static List<Route> routes(Map<?, ?> spec) {
        List<Route> routes = new ArrayList<>();
        for (Object r : list(spec.get("rules"))) {
            Map<?, ?> rule = map(r);
            String host = text(rule.get("host"), "");
            for (Object p : list(map(rule.get("http")).get("paths"))) {
                Map<?, ?> path = map(p);
                Map<?, ?> service = map(map(path.get("backend")).get("service"));
                Map<?, ?> port = map(service.get("port"));
                routes.add(new Route(host, text(path.get("path"), "/"), text(path.get("pathType"), "Prefix"),
                        text(service.get("name"), "default-backend"),
                        text(port.containsKey("number") ? port.get("number") : port.get("name"), "80")));
            }
        }
        Map<?, ?> fallback = map(map(spec.get("defaultBackend")).get("service"));
        if (routes.isEmpty() && !fallback.isEmpty()) {
            Map<?, ?> port = map(fallback.get("port"));
            routes.add(new Route("", "/", "Prefix", text(fallback.get("name"), "default-backend"),
                    text(port.containsKey("number") ? port.get("number") : port.get("name"), "80")));
        }
        return routes;
    }

    /** An annotation the controller reads as an int (parser.ValidateInt): it refuses the Ingress otherwise. */
    private static int whole(Map<?, ?> annotations, String key, int absent, String where) throws UserFile.Refused {
        Object value = annotations.get(PREFIX + key);
        if (value == null) {
            return absent;
        }
        String v = String.valueOf(value).strip();
        if (!v.matches("\\d{1,9}")) {
            throw new UserFile.Refused(where + ": " + key + " must be a whole number, as ingress-nginx reads it (got '"
                    + Printable.shown(v) + "')");
        }
        return Integer.parseInt(v);
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static String text(Object o, String absent) {
        return o == null ? absent : String.valueOf(o);
    }

    private static String firstLine(String message) {
        return Optional.ofNullable(message).map(m -> m.lines().findFirst().orElse("")).orElse("");
    }

    /** The Ingresses' hosts, each with its routes in the order given; "" is the catch-all server. */
    static Map<String, List<Map.Entry<IngressLimits, Route>>> byHost(List<IngressLimits> ingresses) {
        Map<String, List<Map.Entry<IngressLimits, Route>>> hosts = new LinkedHashMap<>();
        for (IngressLimits i : ingresses) {
            for (Route r : i.rules()) {
                hosts.computeIfAbsent(r.host(), h -> new ArrayList<>()).add(Map.entry(i, r));
            }
        }
        return hosts;
    }
}
