package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.explain.Directive;
import org.junit.jupiter.api.Test;

/** nginx's location search (ngx_http_core_find_location), path by path. */
class LocationMatchTest {
    /** The location that answers {@code uri} in a server of {@code locations}, as written; "(server)" for none. */
    static String answer(String locations, String uri) {
        Directive server = ConfText.parse("server { listen 80; " + locations + " }").get(0);
        LocationMatch.Match m = LocationMatch.of(server).match(uri);
        assertThat(m.known()).as(m.unreadable()).isTrue();
        return m.location().map(d -> String.join(" ", d.args())).orElse("(server)");
    }

    @Test
    void anExactLocationAnswersOnlyItsOwnPathAndBeatsEveryOther() {
        String locations = "location / {} location = /login {} location ~ ^/log {}";

        assertThat(answer(locations, "/login")).isEqualTo("= /login");
        assertThat(answer(locations, "/login/again")).isEqualTo("~ ^/log");
        assertThat(answer(locations, "/other")).isEqualTo("/");
    }

    @Test
    void theLongestPrefixAnswersWhateverTheOrderWritten() {
        String locations = "location /api/ {} location /api/v2/ {} location / {}";

        assertThat(answer(locations, "/api/v2/users")).isEqualTo("/api/v2/");
        assertThat(answer(locations, "/api/v1/users")).isEqualTo("/api/");
    }

    @Test
    void aRegexThatMatchesBeatsTheLongestPrefix() {
        assertThat(answer("location /static/ {} location ~ \\.php$ {}", "/static/x.php")).isEqualTo("~ \\.php$");
    }

    @Test
    void aCaretTildePrefixStopsTheRegexSearch() {
        assertThat(answer("location ^~ /static/ {} location ~ \\.php$ {}", "/static/x.php")).isEqualTo("^~ /static/");
    }

    @Test
    void regexesAreTriedInTheOrderWrittenAndTheFirstThatMatchesAnswers() {
        String locations = "location ~ ^/a {} location ~ ^/ab {}";

        assertThat(answer(locations, "/abc")).isEqualTo("~ ^/a");
    }

    @Test
    void aTildeStarRegexIgnoresCaseAndATildeRegexDoesNot() {
        assertThat(answer("location / {} location ~ \\.JPG$ {}", "/x.jpg")).isEqualTo("/");
        assertThat(answer("location / {} location ~* \\.JPG$ {}", "/x.jpg")).isEqualTo("~* \\.JPG$");
    }

    @Test
    void nestedLocationsAreSearchedInsideThePrefixThatHoldsThem() {
        String locations = "location /api/ { location /api/admin/ {} location ~ \\.json$ {} } location ~ ^/api/oth {}";

        assertThat(answer(locations, "/api/admin/users")).isEqualTo("/api/admin/");
        assertThat(answer(locations, "/api/x.json")).isEqualTo("~ \\.json$");
        // Unless the prefix is ^~, the server's regexes are tried after the nested search found only a prefix.
        assertThat(answer(locations, "/api/other")).isEqualTo("~ ^/api/oth");
        assertThat(answer(locations, "/api/plain")).isEqualTo("/api/");
    }

    @Test
    void aPathNoLocationMatchesIsAnsweredByTheServer() {
        assertThat(answer("location /api/ {}", "/elsewhere")).isEqualTo("(server)");
    }

    @Test
    void theQueryIsIgnoredEscapesDecodedAndSlashesMerged() {
        String locations = "location / {} location = /api/items {}";

        assertThat(answer(locations, "/api/items?page=2")).isEqualTo("= /api/items");
        assertThat(answer(locations, "/api%2Fitems")).isEqualTo("= /api/items");
        assertThat(answer(locations, "//api//items")).isEqualTo("= /api/items");
    }

    @Test
    void aModifierWrittenAgainstItsPathIsReadAsNginxReadsIt() {
        assertThat(answer("location / {} location =/login {}", "/login")).isEqualTo("=/login");
    }

    @Test
    void aRegexJavaCannotReadIsNamedAndThePathsThatReachItAreNotMatched() {
        Directive server = ConfText.parse("server { location = /exact {} location / {} location ~ ^/x\\Ky {} }").get(0);
        LocationMatch search = LocationMatch.of(server);

        assertThat(search.unreadable()).hasSize(1);
        assertThat(search.match("/x1").known()).isFalse();
        assertThat(search.match("/x1").unreadable()).contains("~ ^/x\\Ky", "nginx.conf:1");
        // An exact match never reaches the regexes.
        assertThat(search.match("/exact").known()).isTrue();
    }
}
