package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * A picocli converter for a flag's value: a bad value is refused in one line, the parser's own,
 * which says what is accepted. Here rather than in the command line's package because the tiers'
 * switches ({@link StackSwitches}) are a mixin of several commands and name no package above them.
 */
public class FlagValue<T> implements CommandLine.ITypeConverter<T> {
    private final Function<String, T> parse;

    /** @param parse the value from its text; throws IllegalArgumentException, naming what is accepted, for a bad one */
    public FlagValue(Function<String, T> parse) {
        this.parse = parse;
    }

    /** A converter to one of an enum's values, as {@link #choose} reads them. */
    public static <E extends Enum<E>> FlagValue<E> oneOf(Class<E> type, String what) {
        return new FlagValue<>(text -> choose(type, what, text));
    }

    /**
     * One of an enum's values, spelled as --help lists them (their toString, which
     * ${COMPLETION-CANDIDATES} shows) in any case, rather than as the constants' names.
     *
     * @param what the value's kind with its article, for the error: "a stale mode"
     * @throws IllegalArgumentException "'x' is not a stale mode: use rfc or protective"
     */
    public static <E extends Enum<E>> E choose(Class<E> type, String what, String text) {
        for (E choice : type.getEnumConstants()) {
            if (choice.toString().equalsIgnoreCase(text.trim())) {
                return choice;
            }
        }
        List<String> names = Arrays.stream(type.getEnumConstants()).map(Object::toString).toList();
        throw new IllegalArgumentException("'" + Printable.escape(text) + "' is not " + what + ": use "
                + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
    }

    @Override
    public T convert(String value) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
