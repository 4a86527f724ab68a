package dev.ratecache.stats;

/**
 * The busiest sliding window over a series of times: the most times in any window [t, t + width)
 * over every t, not only over clock-aligned ones, so that a burst split across two clock seconds is
 * still seen whole.
 *
 * @param count the most times in one window; 0 when there are none
 * @param start where the first such window starts: the earliest of its times (0 when there are none)
 */
public record BusiestWindow(int count, long start) {

    /**
     * The busiest window of {@code width} over {@code sortedTimes} (ascending, in any unit the
     * width shares).
     *
     * @throws IllegalArgumentException when the times are not in order or the width is not positive
     */
    public static BusiestWindow in(long[] sortedTimes, long width) {
        if (width <= 0) {
            throw new IllegalArgumentException("a window must be wider than 0, not " + width);
        }
        int best = 0;
        long bestStart = 0;
        int first = 0;
        for (int last = 0; last < sortedTimes.length; last++) {
            if (last > 0 && sortedTimes[last] < sortedTimes[last - 1]) {
                throw new IllegalArgumentException("times out of order at index " + last);
            }
            while (sortedTimes[last] - sortedTimes[first] >= width) {
                first++;
            }
            if (last - first + 1 > best) {
                best = last - first + 1;
                bestStart = sortedTimes[first];
            }
        }
        return new BusiestWindow(best, bestStart);
    }
}
