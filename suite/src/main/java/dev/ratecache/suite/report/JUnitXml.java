package dev.ratecache.suite.report;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The --assert checks as JUnit XML (checks.xml), for CI systems: one testcase per check. Written
 * by the JDK's StAX writer, which escapes markup in names and details.
 */
public final class JUnitXml {
    private JUnitXml() {}

    public static void write(List<Check.Outcome> outcomes, Path file) throws IOException {
        Files.writeString(file, of(outcomes), StandardCharsets.UTF_8);
    }

    /** The document, declared UTF-8 (as {@link #write} writes it). */
    public static String of(List<Check.Outcome> outcomes) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", "run-tests.sh checks");
            xml.writeAttribute("tests", String.valueOf(outcomes.size()));
            xml.writeAttribute("failures", String.valueOf(outcomes.stream().filter(o -> !o.passed()).count()));
            xml.writeAttribute("errors", "0");
            xml.writeAttribute("skipped", "0");
            for (Check.Outcome o : outcomes) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", "run-tests.sh");
                xml.writeAttribute("name", xmlText(o.check().text()));
                if (!o.passed()) {
                    xml.writeCharacters("\n    ");
                    xml.writeStartElement("failure");
                    // A parser folds line breaks in an attribute into spaces, so the message is written
                    // on one line, and the element's text keeps the detail as it is.
                    xml.writeAttribute("message", xmlText(o.detail()).replaceAll("\\s*\\R\\s*", " "));
                    xml.writeCharacters(xmlText(o.detail()));
                    xml.writeEndElement();
                    xml.writeCharacters("\n  ");
                }
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("StAX refused the checks: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /** Without the characters XML 1.0 cannot hold even escaped (control characters from a crashed process' output). */
    static String xmlText(String s) {
        return s.replaceAll("[^\\x09\\x0A\\x0D\\x20-\\uD7FF\\uE000-\\uFFFD\\x{10000}-\\x{10FFFF}]", "\uFFFD");
    }
}
