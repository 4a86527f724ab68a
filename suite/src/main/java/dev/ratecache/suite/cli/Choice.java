package dev.ratecache.suite.cli;

import dev.ratecache.suite.matrix.Profile;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * An option whose value is one of an enum's, spelled as --help lists them (their toString, which
 * ${COMPLETION-CANDIDATES} shows) in any case. A bad value is refused in one line with the accepted
 * ones, as picocli's own converter would, but in the spelling the user types rather than the
 * constants' names.
 */
final class Choice<E extends Enum<E>> implements CommandLine.ITypeConverter<E> {
    private final Class<E> type;
    private final String what;

    private Choice(Class<E> type, String what) {
        this.type = type;
        this.what = what;
    }

    /** The command line's enum options, for {@code cli} and every subcommand it has. */
    static void registerAll(CommandLine cli) {
        cli.registerConverter(Profile.class, new Choice<>(Profile.class, "a profile"));
        cli.registerConverter(MatrixKind.class, new Choice<>(MatrixKind.class, "a matrix"));
        cli.registerConverter(AppCacheMode.class, new Choice<>(AppCacheMode.class, "an app cache mode"));
    }

    @Override
    public E convert(String value) {
        for (E choice : type.getEnumConstants()) {
            if (choice.toString().equalsIgnoreCase(value.trim())) {
                return choice;
            }
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not " + what + ": use " + accepted());
    }

    /** "a, b or c". */
    private String accepted() {
        List<String> names = Arrays.stream(type.getEnumConstants()).map(Object::toString).toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
