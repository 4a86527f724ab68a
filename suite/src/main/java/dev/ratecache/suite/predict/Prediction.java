package dev.ratecache.suite.predict;

import dev.ratecache.suite.matrix.Metric;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the model says one cell should measure, or why it says nothing.
 *
 * @param values     predicted figures by metric (those of {@link Predictor#METRICS} that apply); empty with a gap
 * @param gap        null when predicted; otherwise the sentence naming what the model lacks for this
 *                   cell, e.g. "the model does not include JMeter's client cache"
 * @param overheadMs the round-trip overhead per request the prediction used (the client's and the
 *                   network's cost, which the model has no other way to know)
 */
public record Prediction(Map<Metric, Double> values, String gap, long overheadMs) {

    public Prediction {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    static Prediction gap(String reason) {
        return new Prediction(Map.of(), reason, 0);
    }

    public boolean predicted() {
        return gap == null;
    }

    public Double value(Metric metric) {
        return values.get(metric);
    }
}
