package io.hotrap.ralt;

/**
 * How RALT turns a key's accesses into a hotness score (HotRAP §3.2 and the comparison of §4.7).
 *
 * <p>Every scorer is lazy: a record stores its score as of its last access tick and the real score
 * at a later tick is derived, so nothing has to be rewritten when time passes. Each scorer also
 * defines a <em>normalized rank</em> that orders records exactly as their real scores would at any
 * common instant; RALT compares normalized ranks, which is why a threshold chosen at one eviction
 * stays meaningful until the next one.
 */
public enum Scorer {
  /**
   * Exponential smoothing: every access adds 1, and the score decays by α per tick, so
   * {@code score* = α^(tick_new − tick_old)·score_old + score_new} when two records merge.
   */
  EXPONENTIAL_SMOOTHING,
  /** Recency only: the score is the tick of the last access. */
  LRU,
  /**
   * Multi-bit CLOCK: a saturating counter ({@link #CLOCK_MAX}) incremented by each access and
   * decremented once per tick, as a clock hand sweeping once per tick would.
   */
  CLOCK;

  /** Saturation value of the {@link #CLOCK} counter (a 3-bit counter). */
  public static final int CLOCK_MAX = 7;

  /**
   * Merges the score of an older record into a newer one of the same key.
   *
   * @param olderScore score of the older record, as of {@code olderTick}
   * @param olderTick tick of the older record's last access
   * @param newerScore score of the newer record, as of {@code newerTick}
   * @param newerTick tick of the newer record's last access, {@code >= olderTick}
   * @param logAlpha natural logarithm of α (used by exponential smoothing only)
   */
  float merge(float olderScore, long olderTick, float newerScore, long newerTick, double logAlpha) {
    long age = Math.max(0, newerTick - olderTick);
    switch (this) {
      case EXPONENTIAL_SMOOTHING:
        return (float) (Math.exp(logAlpha * age) * olderScore + newerScore);
      case LRU:
        return newerScore;
      case CLOCK:
        return Math.min(CLOCK_MAX, Math.max(0f, olderScore - age) + newerScore);
      default:
        throw new AssertionError(this);
    }
  }

  /** The score a single access contributes at its own tick. */
  float initialScore() {
    return 1f;
  }

  /**
   * A rank that orders records as their real scores would at any common later tick.
   *
   * <p>Exponential smoothing: {@code ln(score) − tick·ln α} (monotone in the real score
   * {@code α^(now − tick)·score} for every {@code now}). LRU: the tick. CLOCK: {@code counter + tick},
   * exact while counters have not hit zero. The tick may be fractional: ranking by the exact
   * access time breaks the ties that whole ticks would leave among records of equal score.
   */
  double normalizedRank(float score, double tick, double logAlpha) {
    switch (this) {
      case EXPONENTIAL_SMOOTHING:
        return Math.log(Math.max(score, Float.MIN_NORMAL)) - tick * logAlpha;
      case LRU:
        return tick;
      case CLOCK:
        return score + tick;
      default:
        throw new AssertionError(this);
    }
  }

  /** The real score at {@code nowTick} of a record whose score was {@code score} at {@code tick}. */
  double realScore(float score, long tick, long nowTick, double logAlpha) {
    long age = Math.max(0, nowTick - tick);
    switch (this) {
      case EXPONENTIAL_SMOOTHING:
        return Math.exp(logAlpha * age) * score;
      case LRU:
        return tick;
      case CLOCK:
        return Math.max(0, score - age);
      default:
        throw new AssertionError(this);
    }
  }
}
