package io.hotrap.bench.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Get latencies of a run, per sampling interval and in total, from 1 µs to 60 s at three
 * significant digits (a reported percentile is within 0.1% of the true value).
 *
 * <p>Threads: any number of threads call {@link #recordNanos} concurrently without a lock
 * (HdrHistogram's {@link Recorder} is wait-free for writers). {@link #interval} swaps the
 * recorder's active histogram for an empty one, so every value lands in exactly one interval, even
 * one recorded during the swap; it and the total queries lock this object, so one sampler thread
 * and readers of the total may run alongside the writers.
 */
public final class LatencyRecorder {

  /**
   * HdrHistogram's lowest discernible value. Its resolution below {@code 2048 × lowest} is the
   * lowest value itself, so keeping three digits at 1 µs takes a 1 ns lowest; the histograms are
   * about 220 KiB each, four per recorder.
   */
  static final long LOWEST_DISCERNIBLE_NANOS = 1;
  /** Highest latency recorded as itself: 60 s. Longer ones are recorded as 60 s. */
  static final long HIGHEST_NANOS = 60_000_000_000L;
  static final int SIGNIFICANT_DIGITS = 3;

  private final Recorder recorder =
      new Recorder(LOWEST_DISCERNIBLE_NANOS, HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  private final Histogram total =
      new Histogram(LOWEST_DISCERNIBLE_NANOS, HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  private Histogram recycled; // guarded by this

  /** The latencies of one interval; the percentiles are NaN when it recorded nothing. */
  public record Interval(long count, double p50Micros, double p99Micros) {}

  /** Records one latency; negative values count as 0, values beyond 60 s as 60 s. */
  public void recordNanos(long nanos) {
    recorder.recordValue(Math.max(0, Math.min(nanos, HIGHEST_NANOS)));
  }

  /**
   * Returns the latencies recorded since the previous call (or since construction) and adds them
   * to the total.
   */
  public synchronized Interval interval() {
    recycled = recorder.getIntervalHistogram(recycled);
    total.add(recycled);
    long count = recycled.getTotalCount();
    if (count == 0) {
      return new Interval(0, Double.NaN, Double.NaN);
    }
    return new Interval(count, micros(recycled, 50), micros(recycled, 99));
  }

  /**
   * The {@code percentile} (0 to 100) of all latencies handed out by {@link #interval} so far, in
   * microseconds; NaN when there are none. Values recorded after the last interval are not
   * included: call {@link #interval} first.
   */
  public synchronized double totalPercentileMicros(double percentile) {
    if (percentile < 0 || percentile > 100) {
      throw new IllegalArgumentException("percentile must be in [0, 100] but was " + percentile);
    }
    return total.getTotalCount() == 0 ? Double.NaN : micros(total, percentile);
  }

  /** The number of latencies handed out by {@link #interval} so far. */
  public synchronized long totalCount() {
    return total.getTotalCount();
  }

  private static double micros(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1000.0;
  }
}
