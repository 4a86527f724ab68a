package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/** A rendered file says it was rendered, from which template, and how to render it again. */
class NginxRendererTest {
    private static final String AGAIN = "# Render it again: ./run-tests.sh render DIR";

    /** The switches and ports of {@code ./run-tests.sh render}, to read the "Render it again" line back. */
    @Command
    static final class RenderFlags {
        @Mixin
        StackSwitches switches = new StackSwitches();
        @Mixin
        StackPorts ports = new StackPorts();
    }

    private static StackSwitches unusual() {
        return new StackSwitches().frontRate(50).frontMode(LimitMode.parse("delay=20")).backLimit(false)
                .limitConn(7).rejectStatus(503).retryAfter(2).cacheSize("1g").backgroundUpdate(false)
                .freshness("/hare", 3).freshness("/snail", 60).purgeAllow(List.of("127.0.0.1", "10.0.0.0/8"))
                .origins(List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082")))
                .balance(Balance.LEAST_CONN).keepalive(8).readTimeout(5).clientTimeout(3).workers("2");
    }

    @Test
    void everyRenderedFileNamesItsTemplateAndSwitchesAndNoneSaysItIsATemplate() throws IOException {
        StackSwitches switches = unusual();
        // Given, not chosen free: rendering binds no port.
        StackPorts ports = new StackPorts().edgePorts(List.of(10_001, 10_002, 10_003, 10_004, 10_005));
        for (Tier tier : Tier.values()) {
            Path conf = TestDirs.fresh(getClass(), "stamped-" + tier.id());
            new NginxRenderer(Repo.nginxTemplates()).render(tier, switches.spec(ports), conf);
            Map<String, String> files = files(conf);
            assertThat(files).containsKey(tier.template()).containsKey("snippets/shared/basics.conf");
            // The configs are stamped; an njs script is JavaScript, copied as it is.
            files.entrySet().stream().filter(f -> f.getKey().endsWith(".conf")).forEach(f -> {
                String name = f.getKey();
                String text = f.getValue();
                assertThat(text).as(name)
                        .doesNotContain("This file is a template")
                        .contains("# Rendered from the template nginx/" + name + " by ./run-tests.sh.\n")
                        .contains("# Switches: front limit 50 r/s burst 200 delay=20,")
                        .contains("# Ports: front " + ports.front() + ", back " + ports.back())
                        .contains(AGAIN + " --front-rate 50 --front-mode delay=20 --no-back-limit");
                // Still comments only: every line the stamp added starts with #.
                String stamp = text.substring(text.indexOf("# Rendered from"), text.indexOf(AGAIN));
                assertThat(stamp.lines()).allMatch(line -> line.startsWith("#"));
            });
            // A top-level file keeps one banner: the stamp sits inside it, where the template note was.
            assertThat(files.get(tier.template())).startsWith("# ----").contains(
                    "# line of its banner; the other snippets can be copied on their own.\n#\n# Rendered from");
            assertThat(files.get("snippets/shared/basics.conf")).startsWith("# Rendered from")
                    .contains("\n\n# Basics every tier shares");
        }
    }

    @Test
    void aTierKeyIsEscapedOnlyWhenItIsSpeltLikeAMapWord() throws IOException {
        // nginx's config parser reads "\\n", "\\t" and "\\r" as a line break, tab and carriage return:
        // a backslash before every key made "noisy" a key no request sends.
        Path dir = TestDirs.fresh(getClass(), "tier-keys");
        Path tiers = Files.writeString(dir.resolve("tiers.txt"), "free 2 2 nodelay noisy,tab,rate,calm,default,include\n");
        Path conf = dir.resolve("conf");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT,
                new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers).spec(new StackPorts()), conf);

