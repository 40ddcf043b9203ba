package io.hotrap.ralt;

/**
 * Algorithm 1 of HotRAP (§3.7), the auto-tuning of RALT's limits after an eviction: the hot-set
 * limit follows the stable records' hot bytes plus room D_hs for records not yet stable, within
 * [L_hs, R_hs]; the physical limit follows the hot set. Pure: it reads what the eviction kept
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

  private HotSetTuner() {}

  /** The hot-set limit and the physical limit, bytes. */
  record Limits(long hotSetLimit, long physicalLimit) {}

  static Limits retune(RaltOptions options, RunMerger.EvictionTotals kept) {
    long hot = kept.stableHotBytes + options.maxUnstableHotBytes();
    hot = Math.max(options.minHotSetLimit(), Math.min(options.maxHotSetLimit(), hot));
    double physicalPerHot = kept.keptHotBytes == 0
        ? options.physicalToHotRatio() : (double) kept.keptRecordBytes / kept.keptHotBytes;
    long physical = Math.max(options.segmentBytes(),
        (long) Math.min(Long.MAX_VALUE / 4, hot * CANDIDATE_FACTOR * physicalPerHot));
    return new Limits(hot, physical);
  }
}
