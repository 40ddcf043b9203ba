package io.hotrap.bench.workload;

import java.util.SplittableRandom;

/**
 * An endless, deterministic sequence of key ids in {@code [0, keyCount)}: the key distributions
 * of HotRAP §4 (hotspot, Zipfian, uniform). Popular keys are spread over the key space: a stream
 * ranks keys by popularity and maps ranks to ids through a seeded random permutation, as YCSB's
 * scrambled generators do.
 *
 * <p>A stream is a pure function of its parameters and seed. Not thread-safe: one per thread.
 */
public abstract class AccessStream {

  final int keyCount;
  final SplittableRandom random;

  AccessStream(int keyCount, long seed) {
    if (keyCount <= 0) {
      throw new IllegalArgumentException("keyCount must be positive but was " + keyCount);
    }
    this.keyCount = keyCount;
    this.random = new SplittableRandom(seed);
  }

  /** The id of the next access. */
  public abstract int next();

  /** Size of the key space. */
  public int keyCount() {
    return keyCount;
  }

  /** A short name for reports, e.g. {@code hotspot-5%}. */
  public abstract String name();

  /** Fills {@code ids} with the next accesses, for benchmarks that must not draw while measured. */
  public int[] fill(int[] ids) {
    for (int i = 0; i < ids.length; i++) {
      ids[i] = next();
    }
    return ids;
  }

  /** Every id equally likely. */
  public static AccessStream uniform(int keyCount, long seed) {
    return new UniformStream(keyCount, seed);
  }

  /**
   * {@code hotShare} of the accesses go to {@code hotFraction} of the keys; hotspot-5% is
   * {@code hotspot(n, 0.05, 0.95, seed)}.
   */
  public static HotspotStream hotspot(
      int keyCount, double hotFraction, double hotShare, long seed) {
    return new HotspotStream(keyCount, hotFraction, 0, hotShare, seed);
  }

  /**
   * As {@link #hotspot(int, double, double, long)}, with the hot window starting at popularity rank
   * {@code firstHotRank}: the same seed and a different start give a disjoint hotspot over the same
   * ranking, the shifted stage of the paper's dynamic workload.
   */
  public static HotspotStream hotspot(
      int keyCount, double hotFraction, int firstHotRank, double hotShare, long seed) {
    return new HotspotStream(keyCount, hotFraction, firstHotRank, hotShare, seed);
  }

  /** Zipfian with exponent {@code s} over popularity ranks (the paper uses s = 0.99). */
  public static ZipfianStream zipfian(int keyCount, double s, long seed) {
    return new ZipfianStream(keyCount, s, seed);
  }

  /**
   * The stream a benchmark parameter names: {@code hotspot5} (5% of keys, 95% of accesses),
   * {@code zipfian} (s = 0.99) or {@code uniform}.
   */
  public static AccessStream named(String name, int keyCount, long seed) {
    switch (name) {
      case "hotspot5":
        return hotspot(keyCount, 0.05, 0.95, seed);
      case "zipfian":
        return zipfian(keyCount, 0.99, seed);
      case "uniform":
        return uniform(keyCount, seed);
      default:
        throw new IllegalArgumentException(
            "unknown stream " + name + "; expected hotspot5, zipfian or uniform");
    }
  }

  /** A seeded random permutation of {@code [0, n)}, popularity rank to id. */
  static int[] permutation(int n, long seed) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
