package io.hotrap.ralt;

import java.util.Arrays;

/**
 * The time arithmetic of one tracker: ticks from the access clock (bytes accessed), the scorer and α,
 * and Algorithm 1's counters, kept on a <em>decay clock</em>.
 *
 * <h2>The decay clock</h2>
 * Algorithm 1 decrements every counter once per R bytes accessed, and R is paced ({@link
 * Ralt#record(byte[], int, boolean)}): it is the option's {@code counterDecayPeriodBytes} stretched
 * by the inverse of the missed share of recent accesses. Counters therefore live on a clock that
 * advances by {@code accessed bytes / stretch}: one base period R₀ of that clock is one decrement of
 * every counter, whatever R was while it passed. A counter is stored as the decay-clock value at which
 * it reaches zero ({@code stableUntil}); an access adds Δc·R₀ to it, c_max·R₀ is its ceiling. When R
 * shrinks — misses come back after a shift of the hotspot — every counter drains faster from then
 * on, as the paper's periodic decrement would drain it; a counter fixed in access-clock bytes at the
 * R of its last access would instead keep an old hotspot stable for c_max times the old, stretched R.
 * With R constant the two are the same, shifted by a constant.
 *
 * <p>The mapping from access clock to decay clock is piecewise linear: {@link #pace} appends a
 * breakpoint (access time, decay time, stretch from then on). At most {@link #MAX_BREAKPOINTS} are
 * kept; an access time older than the oldest kept one is mapped with the largest stretch, which
 * gives a decay time no earlier than the true one. Such a time only enters counters already drained
 * or about to be, and an estimate that is too late can only shorten a counter or miss a tag (a key
 * seen again in time), never lengthen one or invent a tag.
 *
 * <p>Thread-safety: {@link #pace} and {@link #reset} are called by one thread at a time (the
 * recording thread under the tracker's buffer lock, or the opener); everything else reads an
 * immutable timeline through a volatile field and may run on any thread.
 */
final class Clock {
  /** Breakpoints kept for mapping old access times; at least 2 MiB of accesses apart. */
  static final int MAX_BREAKPOINTS = 4096;
  /** A new stretch within this relative distance of the current one adds no breakpoint. */
  private static final double STRETCH_TOLERANCE = 0.01;
  /** Added to the normalized rank of a stable record with at least Δc periods left on its counter. */
  static final double FRESH_STABLE_BONUS = 1e12;

  final Scorer scorer;
  final double logAlpha;
  final long tickPeriodBytes;
  /** Δc·R₀: what one access adds to a counter, decay-clock units. */
  final long counterIncrementBytes;
  /** c_max·R₀: the counter's ceiling, decay-clock units. */
  final long maxCounterBytes;
  private final long basePeriodBytes;
  private final double maxStretch;
  /** R, access-clock bytes. */
  private volatile long counterDecayPeriodBytes;
  private volatile Timeline timeline;

  /** Immutable breakpoints in access-time order; {@code stretch[i]} holds from {@code access[i]} on. */
  private record Timeline(long[] access, double[] decay, double[] stretch) {
    int last() {
      return access.length - 1;
    }
  }

  Clock(RaltOptions o) {
    this.scorer = o.scorer();
    this.logAlpha = Math.log(o.alpha());
    this.tickPeriodBytes = o.tickPeriodBytes();
    this.basePeriodBytes = o.counterDecayPeriodBytes();
    this.maxStretch = Math.max(1, o.maxDecayStretch());
    this.counterIncrementBytes = saturatingMultiply(o.deltaC(), basePeriodBytes);
    this.maxCounterBytes = saturatingMultiply(o.cMax(), basePeriodBytes);
    this.counterDecayPeriodBytes = basePeriodBytes;
    reset(0, 0);
  }

  /**
   * Starts the timeline afresh at access time {@code accessTime}, decay time {@code decayTime}, R at
   * its base: the state a tracker reopens with. Earlier access times map with the largest stretch.
   */
  void reset(long accessTime, long decayTime) {
    counterDecayPeriodBytes = basePeriodBytes;
    timeline = new Timeline(new long[] {accessTime}, new double[] {decayTime}, new double[] {1});
  }

