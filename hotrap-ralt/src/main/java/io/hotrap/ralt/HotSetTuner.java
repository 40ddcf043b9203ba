package io.hotrap.ralt;

/**
 * Algorithm 1 of HotRAP (§3.7), the auto-tuning of RALT's limits after an eviction: the hot-set
 * limit follows the stable records' hot bytes plus room for records not yet stable, within
 * [L_hs, R_hs]; the physical limit follows the hot set. The paper's room is a constant D_hs. Here
 * a steady stable set gets a share of its bytes ({@link RaltOptions#unstableShareOfStable()}), at
 * most D_hs, so that the limit follows a small steady hotspot within a quarter of its size instead
 * of overshooting it by D_hs; a growing one gets twice its growth per decay period, which may
 * exceed D_hs, so that a large hot set is learnt at the pace its accesses allow rather than D_hs
 * per period. Pure: it reads what the eviction kept ({@link RunMerger.EvictionTotals}) and returns
 * the new limits.
 *
 * <p>Why the growth term is not capped at D_hs: new stable records are found in the window of
 * tracked records beyond the stable ones, and the window is sized from the limit, so a room of
 * D_hs lets the stable set grow by about D_hs per period and no more. Measured with RALT alone
 * learning Zipf 0.99 from empty ({@code hotrap-bench ralt-zipf}, 14.8M records of 200 B, 256 MiB
 * fast disk, a decay period of 3.75M accesses): capped, the stable set grew 17.9 MiB per period,
 * D_hs itself, and the limit was at 103 of 179 MiB after 15M accesses (hit rate 0.763);
 * uncapped, and paced from the first eviction on ({@link #growthPerPeriod}), the limit reached
 * 179 MiB after 10M accesses (0.795 after 15M). A hotspot's stage-end limits did not move
 * ({@code ralt-stages}): once a hot set stops growing, the room falls back to the share.
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
   * Room for unstable records: a share of the stable bytes, at most D_hs, or twice what the stable
   * set grows per decay period, the larger. A growing hot set (a Zipf tail being learnt, a hotspot
   * that widens) finds its new keys among the unstable records, so its room follows its growth; a
   * steady one needs only enough that an eviction does not cut into it. The limit's clamp to R_hs
   * bounds either. An infinite share is the paper's D_hs even with no stable bytes (∞·0 is NaN,
   * which is not below D_hs).
   */
  static long unstableRoom(RaltOptions options, long stableHotBytes, long stableGrowth) {
    double share = options.unstableShareOfStable() * stableHotBytes;
    double steady = share < options.maxUnstableHotBytes() ? share : options.maxUnstableHotBytes();
    double growing = ROOM_PER_GROWTH * (double) stableGrowth;
    return (long) Math.min(Long.MAX_VALUE / 4, Math.max(steady, growing));
  }

  /**
   * The stable set's growth per decay period that sizes the room: {@code lastPeriod}, its growth
   * over the last full period, or, once at least half of the current period has passed, the
   * current period's pace scaled to a whole period if that is faster. {@code grownSoFar} is the
   * growth since the current period started, {@code elapsed} the bytes accessed since then. At
   * {@code elapsed >= period} it is the growth of the period just ended, which the caller keeps as
   * the next {@code lastPeriod}. The pace matters at the first eviction, which under a large hot
   * set comes before the first period ends: without it the room is the share alone and the limit
   * drops from its initial FD/2 to little above the stable bytes (128 to 31.5 MiB in the
   * measurement above).
   */
  static long growthPerPeriod(long lastPeriod, long grownSoFar, long elapsed, long period) {
    if (elapsed >= period) {
      return grownSoFar;
    }
    if (elapsed < period / 2 || elapsed <= 0) {
      return lastPeriod;
    }
    return Math.max(lastPeriod, (long) ((double) grownSoFar * period / elapsed));
  }
}
