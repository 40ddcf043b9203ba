package io.hotrap.ralt;

/**
 * Algorithm 1 of HotRAP (§3.7), the auto-tuning of RALT's limits after an eviction: the hot-set
 * limit follows the stable records' hot bytes plus room for records not yet stable, within
 * [L_hs, R_hs]; the physical limit follows the hot set. The paper's room is a constant D_hs; here
 * it is at most D_hs: a share of the stable bytes ({@link RaltOptions#unstableShareOfStable()}),
 * or more while the stable set grows, so that the limit follows a small steady hotspot within a
 * quarter of its size instead of overshooting it by D_hs, and a growing hot set is still learnt
 * at the paper's pace. Pure: it reads what the eviction kept
 * ({@link RunMerger.EvictionTotals}) and returns the new limits.
 *
 * <p>The physical limit leaves room for the records of a full hot set and as much again for
 * candidates ({@value #CANDIDATE_FACTOR}×). The records beyond the stable ones are the window in
 * which a key must be seen twice to become stable. Under uniform access over N keys, stable records
 * appear at a rate of window/N per access and live up to c_max·R accesses; when N is only a few
 * times R (measured: 1M keys of 1 KiB against R = 140 MiB) chance repeats then sustain a large
 * stable set, and a narrower window (1.1× as in the official simulation) was measured to detect a
 * new 5% hotspot too slowly (limit 25% short after 8 periods). Twice the hot set keeps both within
 * bounds when the uniform data set is well beyond R.
 */
final class HotSetTuner {
  /** Physical limit as a multiple of the physical bytes of a full hot set. */
  static final double CANDIDATE_FACTOR = 2.0;
  /** Room for unstable records per byte the stable set grew over the last decay period. */
  static final double ROOM_PER_GROWTH = 2.0;

  private HotSetTuner() {}

  /** The hot-set limit and the physical limit, bytes. */
  record Limits(long hotSetLimit, long physicalLimit) {}

  static Limits retune(RaltOptions options, RunMerger.EvictionTotals kept, long stableGrowth) {
    long hot = kept.stableHotBytes + unstableRoom(options, kept.stableHotBytes, stableGrowth);
    hot = Math.max(options.minHotSetLimit(), Math.min(options.maxHotSetLimit(), hot));
    double physicalPerHot = kept.keptHotBytes == 0
        ? options.physicalToHotRatio() : (double) kept.keptRecordBytes / kept.keptHotBytes;
    long physical = Math.max(options.segmentBytes(),
        (long) Math.min(Long.MAX_VALUE / 4, hot * CANDIDATE_FACTOR * physicalPerHot));
    return new Limits(hot, physical);
  }

  /**
   * Room for unstable records: a share of the stable bytes or twice what the stable set grew over
   * the last decay period, the larger, at most D_hs. A growing hot set (a Zipf tail being learnt, a
   * hotspot that widens) finds its new keys among the unstable records, so it gets the paper's
   * room; a steady one needs only enough that an eviction does not cut into it. An infinite share
   * is the paper's D_hs even with no stable bytes (∞·0 is NaN, which is not below D_hs).
   */
  static long unstableRoom(RaltOptions options, long stableHotBytes, long stableGrowth) {
    double room = Math.max(options.unstableShareOfStable() * stableHotBytes,
        ROOM_PER_GROWTH * stableGrowth);
    return room < options.maxUnstableHotBytes() ? (long) room : options.maxUnstableHotBytes();
  }
}
