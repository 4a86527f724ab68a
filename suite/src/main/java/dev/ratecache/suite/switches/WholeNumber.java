package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * A flag that takes a whole number from {@code min} to {@code max}. Its check once parsed, and the
 * refusal of a number past what an int holds (which never gets that far: picocli's own converter
 * calls it "not an int"), say the same line, naming the range. Here beside {@link FlagValue}, for
 * the same reason: the tiers' switches are a mixin of several commands.
 *
 * @param unit what the number counts, as the line says it ("seconds"); empty for none
 */
public record WholeNumber(String flag, int min, int max, String unit) {

    public static WholeNumber of(String flag, int min, int max) {
        return new WholeNumber(flag, min, max, "");
    }

    public static WholeNumber of(String flag, int min, int max, String unit) {
        return new WholeNumber(flag, min, max, unit);
    }

    /** The ranges by flag, for {@link Flags#wholeNumbers()}. */
    public static Map<String, WholeNumber> byFlag(WholeNumber... ranges) {
        Map<String, WholeNumber> all = new LinkedHashMap<>();
        for (WholeNumber r : ranges) {
            all.put(r.flag, r);
        }
        return Map.copyOf(all);
    }

    /** The refusal of {@code value} when it is out of range. */
    public Optional<String> problem(int value) {
        return value < min || value > max ? Optional.of(refusal(String.valueOf(value))) : Optional.empty();
    }

    /** Adds the refusal of {@code value} to {@code problems} when it is out of range. */
    public void check(List<String> problems, int value) {
        problem(value).ifPresent(problems::add);
    }

    /** The one line for a value out of range, as given. */
    public String refusal(String value) {
        return flag + " must be a whole number" + (unit.isEmpty() ? "" : " of " + unit) + " from " + min + " to " + max
                + " (got " + value + ")";
    }

    /** What holds whole-number flags (a command, a mixin): the range of each, so that a number past an int is refused naming it. */
    public interface Flags {
        Map<String, WholeNumber> wholeNumbers();
    }

    /** A whole number past what an int holds, refused by {@link Converter}: {@link #refusal(CommandLine.ParameterException)} names the flag's range. */
    public static final class PastInt extends CommandLine.TypeConversionException {
        private static final long serialVersionUID = 1L;
        private final String text;

        PastInt(String text) {
            super("'" + text + "' is past the largest whole number a flag takes (" + Integer.MAX_VALUE + ")");
            this.text = text;
        }
    }

    /** The converter of every int flag (registered for int and Integer on the command line). */
    public static final class Converter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            try {
                return Integer.valueOf(text);
            } catch (NumberFormatException e) {
                if (text.matches("[-+]?\\d+")) {
                    throw new PastInt(text);
                }
                throw new CommandLine.TypeConversionException("'" + Printable.escape(text) + "' is not a whole number");
            }
        }
    }

    /**
     * The line for a bad input that is a number past an int: the flag's range where what holds it
     * declares one ({@link Flags}), else the most an int holds; empty for any other bad input.
     */
    public static Optional<String> refusal(CommandLine.ParameterException e) {
        if (!(e.getCause() instanceof PastInt past) || !(e.getArgSpec() instanceof OptionSpec option)) {
            return Optional.empty();
        }
        String flag = option.longestName();
        WholeNumber range = declared(option, flag).orElse(null);
        if (range != null) {
            return Optional.of(range.refusal(past.text));
        }
        return Optional.of(flag + " must be a whole number " + (past.text.startsWith("-") ? "no less than " + Integer.MIN_VALUE
                : "no more than " + Integer.MAX_VALUE) + " (got " + past.text + ")");
    }

    private static Optional<WholeNumber> declared(OptionSpec option, String flag) {
        try {
            return option.scope().get() instanceof Flags holder ? Optional.ofNullable(holder.wholeNumbers().get(flag))
                    : Optional.empty();
        } catch (Exception e) {
            // A holder that cannot be reached has no range to name: the line names int's.
            return Optional.empty();
        }
    }
}
