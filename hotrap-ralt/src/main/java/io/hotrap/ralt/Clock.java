package io.hotrap.ralt;

/**
 * The time arithmetic of one tracker: ticks from the access clock (bytes accessed), the scorer and α,
 * and Algorithm 1's counter unit. Immutable.
 */
final class Clock {
  final Scorer scorer;
  final double logAlpha;
  final long tickPeriodBytes;
  /** Δc·R: what one access adds to a counter, in access-clock bytes. */
  final long counterIncrementBytes;
  /** c_max·R: the counter's ceiling, in access-clock bytes. */
  final long maxCounterBytes;

  Clock(RaltOptions o) {
    this.scorer = o.scorer();
    this.logAlpha = Math.log(o.alpha());
    this.tickPeriodBytes = o.tickPeriodBytes();
    this.counterIncrementBytes = saturatingMultiply(o.deltaC(), o.counterDecayPeriodBytes());
    this.maxCounterBytes = saturatingMultiply(o.cMax(), o.counterDecayPeriodBytes());
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
