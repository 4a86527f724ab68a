package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wrong input gets one clear line before anything starts, and exit code 2. A unit test: telling
 * input from the flags binds no port and starts no process (the lane's guard would fail it).
 */
class BadInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void unknownFlagIsRefusedNamingIt() {
        assertThat(cli.run("--front-rat", "5")).isEqualTo(2);
        assertThat(cli.err()).startsWith("run-tests.sh: Unknown option")
                .contains("'--front-rat'", "did you mean ").containsPattern("did you mean [^)]*--front-rate\\b");
    }

    /** Each case: what is wrong, the arguments that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.concat(Stream.of(
                refused("reject status other than 429 or 503", List.of("--reject-status", "418"),
                        "--reject-status must be 429 or 503 (got 418)"),
                refused("limit mode other than queue, nodelay or delay=N", List.of("--front-mode", "fast"),
                        "'fast' is not a limit mode: use queue, nodelay or delay=N"),
                refused("two tiers on one port", List.of("--front-port", "18080", "--back-port", "18080"),
                        "--back-port and --front-port are both 18080"),
                refused("origin that is not an http URL with a port", List.of("--origin", "ftp://example"),
                        "Invalid value for option '--origin' (URL): 'ftp://example' is not an http URL with a host and"
                                + " a port: give http://host:port, e.g. http://127.0.0.1:9000"),
                refused("fleet Redis with a password, masked", List.of("--edges", "2", "--fleet-limit", "shared",
                        "--fleet-redis", "secret@127.0.0.1:6379"),
                        "--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379 (got '***@127.0.0.1:6379')"),
                refused("results folder that is a file", List.of("--results", "pom.xml"),
                        "--results pom.xml is a file, not a folder"),
                refused("edge ports fewer than the edges", List.of("--edges", "3", "--edge-ports", "18101,18102"),
                        "--edge-ports gives 2 port(s) for --edges 3: give one per edge, or leave it out"),
                refused("unknown cell, listing the valid ones", List.of("--only", "stress/warp-speed"),
                        "--only names no such cell: stress/warp-speed",
                        "valid cells: stress/no-caching, stress/server-cache"),
                refused("malformed check, showing the form", List.of("--assert", "stress/both rejected_pct is zero"),
                        "malformed check", "CELL.METRIC OP VALUE"),
                refused("check of an unknown metric, listing the metrics", List.of("--assert", "stress/both.speed > 3"),
                        "no such metric 'speed'", "throughput, rejected_pct"),
                refused("unknown profile", List.of("--profile", "fast"),
                        "'fast' is not a profile: use quick, default or full"),
                refused("unknown matrix", List.of("--matrix", "everything"),
                        "'everything' is not a matrix: use default, full, protection, caches, tiers, fleet, quotas, edges, db, attacks or faults"),
                refused("the quotas matrix told one window mode", List.of("--matrix", "quotas", "--quota-window", "fixed",
                        "--quota", "60/10s"), "--matrix quotas runs each window mode with keys of its own: drop"
                                + " --quota-window (--only picks cells)"),
                refused("the quotas matrix through another edge product", List.of("--matrix", "quotas", "--edge",
                        "haproxy"), "--matrix quotas counts each quota in nginx's Lua, which haproxy has not got: drop"
                                + " --edge haproxy"),
                refused("the faults matrix through another edge product", List.of("--matrix", "faults", "--edge",
                        "haproxy"), "--matrix faults reloads nginx and kills its workers: drop --edge haproxy"),
                refused("the faults matrix over several edges", List.of("--matrix", "faults", "--edges", "2"),
                        "--matrix faults strikes one edge: drop --edges 2"),
                refused("the faults matrix without the front limit it reloads", List.of("--matrix", "faults",
                        "--no-front-limit"), "--matrix faults reloads the front limit with another rate: drop"
                                + " --no-front-limit"),
                refused("the db matrix told to run on H2", List.of("--matrix", "db", "--origin-db", "h2"),
                        "--matrix db runs on --origin-db postgres (got 'h2'): drop --origin-db"),
                refused("the db matrix on the user's own origin", List.of("--matrix", "db", "--origin",
                        "http://127.0.0.1:9000"), "--matrix db measures the suite's own origin and its PostgreSQL:"
                                + " drop --origin"),
                refused("limit key of an unknown kind", List.of("--limit-key", "token:abc"),
                        "'token:abc' is not a limit key: use addr, header:NAME, cookie:NAME or arg:NAME"),
                refused("header key without a name", List.of("--limit-key", "header:"), "'header:' is not a limit key"),
                refused("missing-key action other than addr or reject", List.of("--missing-key", "ignore"),
                        "'ignore' is not a missing-key action: use addr or reject"),
                refused("address ceiling that is no rate", List.of("--address-ceiling", "fast"),
                        "'fast' is not an address ceiling: use auto, off or RATE[,BURST]"),
                refused("limit scope other than all or misses", List.of("--limit-scope", "hits"),
                        "'hits' is not a limit scope: use all or misses"),
                refused("allow-list entry that is no network", List.of("--allow", "10.0.0.0/8,10.0.0.300/8"),
                        "--allow takes networks as CIDR, e.g. 10.0.0.0/8 or 2001:db8::/32 (got '10.0.0.300/8')"),
                refused("tiers without a key", List.of("--tiers", "tiers.txt"),
                        "--tiers needs a key to put in tiers: add --limit-key header:NAME, cookie:NAME or arg:NAME"),
                refused("missing-key reject without a key", List.of("--missing-key", "reject"),
                        "--missing-key reject needs a key that can be missing: add --limit-key header:NAME, cookie:NAME"
                                + " or arg:NAME"),
                refused("address ceiling without a key", List.of("--address-ceiling", "30,60"),
                        "--address-ceiling 30,60 needs a key to stand beside (by address the limit is the address's own):"
                                + " add --limit-key header:NAME, cookie:NAME or arg:NAME"),
                refused("address ceiling off without a key", List.of("--address-ceiling", "off"),
                        "--address-ceiling off needs a key to stand beside"),
                refused("tiers file that does not exist", List.of("--limit-key", "header:X-Api-Key", "--tiers", "/nonexistent/tiers.txt"),
                        "--tiers /nonexistent/tiers.txt: the tiers file does not exist"),
                refused("a port that is no TCP port", List.of("--back-status-port", "70000"),
                        "port 70000 is not a TCP port (1-65535): change --back-status-port"),
                refused("number past an int, naming the flag's range", List.of("--front-rate", "99999999999"),
                        "run-tests.sh: --front-rate must be a whole number from 1 to 100000 (got 99999999999)\n"),
                refused("negative number past an int", List.of("--back-burst", "-99999999999"),
                        "run-tests.sh: --back-burst must be a whole number from 0 to 1000000 (got -99999999999)\n"),
                refused("number past an int for a flag of another class", List.of("--origin-threads", "99999999999"),
                        "run-tests.sh: --origin-threads must be a whole number from 1 to 1000 (got 99999999999)\n"),
                refused("number past an int for a flag the command checks", List.of("--repeat", "99999999999"),
                        "run-tests.sh: --repeat must be a whole number from 1 to 100 (got 99999999999)\n"),
                refused("number past an int for a flag with no range of its own", List.of("--freshness", "/hare=99999999999"),
                        "run-tests.sh: --freshness must be a whole number no more than 2147483647 (got 99999999999)\n"),
                refused("number that is no number", List.of("--keepalive", "lots"),
                        "'lots' is not a whole number"),
                // A value's line break or escape sequence, escaped where it is quoted: the refusal stays one line.
                refused("number with a line break in it", List.of("--keepalive", "5\n6"),
                        "run-tests.sh: Invalid value for option '--keepalive': '5\\x0a6' is not a whole number\n"),
                refused("limit mode with an escape sequence and a line break", List.of("--front-mode", "fast\u001b[2J\nqueue"),
                        "run-tests.sh: Invalid value for option '--front-mode': 'fast\\x1b[2J\\x0aqueue' is not a limit mode:"
                                + " use queue, nodelay or delay=N"),
                refused("address ceiling past its largest", List.of("--limit-key", "header:X-Api-Key",
                        "--address-ceiling", "99999999999"),
                        "'99999999999' is not an address ceiling: use auto, off or RATE[,BURST] (RATE a whole number"
                                + " from 1 to 1000000, BURST from 0 to 10000000)"),
                refused("limit scope with the per-client limit off", List.of("--limit-scope", "misses", "--no-front-limit"),
                        "--limit-scope misses chooses which requests cost per-client quota, which --no-front-limit turns"
                                + " off: drop one of them"),
                refused("allow-list network with host bits set", List.of("--allow", "10.1.2.3/8"),
                        "--allow 10.1.2.3/8 has bits set past its /8 prefix, which nginx ignores: did you mean"
                                + " 10.0.0.0/8 (or 10.1.2.3/32 for the one address)?"),
                refused("allow-list IPv6 network with host bits set", List.of("--allow", "2001:db8::1/32"),
                        "did you mean 2001:db8::/32 (or 2001:db8::1/128 for the one address)?"),
                refused("fleet Redis port past 65535", List.of("--edges", "3", "--fleet-limit", "shared",
                        "--fleet-redis", "127.0.0.1:99999"),
                        "--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379"
                                + " (got '127.0.0.1:99999')"),
                refused("an edge product the suite does not know", List.of("--edge", "apache"),
                        "Invalid value for option '--edge': 'apache' is not an edge: use nginx, haproxy, varnish, envoy or traefik"),
                // Only a mode the user gave: the defaults' queue becomes nodelay, said in a note (EdgeDefaultsTest).
                refused("HAProxy asked to queue", List.of("--edge", "haproxy", "--front-mode", "queue"),
                        "HAProxy's rate limit rejects and never queues or delays (--front-mode queue):"
                                + " give --front-mode nodelay, or use --edge nginx"),
                refused("TLS, which Varnish has not", List.of("--edge", "varnish", "--tls",
                        "--front-mode", "nodelay", "--back-mode", "nodelay"),
                        "Varnish cannot terminate TLS: Varnish Cache has no TLS of its own, and its authors put a TLS proxy such as"
                                + " hitch in front of it (https://varnish-cache.org/docs/7.1/phk/ssl_again.html); drop --tls, or use --edge nginx"),
                refused("HAProxy over several edges", List.of("--edge", "haproxy", "--front-mode", "nodelay",
                        "--back-mode", "nodelay", "--edges", "3"),
                        "HAProxy cannot hold one per-client limit across --edges 3: its peers replicate stick-table"
                                + " values, they do not sum them; give --edges 1, or use --edge nginx"),
                refused("the edges matrix told to queue, once per product that cannot",
                        List.of("--matrix", "edges", "--front-mode", "queue"),
                        "HAProxy's rate limit rejects and never queues or delays (--front-mode queue): give"
                                + " --front-mode nodelay, or use --edge nginx",
                        "Varnish's vsthrottle only rejects and never queues or delays (--front-mode queue): give"
                                + " --front-mode nodelay, or use --edge nginx"),
                refused("fleet Redis port 0", List.of("--edges", "3", "--fleet-limit", "shared",
                        "--fleet-redis", "127.0.0.1:0"), "(got '127.0.0.1:0')"),
                refused("a database the origin does not run on", List.of("--origin-db", "mysql"),
                        "Invalid value for option '--origin-db': 'mysql' is not a database: use h2 or postgres"),
                refused("an empty pool", List.of("--db-pool", "0"),
                        "--db-pool must be a whole number of connections from 1 to 100 (got 0)"),
                refused("a pool past PostgreSQL's connections", List.of("--db-pool", "500"),
                        "--db-pool must be a whole number of connections from 1 to 100 (got 500)"),
                refused("an acquire timeout that is no duration", List.of("--db-acquire-timeout", "soon"),
                        "--db-acquire-timeout must be a duration from 250ms to 10m, such as 2s or 500ms (got 'soon')"),
                refused("an acquire timeout Hikari would replace with 30 s", List.of("--db-acquire-timeout", "100ms"),
                        "--db-acquire-timeout must be a duration from 250ms to 10m, such as 2s or 500ms (got '100ms')"),
                refused("an origin delay of no endpoint", List.of("--origin-delay", "rabbit=150ms"),
                        "--origin-delay rabbit=150ms: use ENDPOINT=DURATION with ENDPOINT one of hare, tortoise, snail,"
                                + " e.g. --origin-delay hare=150ms"),
                refused("an origin delay without its endpoint", List.of("--origin-delay", "150ms"),
                        "--origin-delay 150ms: use ENDPOINT=DURATION"),
                refused("an origin delay that is no duration", List.of("--origin-delay", "hare=slow"),
                        "--origin-delay hare=slow: the delay must be a duration from 0 to 1m in whole milliseconds,"
                                + " such as 150ms or 2s"),
                refused("an origin delay past a minute", List.of("--origin-delay", "snail=2m"),
                        "--origin-delay snail=2m: the delay must be a duration from 0 to 1m"),
                refused("the suite's origin's delay with a user's origin", List.of("--origin", "http://127.0.0.1:9000",
                        "--origin-delay", "hare=150ms"),
                        "--origin-delay sets the suite's own origin; your origin (--origin) keeps its own delays: drop"
                                + " --origin, or --origin-delay"),
                refused("the suite's database with a user's origin", List.of("--origin", "http://127.0.0.1:9000",
                        "--origin-db", "postgres"),
                        "--origin-db, --db-pool and --db-acquire-timeout set the suite's own origin's database: drop"
                                + " --origin, or them")), RefusedRows.origins());
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said) {
        assertThat(cli.run(args.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said).doesNotContain("Exception");
    }

    @Test
    void aPasswordInTheOriginNeverReachesTheTerminal() {
        assertThat(cli.run("--origin", "http://user:secret@127.0.0.1:9000")).isEqualTo(2);
        assertThat(cli.err()).contains("http://user:***@127.0.0.1:9000");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
        // Nor through a URL that is no URL, nor a command that has no --origin, which picocli quotes whole.
        assertThat(cli.run("--origin", "http://user:secret@127.0.0.1:9000;}")).isEqualTo(2);
        assertThat(cli.run("advise", "access.log", "--origin", "http://secret@127.0.0.1:9000")).isEqualTo(2);
        assertThat(cli.err()).contains("'http://***@127.0.0.1:9000'");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
    }

    @Test
    void aPasswordForTheFleetsRedisNeverReachesTheTerminal() {
        assertThat(cli.run("--edges", "2", "--fleet-limit", "shared", "--fleet-redis", ":secret@127.0.0.1:6379"))
                .isEqualTo(2);
        assertThat(cli.run("--edges", "2", "--fleet-limit", "shared", "--fleet-redis", "redis://:secret@127.0.0.1:6379"))
                .isEqualTo(2);
        assertThat(cli.err()).contains("(got '***@127.0.0.1:6379')");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
    }

    @Test
    void malformedTiersFileIsRefusedInOneLineWithItsLineNumberBeforeAnythingStarts(org.junit.jupiter.api.TestInfo test)
            throws Exception {
        java.nio.file.Path tiers = dev.ratecache.testkit.TestDirs.fresh(test).resolve("tiers.txt");
        java.nio.file.Files.writeString(tiers, "# plans\nfree 1 2 nodelay a,b\npro ten 20 queue c\n");

        assertThat(cli.run("--limit-key", "header:X-Api-Key", "--tiers", tiers.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--tiers " + tiers + ":3: rate 'ten' must be a whole number of requests/s from 1 to 100000");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void nonNumericPlanPropertyIsRefusedBeforeAnythingStarts() {
        assertThat(cli.run("-Jusers=abc")).isEqualTo(2);
        assertThat(cli.err()).contains("-Jusers=abc: users must be a whole number");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void helpListsEveryFlag() {
        assertThat(cli.run("--help")).isZero();
        assertThat(cli.out()).contains("--front-port", "--back-port", "--origin-threads", "--no-cache",
                "--front-rate", "--reject-status", "--origin", "-J=NAME=VALUE", "--matrix", "--only", "--plan",
                "--profile", "--repeat", "--assert", "--assert-file");
    }

    @Test
    void helpListsTheValuesOfEveryChoice() {
        assertThat(cli.run("--help")).isZero();
        assertThat(cli.out().replaceAll("\\s+", " ")).contains(
                "--matrix=KIND default, full, protection, caches, tiers, fleet, quotas, edges, db, attacks, faults.",
                "--edge=PRODUCT nginx, haproxy, varnish, envoy, traefik.", "--profile=PROFILE quick, default, full.",
                "--app-cache=MODE redis, off.", "--origin-db=DB h2, postgres.");
    }

    @Test
    void aChoiceIsTakenInAnyCase() {
        assertThat(cli.run("--profile", "QUICK", "--matrix", "Full", "--only", "stress/warp-speed")).isEqualTo(2);
        assertThat(cli.err()).contains("--only names no such cell: stress/warp-speed")
                .doesNotContain("profile", "matrix");
    }

    @Test
    void aMatrixLeftEmptyByTheSwitchesNamesOnlyTheSwitchesGiven() {
        // The caches matrix runs with rate limits off: a front limit leaves none of its cells.
        assertThat(cli.run("--matrix", "caches", "--front-limit")).isEqualTo(2);
        assertThat(cli.err()).contains("run-tests.sh: no cell of --matrix caches matches --front-limit:"
                + " drop one of them or use --only");
    }
}
