package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-address limit kept beside a key limit ({@code --address-ceiling}). A key is something the
 * client chooses, so a client could rotate keys to get a fresh bucket each time; the ceiling bounds
 * what one address sends whatever keys it uses. {@code auto} (the default) is ten times the most
 * generous tier, so ten clients behind one NAT address each get their whole quota; {@code off}
 * turns it off.
 */
public record AddressCeiling(Kind kind, int rate, int burst) {
    public enum Kind { AUTO, OFF, SET }

    /** How many keys' worth an address may send under auto. */
    public static final int AUTO_FACTOR = 10;
    /** The largest ceiling: what auto makes of the most generous tier there can be. */
    static final int MAX_RATE = AUTO_FACTOR * LimitTier.MAX_RATE;
    static final int MAX_BURST = AUTO_FACTOR * LimitTier.MAX_BURST;
    public static final String ACCEPTED = "auto, off or RATE[,BURST] (RATE a whole number from 1 to " + MAX_RATE
            + ", BURST from 0 to " + MAX_BURST + ")";
    public static final AddressCeiling AUTO = new AddressCeiling(Kind.AUTO, 0, 0);
    public static final AddressCeiling OFF = new AddressCeiling(Kind.OFF, 0, 0);
    private static final Pattern SET = Pattern.compile("(\\d{1,9})(?:,(\\d{1,9}))?");

    public static AddressCeiling parse(String text) {
        String t = text.trim().toLowerCase();
        if (t.equals("auto")) {
            return AUTO;
        }
        if (t.equals("off")) {
            return OFF;
        }
        Matcher m = SET.matcher(t);
        if (m.matches() && Integer.parseInt(m.group(1)) >= 1 && Integer.parseInt(m.group(1)) <= MAX_RATE
                && (m.group(2) == null || Integer.parseInt(m.group(2)) <= MAX_BURST)) {
            int rate = Integer.parseInt(m.group(1));
            // Without a burst, the front end's default shape: twice the rate.
            return new AddressCeiling(Kind.SET, rate, m.group(2) == null ? 2 * rate : Integer.parseInt(m.group(2)));
        }
        throw new IllegalArgumentException("'" + Printable.escape(text) + "' is not an address ceiling: use " + ACCEPTED);
    }

    /**
     * The rate and burst in force, {@code auto} resolved against the most generous of {@code tiers}
     * (the tiers in force, anonymous included: {@link StackSwitches#tiersInForce}).
     */
    AddressCeiling resolved(java.util.List<LimitTier> tiers) {
        int highestRate = tiers.stream().mapToInt(LimitTier::rate).max().orElse(0);
        int highestBurst = tiers.stream().mapToInt(LimitTier::burst).max().orElse(0);
        return kind == Kind.AUTO ? new AddressCeiling(Kind.SET, AUTO_FACTOR * highestRate, AUTO_FACTOR * highestBurst) : this;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case AUTO -> "auto";
            case OFF -> "off";
            case SET -> rate + "," + burst;
        };
    }
}