  /**
   * Sets R to the option's period times {@code stretch} (at least 1) from access time
   * {@code accessTime} on; {@code accessTime} must not precede the previous call's.
   */
  void pace(double stretch, long accessTime) {
    double s = Math.min(maxStretch, Math.max(1, stretch));
    long period = (long) Math.min(Long.MAX_VALUE / 4, basePeriodBytes * s);
    Timeline t = timeline;
    int last = t.last();
    double current = t.stretch[last];
    if (accessTime == t.access[last] && s != current) {
      double[] ss = t.stretch.clone();
      ss[last] = s; // nothing after this instant has been mapped yet
      timeline = new Timeline(t.access, t.decay, ss);
    } else if (Math.abs(s - current) > STRETCH_TOLERANCE * current && accessTime > t.access[last]) {
      double d = t.decay[last] + (accessTime - t.access[last]) / current; // unrounded
      int keep = Math.min(t.access.length, MAX_BREAKPOINTS - 1);
      int from = t.access.length - keep;
      long[] a = Arrays.copyOfRange(t.access, from, from + keep + 1);
      double[] dd = Arrays.copyOfRange(t.decay, from, from + keep + 1);
      double[] ss = Arrays.copyOfRange(t.stretch, from, from + keep + 1);
      a[keep] = accessTime;
      dd[keep] = d;
      ss[keep] = s;
      timeline = new Timeline(a, dd, ss);
    }
    counterDecayPeriodBytes = period;
  }

  /** R as last paced, access-clock bytes. */
  long counterDecayPeriodBytes() {
    return counterDecayPeriodBytes;
  }

  /** The decay-clock value at access time {@code accessTime}; non-decreasing in it. */
  long decayAt(long accessTime) {
    Timeline t = timeline;
    int last = t.last();
    if (accessTime >= t.access[last]) {
      return (long) decayOn(t, last, accessTime);
    }
    if (accessTime < t.access[0]) {
      return (long) Math.floor(t.decay[0] - (t.access[0] - accessTime) / maxStretch);
    }
    int i = Arrays.binarySearch(t.access, accessTime);
    if (i < 0) {
      i = -i - 2; // the breakpoint before it
    }
    return (long) decayOn(t, i, accessTime);
  }

  private static double decayOn(Timeline t, int i, long accessTime) {
    return Math.floor(t.decay[i] + (accessTime - t.access[i]) / t.stretch[i]);
  }

  private static long saturatingMultiply(double a, long b) {
    double v = a * b;
    return v >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : (long) v;
  }

  long tick(long time) {
    return time / tickPeriodBytes;
  }

  /** Turns a holder into the record of a single access at access clock {@code time}. */
  void initAccess(AccessRecord r, long time) {
    r.time = time;
    r.score = scorer.initialScore();
    r.stableUntil = decayAt(time) + counterIncrementBytes;
    r.tagged = false;
    r.hot = false;
  }

  /**
   * The rank a threshold compares ({@link HotThreshold}) at decay-clock time {@code decayNow}: the
   * scorer's normalized rank, and for a stable record whose counter still holds at least Δc periods
   * (what one access adds) a bonus above every other stable record. Such a record was read again
   * within the last c_max − Δc periods, or has just become stable. When more records are stable
   * than the hot set holds — an old hotspot draining beside a new one whose counters are full — the
   * records still being read are kept; smoothed scores remember about 1/(1 − α) ticks (a hundred
   * times the fast disk's size in accesses) and by themselves keep the old hotspot until its
   * counters run out. Among fresh stable records, as among the rest, the score decides, so a
   * steady skew (Zipf) keeps its frequency order. The bonus is set when the record is written and
   * re-decided at each merge, as stability is.
   */
  double rank(AccessRecord r, boolean stable, long decayNow) {
    double rank = normalizedRank(r);
    if (stable && r.stableUntil - decayNow >= counterIncrementBytes) {
      rank += FRESH_STABLE_BONUS;
    }
    return rank;
  }

  /** The record's normalized rank, taken at the exact (fractional) tick of its last access. */
  double normalizedRank(AccessRecord r) {
    return scorer.normalizedRank(r.score, (double) r.time / tickPeriodBytes, logAlpha);
  }
}
