package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * examples/client-* are projects of their own, so they cannot read the parent's pins: they name the
 * same versions (the library's, Spring Boot's, HttpClient's, the plugins') so that what they build
 * against is what the suite builds and tests, and they build offline from what the suite's build
 * downloaded.
 */
class ClientExamplesPomTest {
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    @Test
    void theClientsOwnVersionIsTheOneTheParentNames() throws Exception {
        Pom parent = Pom.read(Repo.root().resolve("pom.xml"));
        Pom client = Pom.read(Repo.root().resolve("client/pom.xml"));

        assertThat(client.text("/project/version")).isEqualTo(parent.property("client.version"));
    }

    @Test
    void theMavenExampleNamesTheSuitesVersions() throws Exception {
        Pom parent = Pom.read(Repo.root().resolve("pom.xml"));
        Pom example = Pom.read(Repo.root().resolve("examples/client-maven/pom.xml"));

        assertThat(example.property("ratecache-client.version")).isEqualTo(parent.property("client.version"));
        for (String plugin : new String[] {"maven-resources-plugin", "maven-compiler-plugin", "exec-maven-plugin"}) {
            assertThat(example.pluginVersion(plugin)).as(plugin).isEqualTo(parent.pluginVersion(plugin)).isNotNull();
        }
    }

    @Test
    void theSpringExampleNamesTheSuitesVersions() throws Exception {
        Pom parent = Pom.read(Repo.root().resolve("pom.xml"));
        Pom example = Pom.read(Repo.root().resolve("examples/client-spring/pom.xml"));

        assertThat(example.property("ratecache-client.version")).isEqualTo(parent.property("client.version"));
        for (String property : new String[] {"spring-boot.version", "httpclient5.version", "httpcore5.version"}) {
            assertThat(example.property(property)).as(property).isEqualTo(parent.property(property)).isNotNull();
        }
        for (String plugin : new String[] {"maven-resources-plugin", "maven-compiler-plugin", "spring-boot-maven-plugin"}) {
            assertThat(example.pluginVersion(plugin)).as(plugin).isEqualTo(parent.pluginVersion(plugin)).isNotNull();
        }
    }

    /** A POM's properties and plugin versions, with ${...} resolved from its own properties. */
    private record Pom(Document doc, Map<String, String> properties) {
        static Pom read(Path file) throws Exception {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
            Map<String, String> properties = new HashMap<>();
            Element props = child(doc.getDocumentElement(), "properties");
            if (props != null) {
                NodeList all = props.getChildNodes();
                for (int i = 0; i < all.getLength(); i++) {
                    if (all.item(i) instanceof Element e) {
                        properties.put(e.getTagName(), e.getTextContent().strip());
                    }
                }
            }
            return new Pom(doc, properties);
        }

        String property(String name) {
            return resolve(properties.get(name));
        }

        String text(String path) {
            Element e = doc.getDocumentElement();
            for (String name : path.substring("/project/".length()).split("/")) {
                e = child(e, name);
            }
            return e == null ? null : resolve(e.getTextContent().strip());
        }

        /** The version of the plugin, wherever the POM names one (build plugins or plugin management). */
        String pluginVersion(String artifactId) {
            NodeList plugins = doc.getElementsByTagName("plugin");
            for (int i = 0; i < plugins.getLength(); i++) {
                Element plugin = (Element) plugins.item(i);
                Element id = child(plugin, "artifactId");
                Element version = child(plugin, "version");
                if (id != null && version != null && id.getTextContent().strip().equals(artifactId)) {
                    return resolve(version.getTextContent().strip());
                }
            }
            return null;
        }

        private String resolve(String value) {
            if (value == null) {
                return null;
            }
            Matcher m = PROPERTY.matcher(value);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String v = properties.get(m.group(1));
                m.appendReplacement(out, Matcher.quoteReplacement(v == null ? m.group() : resolve(v)));
            }
            return m.appendTail(out).toString();
        }

        private static Element child(Element parent, String name) {
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(name)) {
                    return e;
                }
            }
            return null;
        }
    }
}
