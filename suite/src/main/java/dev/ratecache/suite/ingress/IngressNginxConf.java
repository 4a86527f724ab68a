package dev.ratecache.suite.ingress;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nginx.conf one ingress-nginx controller replica writes for the rate limits of some
 * Ingresses, by its template's own rules ({@code rootfs/etc/nginx/template/nginx.tmpl} and
 * {@code buildRateLimitZones}/{@code buildRateLimit} in {@code template.go}): per Ingress, a geo of
 * the client's address marking the allowlist, a map that makes an allowlisted client's key empty
 * (never limited), a 5 MB zone per limit keyed by it, and in each of its locations
 * {@code limit_conn} first, then {@code limit_req ... nodelay} for r/s and for r/m.
 *
 * <p>Only the limits are rendered: the controller's Lua balancer, its other annotations and its
 * TLS are not, and each Service is an upstream of one placeholder server that a run points at the
 * suite's tiers. Each line says which annotation it comes from, so an explanation's line numbers
 * lead back to the manifest.
 */
public final class IngressNginxConf {
    private IngressNginxConf() {}

    /** The controller's default {@code limit-conn-zone-variable}. */
    static final String KEY = "$binary_remote_addr";

    /**
     * @param reqStatus  the configmap's limit-req-status-code (503 by default)
     * @param connStatus the configmap's limit-conn-status-code (503 by default)
     */
    public static String render(List<IngressLimits> ingresses, int reqStatus, int connStatus) {
        List<String> out = new ArrayList<>();
        out.add("# What one ingress-nginx controller replica writes for these Ingresses' rate limits, by its own");
        out.add("# template; each replica keeps its own zones, so N replicas admit N times the limit.");
        out.add("events {}");
        out.add("http {");
        out.add("    limit_req_status " + reqStatus + ";  # configmap limit-req-status-code");
        out.add("    limit_conn_status " + connStatus + ";  # configmap limit-conn-status-code");
        for (IngressLimits i : ingresses) {
            if (!i.limited()) {
                continue;
            }
            String id = variable(i);
            String zone = i.zoneStem();
            out.add("    # Ingress " + i.namespace() + "/" + i.name());
            out.add("    geo $remote_addr $allowlist_" + id + " {  # limit-allowlist");
            out.add("        default 0;");
            i.allowlist().forEach(cidr -> out.add("        " + cidr + " 1;"));
            out.add("    }");
            out.add("    map $allowlist_" + id + " $limit_" + id + " {");
            out.add("        0 " + KEY + ";");
            out.add("        1 \"\";");
            out.add("    }");
            if (i.connections() > 0) {
                out.add("    limit_conn_zone $limit_" + id + " zone=" + zone + "_conn:" + IngressLimits.ZONE_MB
                        + "m;  # limit-connections");
            }
            if (i.rps() > 0) {
                out.add("    limit_req_zone $limit_" + id + " zone=" + zone + "_rps:" + IngressLimits.ZONE_MB + "m rate="
                        + i.rps() + "r/s;  # limit-rps");
            }
            if (i.rpm() > 0) {
                out.add("    limit_req_zone $limit_" + id + " zone=" + zone + "_rpm:" + IngressLimits.ZONE_MB + "m rate="
                        + i.rpm() + "r/m;  # limit-rpm");
            }
        }
        Set<String> upstreams = new LinkedHashSet<>();
        ingresses.forEach(i -> i.rules().forEach(r -> upstreams.add(upstream(i, r))));
        for (String u : upstreams) {
            out.add("    upstream " + u + " {  # the Service's endpoints");
            out.add("        server 127.0.0.1:80;");
            out.add("    }");
        }
        for (Map.Entry<String, List<Map.Entry<IngressLimits, IngressLimits.Route>>> host
                : IngressLimits.byHost(ingresses).entrySet()) {
            out.add("    server {");
            out.add("        listen 80" + (host.getKey().isEmpty() ? " default_server" : "") + ";");
            out.add("        server_name " + (host.getKey().isEmpty() ? "_" : host.getKey()) + ";");
            for (Map.Entry<IngressLimits, IngressLimits.Route> e : host.getValue()) {
                IngressLimits i = e.getKey();
                IngressLimits.Route r = e.getValue();
                String zone = i.zoneStem();
                out.add("        location " + (r.pathType().equals("Exact") ? "= " : "") + r.path() + " {  # Ingress "
                        + i.namespace() + "/" + i.name());
                if (i.connections() > 0) {
                    out.add("            limit_conn " + zone + "_conn " + i.connections() + ";");
                }
                if (i.rps() > 0) {
                    out.add("            limit_req zone=" + zone + "_rps burst=" + i.rps() * i.multiplier()
                            + " nodelay;  # limit-rps x limit-burst-multiplier");
                }
                if (i.rpm() > 0) {
                    out.add("            limit_req zone=" + zone + "_rpm burst=" + i.rpm() * i.multiplier()
                            + " nodelay;  # limit-rpm x limit-burst-multiplier");
                }
                out.add("            proxy_pass http://" + upstream(i, r) + ";");
                out.add("        }");
            }
            out.add("    }");
        }
        out.add("}");
        return String.join("\n", out) + "\n";
    }

    /**
     * The Ingress's part of its variables' names: nginx ends a variable's name at the first
     * character that is not a letter, digit or underscore, and Kubernetes names hold dashes and dots.
     */
    static String variable(IngressLimits i) {
        return i.zoneStem().replaceAll("[^A-Za-z0-9_]", "_");
    }

    /** The controller's upstream name: namespace-service-port. */
    static String upstream(IngressLimits i, IngressLimits.Route r) {
        return i.namespace() + "-" + r.service() + "-" + r.port();
    }
}
