package io.hotrap.bench.workload;

/**
 * {@code hotShare} of the accesses go uniformly to a window of {@code hotFraction·keyCount}
 * popularity ranks, the rest uniformly to the other keys. Knows its hot keys, which makes it the
 * ground truth for recall.
 */
public final class HotspotStream extends AccessStream {

  private final int[] rankToId;
  private final int firstHotRank;
  private final int hotCount;
  private final double hotShare;
  private final boolean[] hot;

  HotspotStream(int keyCount, double hotFraction, int firstHotRank, double hotShare, long seed) {
    super(keyCount, seed);
    if (!(hotFraction > 0 && hotFraction < 1)) {
      throw new IllegalArgumentException("hotFraction must be in (0, 1) but was " + hotFraction);
    }
    if (!(hotShare >= 0 && hotShare <= 1)) {
      throw new IllegalArgumentException("hotShare must be in [0, 1] but was " + hotShare);
    }
    this.hotCount = Math.max(1, (int) Math.round(hotFraction * keyCount));
    if (firstHotRank < 0 || firstHotRank + hotCount > keyCount) {
      throw new IllegalArgumentException("hot ranks [" + firstHotRank + ", "
          + (firstHotRank + hotCount) + ") do not fit " + keyCount + " keys");
    }
    this.rankToId = permutation(keyCount, seed);
    this.firstHotRank = firstHotRank;
    this.hotShare = hotShare;
    this.hot = new boolean[keyCount];
    for (int r = firstHotRank; r < firstHotRank + hotCount; r++) {
      hot[rankToId[r]] = true;
    }
  }

  @Override
  public int next() {
    if (hotShare >= 1 || random.nextDouble() < hotShare) {
      return rankToId[firstHotRank + random.nextInt(hotCount)];
    }
    int r = random.nextInt(keyCount - hotCount);
    return rankToId[r < firstHotRank ? r : r + hotCount];
  }

  @Override
  public String name() {
    return String.format("hotspot-%s%%/%s%%", percent((double) hotCount / keyCount),
        percent(hotShare));
  }

  /** Whether {@code id} is one of the hot keys. */
  public boolean isHot(int id) {
    return hot[id];
  }

  /** Number of hot keys. */
  public int hotKeyCount() {
    return hotCount;
  }

  /** The hot ids, ascending. */
  public int[] hotIds() {
    int[] ids = new int[hotCount];
    int n = 0;
    for (int id = 0; id < keyCount; id++) {
      if (hot[id]) {
        ids[n++] = id;
      }
    }
    return ids;
  }

  private static String percent(double share) {
    double p = share * 100;
    return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
  }
}
