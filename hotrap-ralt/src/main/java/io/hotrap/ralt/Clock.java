package io.hotrap.ralt;

/**
 * The time arithmetic of one tracker: ticks from the access clock (bytes accessed), the scorer and α,
 * and Algorithm 1's counter unit R. Everything but R is fixed; R is the option's
 * {@code counterDecayPeriodBytes} stretched by {@link #pace} (see {@link Ralt#record(byte[], int,
 * boolean)}). R is read without a lock: an access or merge that sees the previous R is as valid as
 * one that sees the next, since R only sets how long a counter lasts from then on.
 */
final class Clock {
  final Scorer scorer;
  final double logAlpha;
  final long tickPeriodBytes;
  private final double deltaC;
  private final double cMax;
  private final long basePeriodBytes;
  /** R, access-clock bytes. */
  private volatile long counterDecayPeriodBytes;
  /** Δc·R: what one access adds to a counter, in access-clock bytes. */
  volatile long counterIncrementBytes;
  /** c_max·R: the counter's ceiling, in access-clock bytes. */
  volatile long maxCounterBytes;

  Clock(RaltOptions o) {
    this.scorer = o.scorer();
    this.logAlpha = Math.log(o.alpha());
    this.tickPeriodBytes = o.tickPeriodBytes();
    this.deltaC = o.deltaC();
    this.cMax = o.cMax();
    this.basePeriodBytes = o.counterDecayPeriodBytes();
    pace(1);
  }

  /** Sets R to the option's period times {@code stretch} (at least 1). */
  void pace(double stretch) {
    long period = (long) Math.min(Long.MAX_VALUE / 4, basePeriodBytes * Math.max(1, stretch));
    counterIncrementBytes = saturatingMultiply(deltaC, period);
    maxCounterBytes = saturatingMultiply(cMax, period);
    counterDecayPeriodBytes = period;
  }

  /** R as last paced, access-clock bytes. */
  long counterDecayPeriodBytes() {
    return counterDecayPeriodBytes;
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
    r.stableUntil = time + counterIncrementBytes;
    r.tagged = false;
    r.hot = false;
  }

  /** The record's normalized rank, taken at the exact (fractional) tick of its last access. */
  double normalizedRank(AccessRecord r) {
    return scorer.normalizedRank(r.score, (double) r.time / tickPeriodBytes, logAlpha);
  }
}
