package dev.ratecache.suite.explain;

import java.util.List;
import java.util.Optional;

/**
 * One directive of a user's nginx config as crossplane parsed it, includes spliced in where they
 * stood (as nginx reads them): its name, its arguments unquoted, where it is, and its block.
 *
 * @param name  the directive's name (in a map or geo block, the entry's source value)
 * @param args  its arguments, quotes removed
 * @param file  the file it is in, relative to the main file's folder when below it
 * @param line  its line in that file
 * @param block the directives of its block; null for a directive that ends in ';'
 */
public record Directive(String name, List<String> args, String file, int line, List<Directive> block) {

    public Directive {
        args = List.copyOf(args);
        block = block == null ? null : List.copyOf(block);
    }

    /** file:line, as every line of the explanation names it. */
    public String where() {
        return file + ":" + line;
    }

    /** Its block's directives; none for a simple directive. */
    public List<Directive> children() {
        return block == null ? List.of() : block;
    }

    /** The directives of its block called {@code wanted}, in order. */
    public List<Directive> all(String wanted) {
        return children().stream().filter(d -> d.name.equals(wanted)).toList();
    }

    /** The last directive of its block called {@code wanted} (nginx refuses most duplicates; the last is what counts). */
    public Optional<Directive> last(String wanted) {
        List<Directive> found = all(wanted);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
    }

    /** The argument at {@code i}, or empty when there is none. */
    public String arg(int i) {
        return i < args.size() ? args.get(i) : "";
    }

    /** The directive as written, arguments quoted where nginx would need quotes. */
    public String text() {
        if (name.equals("if")) {
            // crossplane gives the condition without its parentheses.
            return "if (" + String.join(" ", args) + ")";
        }
        StringBuilder s = new StringBuilder(name);
        for (String a : args) {
            if (a.indexOf('\n') >= 0) {
                // A block of code (a *_by_lua_block's, which crossplane gives as one argument): not repeated here.
                s.append(" { ... }");
                continue;
            }
            s.append(' ').append(a.isEmpty() || a.chars().anyMatch(c -> c == ' ' || c == ';' || c == '{' || c == '}')
                    ? "'" + a + "'" : a);
        }
        return s.toString();
    }
}
