package dev.ratecache.suite.predict;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Metric;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * --matrix db's model of its pool sweep: the pool as {@code c} servers, each holding a connection
 * for the origin's service time per query, in front of open arrivals at the flood's rate. A fluid
 * M/M/c past saturation: the pool answers at most {@code c / S} a second; the rest queue, and once
 * the queue is longer than the acquire timeout's worth of answers, each further arrival waits out
 * the timeout and is answered 504 (as the origin does). Below saturation nothing waits long enough
 * for that, and the throughput is the offered rate.
 *
 * <p>The service time per query is the time the cell's requests held their connection, as the
 * origin's pool measured it (Micrometer's hikaricp.connections.usage, in whole milliseconds, its
 * mean over the cell): the query, its round trip to PostgreSQL and the rows read, while the
 * connection is lent. The model has no CPU: on a machine whose cores saturate before the pool does,
 * the measured throughput stays under the model's, whichever the pool, and the report says so.
 *
 * @param servers        the pool's connections
 * @param serviceMs      a query's time holding its connection
 * @param offeredPerS    the flood's rate
 * @param holdS          the seconds the flood holds its rate
 * @param acquireTimeout how long a request waits for a connection before its 504
 */
public record DbPrediction(int servers, double serviceMs, double offeredPerS, double holdS, Duration acquireTimeout) {

    /** What the model leaves to the report's table: the cells on the stress plan, through caches. */
    public static final String GAP = "the model of --matrix db predicts the pool sweep (throughput and 504 share from"
            + " the pool and the query's service time); this cell's caches and closed users are the database section's"
            + " measured comparison, not modelled";

    /** The origin's acquire timeout unless the run says otherwise: the model's default, as the origin's. */
    static final Duration ACQUIRE_TIMEOUT = dev.ratecache.suite.origin.OriginDefaults.get().acquireTimeout();

    /** --matrix db's model: the pool sweep's cells predicted, the others a gap with its reason. */
    public static final Predictor.Model MODEL = DbPrediction::predict;

    static Prediction predict(Predictor.Input in) {
        Cell.Pool pool = in.cell().trait(Cell.Pool.class);
        if (pool == null) {
            return Prediction.gap(GAP);
        }
        if (in.poolHoldMs() == null || in.poolHoldMs() <= 0) {
            return Prediction.gap("the origin's pool measured no time held per query (hikaricp.connections.usage), the"
                    + " model's service time: an origin without the pool's meters, or no query finished");
        }
        double rate = Predictor.count(in.properties(), "rate");
        double hold = Predictor.count(in.properties(), "hold") + Predictor.count(in.properties(), "ramp") / 2.0;
        DbPrediction p = new DbPrediction(pool.size(), in.poolHoldMs(), rate, hold, ACQUIRE_TIMEOUT);
        Map<Metric, Double> values = new LinkedHashMap<>();
        values.put(Metric.THROUGHPUT, p.throughput());
        values.put(Metric.OTHER_ERRORS_PCT, p.timedOutPct());
        return new Prediction(values, null, 0);
    }

    /** The most queries a second the pool answers. */
    public double capacity() {
        return servers * 1000.0 / serviceMs;
    }

    /**
     * Responses a second, 504s included, as the client counts them: every arrival is answered, but a
     * saturated pool's queue (at most the timeout's worth of answers) drains after the last arrival.
     */
    public double throughput() {
        double excess = offeredPerS - capacity();
        if (excess <= 0 || holdS <= 0) {
            return offeredPerS;
        }
        double backlog = Math.min(excess * holdS, capacity() * acquireTimeout.toMillis() / 1000.0);
        return offeredPerS * holdS / (holdS + backlog / capacity());
    }

    /**
     * The share answered 504. The queue grows at offered - capacity a second; a request waits out the
     * timeout once the queue holds more than capacity x timeout, which it does after
     * {@code t* = capacity x timeout / (offered - capacity)} seconds; from then on every excess
     * arrival is a 504.
     */
    public double timedOutPct() {
        double excess = offeredPerS - capacity();
        if (excess <= 0 || holdS <= 0) {
            return 0;
        }
        double full = capacity() * acquireTimeout.toMillis() / 1000.0 / excess;
        return full >= holdS ? 0 : 100 * (holdS - full) / holdS * excess / offeredPerS;
    }
}
