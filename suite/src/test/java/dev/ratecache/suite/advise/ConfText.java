package dev.ratecache.suite.advise;

import dev.ratecache.suite.explain.Directive;
import java.util.ArrayList;
import java.util.List;

/**
 * A config written in a test, read into directives as crossplane would give them (each with its
 * line in "nginx.conf"), so that the unit lane tests the what-if without starting crossplane. Only
 * what the tests write: words, quoted words, ';', '{' and '}'.
 */
final class ConfText {
    private final String text;
    private int at;
    private int line = 1;

    private ConfText(String text) {
        this.text = text;
    }

    static List<Directive> parse(String text) {
        ConfText c = new ConfText(text);
        return c.block();
    }

    private List<Directive> block() {
        List<Directive> out = new ArrayList<>();
        while (true) {
            String word = word();
            if (word == null || word.equals("}")) {
                return out;
            }
            int startLine = line;
            List<String> args = new ArrayList<>();
            String w;
            while (!(w = word()).equals(";") && !w.equals("{")) {
                args.add(w);
            }
            out.add(new Directive(word, args, "nginx.conf", startLine, w.equals("{") ? block() : null));
        }
    }

    private String word() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            line += text.charAt(at++) == '\n' ? 1 : 0;
        }
        if (at >= text.length()) {
            return null;
        }
        char c = text.charAt(at);
        if (c == ';' || c == '{' || c == '}') {
            at++;
            return String.valueOf(c);
        }
        if (c == '"' || c == '\'') {
            int end = text.indexOf(c, at + 1);
            String w = text.substring(at + 1, end);
            at = end + 1;
            return w;
        }
        int start = at;
        while (at < text.length() && !Character.isWhitespace(text.charAt(at)) && ";{}".indexOf(text.charAt(at)) < 0) {
            at++;
        }
        return text.substring(start, at);
    }
}
