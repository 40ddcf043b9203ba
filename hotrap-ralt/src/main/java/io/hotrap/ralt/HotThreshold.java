package io.hotrap.ralt;

/**
 * The boundary of the hot set (or of what an eviction keeps) as a rank: stable records rank above
 * all unstable ones (the official HotRAP code adds a large constant to stable scores), and within
 * each class the scorer's normalized rank decides — with stable records read again recently (their
 * counters still hold Δc periods) above the other stable ones ({@link Clock#rank}). Immutable.
 *
 * <p>Because normalized ranks are invariant under decay, a threshold chosen at one eviction keeps
 * selecting the same records until their scores or stability change.
 */
record HotThreshold(boolean stable, double rank) {
  /** Admits every stable record and no unstable one: the rule until the first eviction. */
  static final HotThreshold STABLE_ONLY = new HotThreshold(true, Double.NEGATIVE_INFINITY);
  /** Admits every record. */
  static final HotThreshold ALL = new HotThreshold(false, Double.NEGATIVE_INFINITY);

  boolean admits(boolean recordStable, double recordRank) {
    if (recordStable != stable) {
      return recordStable;
    }
    return recordRank >= rank;
  }

  /** The stricter of two thresholds. */
  HotThreshold max(HotThreshold o) {
    if (stable != o.stable) {
      return stable ? this : o;
    }
    return rank >= o.rank ? this : o;
  }

  static int compareRank(boolean s1, double r1, boolean s2, double r2) {
    if (s1 != s2) {
      return s1 ? 1 : -1;
    }
    return Double.compare(r1, r2);
  }
}
