package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.Matrix;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** checks.xml: whatever a check or its detail holds, a parser reads back exactly that. */
class JUnitXmlTest {
    private static final Check CHECK = Check.parse("stress/server-cache.rejected_pct < 1",
            Matrix.reference(List.of(dev.ratecache.suite.matrix.Plan.STRESS)));

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void markupQuotesAndLineBreaksInADetailSurviveAParser() throws Exception {
        String detail = "cell stress/server-cache failed: nginx said <emerg> \"bind() to 127.0.0.1:80\" & 'gave up'\n"
                + "second line </failure></testsuite>";
        Check.Outcome failed = new Check.Outcome(CHECK, false, detail);
        Check.Outcome passed = new Check.Outcome(new Check("a<b & \"c\" 'd'", "x", CHECK.metric(), "<", 1), true, "fine");

        Document doc = parse(JUnitXml.of(List.of(failed, passed)));

        Element suite = doc.getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(suite.getAttribute("tests")).isEqualTo("2");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        NodeList cases = suite.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(2);
        assertThat(((Element) cases.item(0)).getAttribute("name")).isEqualTo("stress/server-cache.rejected_pct < 1");
        assertThat(((Element) cases.item(1)).getAttribute("name")).isEqualTo("a<b & \"c\" 'd'");
        assertThat(((Element) cases.item(1)).getElementsByTagName("failure").getLength()).isZero();

        Element failure = (Element) ((Element) cases.item(0)).getElementsByTagName("failure").item(0);
        assertThat(failure.getTextContent()).isEqualTo(detail);
        assertThat(failure.getAttribute("message")).isEqualTo(detail.replace("\n", " "));
    }

    @Test
    void controlCharactersXmlCannotHoldAreReplacedSoTheFileStillParses() throws Exception {
        Check.Outcome failed = new Check.Outcome(CHECK, false, "log said \u0001\u001b[31mred");

        Document doc = parse(JUnitXml.of(List.of(failed)));

        assertThat(doc.getElementsByTagName("failure").item(0).getTextContent()).isEqualTo("log said \uFFFD\uFFFD[31mred");
    }
}
