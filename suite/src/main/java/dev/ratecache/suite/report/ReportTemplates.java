package dev.ratecache.suite.report;

import com.samskivert.mustache.Escapers;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The report's Mustache templates (resources/report/NAME.mustache), each escaped for what it writes. */
final class ReportTemplates {
    /** HTML: every {{value}} escaped, so no text of a cell or a check becomes markup. */
    private static final Mustache.Compiler HTML = Mustache.compiler();
    /** Markdown: a '|' would end a table cell and a line break the row. */
    private static final Mustache.Compiler MARKDOWN = Mustache.compiler()
            .withEscaper(Escapers.simple(new String[] {"|", "\\|"}, new String[] {"\r\n", " "}, new String[] {"\n", " "}));
    private static final Mustache.Compiler TEXT = Mustache.compiler().escapeHTML(false);

    private ReportTemplates() {}

    static Template html(String name) {
        return load(HTML, name);
    }

    static Template markdown(String name) {
        return load(MARKDOWN, name);
    }

    static Template text(String name) {
        return load(TEXT, name);
    }

    private static Template load(Mustache.Compiler compiler, String name) {
        String resource = "report/" + name + ".mustache";
        try (InputStream in = ReportTemplates.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path");
            }
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return compiler.compile(reader);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
