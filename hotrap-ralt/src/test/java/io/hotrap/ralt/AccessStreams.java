package io.hotrap.ralt;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Deterministic access streams over a key space of {@code keyCount} fixed-size keys, after the
 * workloads of HotRAP §4: hotspot (a share of the accesses goes to a set of hot keys), Zipfian and
 * uniform.
 *
 * <p>A stream yields key ids in {@code [0, keyCount)}; {@link #key(long)} turns an id into its
 * 24-byte key, {@code "user"} followed by the id in 20 zero-padded decimal digits, so the unsigned
 * byte order of keys is the numeric order of ids. Hot keys are spread over the whole key space: a
 * stream ranks keys by popularity and maps ranks to ids through a seeded random permutation, as
 * YCSB's scrambled generators do.
 *
 * <p>Every stream is a pure function of its parameters and seed. Not thread-safe: one stream per
 * thread.
 */
final class AccessStreams {

  /** Length of every key. */
  static final int KEY_BYTES = 24;

  private static final byte[] PREFIX = "user".getBytes(StandardCharsets.US_ASCII);
  private static final int DIGITS = KEY_BYTES - 4;

  private AccessStreams() {}

  /** The key of {@code id}: {@code "user"} and the id in 20 zero-padded decimal digits. */
  static byte[] key(long id) {
    if (id < 0) {
      throw new IllegalArgumentException("id must be >= 0 but was " + id);
    }
    byte[] key = new byte[KEY_BYTES];
    System.arraycopy(PREFIX, 0, key, 0, PREFIX.length);
    long v = id;
    for (int i = KEY_BYTES - 1; i >= PREFIX.length; i--) {
      key[i] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    return key;
  }

  /** The id whose {@link #key(long)} is {@code key}. */
  static long id(byte[] key) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException("not a stream key: " + key.length + " bytes");
    }
    long v = 0;
    for (int i = PREFIX.length; i < KEY_BYTES; i++) {
      v = v * 10 + (key[i] - '0');
    }
    return v;
  }

  /** The keys of ids {@code 0 .. keyCount - 1}, precomputed so a stream costs no allocation. */
  static byte[][] keys(int keyCount) {
    byte[][] keys = new byte[keyCount][];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = key(i);
    }
    return keys;
  }

  /** A key of all 0x00 bytes, below every stream key. */
  static byte[] lowestKey() {
    return new byte[KEY_BYTES];
  }

  /** A key of all 0xFF bytes, above every stream key. */
  static byte[] highestKey() {
    byte[] k = new byte[KEY_BYTES];
    Arrays.fill(k, (byte) 0xFF);
    return k;
  }

  /** Every id of {@code [0, keyCount)} equally likely. */
  static Stream uniform(int keyCount, long seed) {
    return new Stream(keyCount, seed) {
      @Override
      int next() {
        return random.nextInt(keyCount);
      }
    };
  }

  /**
   * {@code hotShare} of the accesses go uniformly to {@code hotFraction} of the keys, the rest
   * uniformly to the other keys (HotRAP's hotspot-5% is {@code hotspot(n, 0.05, 0.95, seed)}).
   */
  static Hotspot hotspot(int keyCount, double hotFraction, double hotShare, long seed) {
    return hotspot(keyCount, hotFraction, 0, hotShare, seed);
  }

  /**
   * As {@link #hotspot(int, double, double, long)}, with the hot keys being the popularity ranks
   * {@code [firstHotRank, firstHotRank + hotFraction·keyCount)}. Streams built with the same key
   * count and seed share one permutation, so hotspots on disjoint rank windows have disjoint keys.
   */
  static Hotspot hotspot(
      int keyCount, double hotFraction, int firstHotRank, double hotShare, long seed) {
    return new Hotspot(keyCount, hotFraction, firstHotRank, hotShare, seed);
  }

  /**
   * Zipfian with exponent {@code s} over popularity ranks, the ranks scrambled over the key space;
   * the permutation depends on {@code seed}, the sequence of draws on {@code seed} too.
   */
  static Zipfian zipfian(int keyCount, double s, long seed) {
    return new Zipfian(keyCount, s, seed);
  }

  /** A seeded random permutation of {@code [0, n)}: rank to id. */
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

  /** An endless sequence of key ids. */
  abstract static class Stream {
    final int keyCount;
    final SplittableRandom random;

    Stream(int keyCount, long seed) {
      if (keyCount <= 0) {
        throw new IllegalArgumentException("keyCount must be positive but was " + keyCount);
      }
      this.keyCount = keyCount;
      this.random = new SplittableRandom(seed);
    }

    /** The id of the next access. */
    abstract int next();

    int keyCount() {
      return keyCount;
    }
  }

  /** A hotspot stream, which knows its hot keys. */
  static final class Hotspot extends Stream {
    private final int[] rankToId;
    private final int firstHotRank;
    private final int hotCount;
    private final double hotShare;
    private final boolean[] hot;

    private Hotspot(
        int keyCount, double hotFraction, int firstHotRank, double hotShare, long seed) {
      super(keyCount, seed);
      if (!(hotFraction > 0 && hotFraction < 1)) {
        throw new IllegalArgumentException("hotFraction must be in (0, 1) but was " + hotFraction);
      }
      if (!(hotShare >= 0 && hotShare <= 1)) {
        throw new IllegalArgumentException("hotShare must be in [0, 1] but was " + hotShare);
      }
      this.hotCount = (int) Math.round(hotFraction * keyCount);
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
    int next() {
      if (hotShare >= 1 || random.nextDouble() < hotShare) {
        return rankToId[firstHotRank + random.nextInt(hotCount)];
      }
      // A cold rank: one of the keyCount - hotCount ranks outside the hot window.
      int r = random.nextInt(keyCount - hotCount);
      return rankToId[r < firstHotRank ? r : r + hotCount];
    }

    boolean isHot(int id) {
      return hot[id];
    }

    int hotKeyCount() {
      return hotCount;
    }

    /** The hot ids, ascending (so their keys are in unsigned byte order). */
    int[] hotIds() {
      int[] ids = new int[hotCount];
      int n = 0;
      for (int id = 0; id < keyCount; id++) {
        if (hot[id]) {
          ids[n++] = id;
        }
      }
      return ids;
    }
  }

  /**
   * A Zipfian stream: rank r (0-based) has probability {@code (r + 1)^-s / H(n, s)}. Draws invert a
   * precomputed CDF by binary search, exact for any exponent and fast enough for millions of keys.
   */
  static final class Zipfian extends Stream {
    private final int[] rankToId;
    private final int[] idToRank;
    private final double[] cdf;
    private final double s;

    private Zipfian(int keyCount, double s, long seed) {
      super(keyCount, seed);
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException("s must be positive and finite but was " + s);
      }
      this.s = s;
      this.rankToId = permutation(keyCount, seed);
      this.idToRank = new int[keyCount];
      for (int r = 0; r < keyCount; r++) {
        idToRank[rankToId[r]] = r;
      }
      this.cdf = new double[keyCount];
      double sum = 0;
      for (int r = 0; r < keyCount; r++) {
        sum += Math.pow(r + 1, -s);
        cdf[r] = sum;
      }
      for (int r = 0; r < keyCount; r++) {
        cdf[r] /= sum;
      }
      cdf[keyCount - 1] = 1.0;
    }

    @Override
    int next() {
      double u = random.nextDouble();
      // The first rank whose cumulative probability exceeds u.
      int lo = 0;
      int hi = keyCount - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cdf[mid] > u) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return rankToId[lo];
    }

    /** Probability that one access goes to {@code id}. */
    double probability(int id) {
      int r = idToRank[id];
      return r == 0 ? cdf[0] : cdf[r] - cdf[r - 1];
    }

    /** Probability that one access goes to one of the {@code count} most popular keys. */
    double topProbability(int count) {
      return count <= 0 ? 0 : cdf[Math.min(count, keyCount) - 1];
    }

    double exponent() {
      return s;
    }
  }
}
