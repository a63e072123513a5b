package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Measured durations in nanoseconds, with their median and percentiles. */
public final class Samples {

  private final List<Long> nanos = new ArrayList<>();

  public void add(long value) {
    nanos.add(value);
  }

  public int count() {
    return nanos.size();
  }

  /** The value at quantile {@code q} (0..1), nearest rank. */
  public long quantile(double q) {
    if (nanos.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  public long median() {
    return quantile(0.5);
  }

  public double medianMillis() {
    return median() / 1e6;
  }

  public double p90Millis() {
    return quantile(0.9) / 1e6;
  }

  /** A table row: {@code name}, then p50, p90 and p99 in units of {@code unitNanos}. */
  public String row(String name, double unitNanos) {
    return String.format(
        "%-48s %9.1f %9.1f %9.1f",
        name, median() / unitNanos, quantile(0.9) / unitNanos, quantile(0.99) / unitNanos);
  }

  /** {@code "name": {"p50", "p90", "p99"}} in units of {@code unitNanos}, into {@code node}. */
  public void putInto(ObjectNode node, String name, double unitNanos) {
    node.putObject(name)
        .put("p50", median() / unitNanos)
        .put("p90", quantile(0.9) / unitNanos)
        .put("p99", quantile(0.99) / unitNanos);
  }
}