        String map = files(conf).get("snippets/shared/limit-tier.conf");
        assertThat(map).contains("\n  noisy  \"free noisy\";\n", "\n  tab  \"free tab\";\n",
                "\n  rate  \"free rate\";\n", "\n  calm  \"free calm\";\n",
                "\n  \\default  \"free default\";\n", "\n  \\include  \"free include\";\n");
    }

    @Test
    void theMapHashIsSizedForTheLongestKeyAndTheKeyCountOnlyWhereTiersHaveKeys() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "map-hash");
        Path tiers = Files.writeString(dir.resolve("tiers.txt"), "free 2 2 nodelay a," + "k".repeat(256) + "\n");
        StackSwitches byKey = new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers);
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, byKey.spec(new StackPorts()), dir.resolve("keys"));
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, byKey.copy().tiers((java.nio.file.Path) null).spec(new StackPorts()),
                dir.resolve("no-tiers"));
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.BACK, byKey.spec(new StackPorts()), dir.resolve("back-all"));

        // Eight 256-byte keys: each 8 + 264 bytes, a pointer to end the bucket, rounded to 64.
        assertThat(files(dir.resolve("keys")).get("snippets/shared/map-hash.conf"))
                .contains("\nmap_hash_bucket_size 2240;\n", "\nmap_hash_max_size 2048;\n");
        assertThat(files(dir.resolve("keys")).get("front-end.conf")).containsPattern("http \\{\n  include snippets/shared/map-hash.conf;");
        assertThat(files(dir.resolve("no-tiers"))).doesNotContainKey("snippets/shared/map-hash.conf");
        // With scope all the back end has no key maps.
        assertThat(files(dir.resolve("back-all"))).doesNotContainKey("snippets/shared/map-hash.conf");
        assertThat(NginxRenderer.mapHashBucketSize(6)).isEqualTo(192);
        assertThat(NginxRenderer.mapHashMaxSize(5000)).isEqualTo(10_000);
    }

    @Test
    void theAddressCeilingTheModelAssumesIsTheOneRendered() throws IOException {
        // The file's own anonymous tier (5 r/s), not --front-rate (100), is the anonymous tier in force.
        Path dir = TestDirs.fresh(getClass(), "ceiling");
        Path tiers = Files.writeString(dir.resolve("tiers.txt"), "pro 30 40 nodelay p1\nanonymous 5 10 queue\n");
        StackSwitches s = new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers).frontRate(100);
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, s.spec(new StackPorts()), dir.resolve("conf"));

        AddressCeiling ceiling = s.addressCeilingInForce(s.limitTiers());
        assertThat(ceiling).isEqualTo(new AddressCeiling(AddressCeiling.Kind.SET, 300, 400));
        assertThat(files(dir.resolve("conf")).get("snippets/shared/client-limit-zone.conf"))
                .contains("zone=per_address:10m rate=300r/s;");
    }

    @Test
    void noAgeLeavesTheAgeFilterOut() throws IOException {
        Required.that(Files.isRegularFile(NginxRenderer.NJS_MODULE), "njs module not installed (libnginx-mod-http-js)");
        Path with = TestDirs.fresh(getClass(), "age-on");
        Path without = TestDirs.fresh(getClass(), "age-off");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, new StackSwitches().spec(new StackPorts()), with);
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, new StackSwitches().age(false).spec(new StackPorts()), without);

        assertThat(files(with)).containsKey("snippets/front/age.conf");
        assertThat(files(without)).doesNotContainKey("snippets/front/age.conf");
        assertThat(files(without).get("front-end.conf")).doesNotContain("snippets/front/age.conf");
    }

    @Test
    void theNativeAgeLoadsTheModuleAndTheMapReadsItsVariableWithNoScript() throws IOException {
        // Rendering reads no module: this holds whether run-tests.sh built it here or not.
        Path conf = TestDirs.fresh(getClass(), "age-native");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, new StackSwitches().ageSource(AgeSource.NATIVE).spec(new StackPorts()), conf);
        Map<String, String> files = files(conf);

        assertThat(files.get("front-end.conf")).contains("include snippets/front/age-module.conf;")
                .contains("include snippets/front/age-value.conf;", "include snippets/front/age.conf;");
        assertThat(files.get("snippets/front/age-module.conf"))
                .contains("\nload_module " + AgeSource.module() + ";\n");
        assertThat(files.get("snippets/front/age-value.conf"))
                .contains("  HIT         $upstream_cache_age;\n", "  REVALIDATED $upstream_cache_age;\n",
                        "  default     $edge_age_passed;\n")
                .doesNotContain("js_import", "js_set", "$edge_age_from_cache", "$edge_age_from_script");
        assertThat(conf.resolve("njs/age.js")).doesNotExist();
    }

    @Test
    void theNjsAgeImportsItsScriptAndLoadsNoAgeModule() throws IOException {
        Required.that(Files.isRegularFile(NginxRenderer.NJS_MODULE), "njs module not installed (libnginx-mod-http-js)");
        Path conf = TestDirs.fresh(getClass(), "age-njs");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, new StackSwitches().ageSource(AgeSource.NJS).spec(new StackPorts()), conf);
        Map<String, String> files = files(conf);

        assertThat(files).doesNotContainKey("snippets/front/age-module.conf");
        assertThat(files.get("front-end.conf")).contains("include snippets/shared/njs-module.conf;")
                .doesNotContain("age-module.conf");
        assertThat(files.get("snippets/front/age-value.conf"))
                .contains("js_import edge_age from njs/age.js;", "js_set $edge_age_from_cache edge_age.fromCache;",
                        "  HIT         $edge_age_from_script;\n", "map $edge_age_from_cache $edge_age_from_script {")
                .doesNotContain("HIT         $upstream_cache_age");
        assertThat(conf.resolve("njs/age.js")).hasSameBinaryContentAs(Repo.nginxTemplates().resolve("njs/age.js"));
    }

    @Test
    void theScriptsAFileImportsAreCopiedUnchanged() throws IOException {
        Required.that(Files.isRegularFile(NginxRenderer.NJS_MODULE), "njs module not installed (libnginx-mod-http-js)");
        // The balancer runs no script: it only spreads requests over the edges. Age by njs, so that
        // the front imports a script whether or not the native module is built here.
        for (Tier tier : List.of(Tier.FRONT, Tier.BACK)) {
            Path conf = TestDirs.fresh(getClass(), "scripts-" + tier.id());
            new NginxRenderer(Repo.nginxTemplates()).render(tier, new StackSwitches().ageSource(AgeSource.NJS).spec(new StackPorts()), conf);
            java.util.regex.Matcher imports = java.util.regex.Pattern.compile("js_import \\w+ from (njs/[\\w.]+);")
                    .matcher(String.join("\n", files(conf).values()));
            List<String> scripts = new java.util.ArrayList<>();
            while (imports.find()) {
                scripts.add(imports.group(1));
            }

            assertThat(scripts).as(tier.id()).isNotEmpty();
            for (String script : scripts) {
                assertThat(conf.resolve(script)).as(tier.id() + " " + script)
                        .hasSameBinaryContentAs(Repo.nginxTemplates().resolve(script));
            }
        }
    }

    @Test
    void theTemplatesThemselvesStillSayTheyAreTemplates() throws IOException {
        for (Tier tier : Tier.values()) {
            assertThat(Files.readString(Repo.nginxTemplates().resolve(tier.template())))
                    .contains(NginxRenderer.TEMPLATE_NOTE).doesNotContain("Rendered from");
        }
    }

    @Test
    void theReplayLeavesOutTheRequestLinesTheFrontsBufferRefuses() throws IOException {
        // A replay counts a request line over Replay.MAX_REQUEST_LINE_BYTES as one the front answers 414.
        assertThat(Files.readString(Repo.nginxTemplates().resolve("front-end.conf")))
                .contains("include snippets/shared/request-limits.conf;");
        assertThat(Files.readString(Repo.nginxTemplates().resolve("snippets/shared/request-limits.conf")))
                .contains("\nlarge_client_header_buffers 4 " + dev.ratecache.accesslog.Replay.MAX_REQUEST_LINE_BYTES / 1024 + "k;\n");
    }

    @Test
    void theRenderAgainLineRendersTheSameFiles() throws IOException {
        StackPorts ports = new StackPorts();
        Path first = TestDirs.fresh(getClass(), "first");
        Path top = new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, unusual().spec(ports), first);
        String again = Files.readString(top).lines().filter(l -> l.startsWith(AGAIN)).findFirst().orElseThrow();

        RenderFlags parsed = new RenderFlags();
        String[] args = again.substring(AGAIN.length()).trim().split(" ");
        new CommandLine(parsed).parseArgs(args);
        assertThat(parsed.switches.problems()).isEmpty();
        Path second = TestDirs.fresh(getClass(), "second");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, parsed.switches.spec(parsed.ports), second);

        assertThat(Arrays.asList(args)).contains("--no-background-update", "--freshness", "/snail=60",
                "--purge-allow", "127.0.0.1,10.0.0.0/8", "--origin", "http://127.0.0.1:18082");
        assertThat(files(second)).isEqualTo(files(first));
    }

    @Test
    void withTheDefaultsTheRenderAgainLineHasNoFlags() {
        assertThat(NginxRenderer.stamp(new StackSwitches().spec(new StackPorts()))).last().isEqualTo(AGAIN);
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            // The rendered nginx files; njs scripts are copied as they are, not rendered.
            for (Path f : all.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".conf")).toList()) {
                files.put(dir.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return files;
    }
}
