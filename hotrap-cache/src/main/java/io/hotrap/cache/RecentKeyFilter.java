package io.hotrap.cache;

import java.util.Objects;

/**
 * The keys added within a sliding window of the last {@code window} to {@code 2·window} additions,
 * as two generations of Bloom filters: a key added is remembered until two generations later.
 * {@link #mightContain} has no false negatives within the window and a false-positive rate of
 * about 1% ({@value #BITS_PER_KEY} bits and {@value #PROBES} probes per key) per generation.
 *
 * <p><b>What it is for.</b> Promotion by flush promotes what RALT calls stable-hot: keys that came
 * back before their Algorithm 1 counter ran out (HotRAP §3.7). RALT folds a key's two accesses —
 * and so learns that it came back — only when the runs holding them merge, which may be long after
 * the second access. A promotion check that turned a key down remembers it here; when the key is
 * read from the slow tier again within the window, it has come back, and the check can say so at
 * once instead of waiting for a merge and a third read. The window is set by the caller, from
 * RALT's hot-set limit in records: a key read once per pass over a hot set that fits the limit is
 * still remembered on the next pass, while uniform reads over data much larger than the hot set
 * come back within the window only by chance.
 *
 * <p>Like Caffeine's doorkeeper (TinyLFU), it trades exactness for a few bits per key and forgets
 * by generations instead of by deletion.
 *
 * <p>Not thread-safe: one thread owns it (the promotion checker).
 */
public final class RecentKeyFilter {
  /** Bloom filter bits per key of a generation's capacity. */
  public static final int BITS_PER_KEY = 10;
  /** Probes per key; optimal for {@value #BITS_PER_KEY} bits per key is ln 2 · 10 ≈ 7. */
  public static final int PROBES = 7;
  /** Smallest window, in keys. */
  public static final int MIN_WINDOW = 64;

  private final int maxWindow;
  private int window;
  private int nextWindow;
  private long[] current;
  private long[] previous;
  private int added;

  /**
   * @param window keys per generation until {@link #setWindow} changes it
   * @param maxWindow the largest window {@link #setWindow} may set; bounds memory at
   *     {@code 2 · maxWindow ·} {@value #BITS_PER_KEY} bits
   * @throws IllegalArgumentException if {@code maxWindow < }{@value #MIN_WINDOW} or {@code window}
   *     is not in [{@value #MIN_WINDOW}, maxWindow]
   */
  public RecentKeyFilter(int window, int maxWindow) {
    if (maxWindow < MIN_WINDOW) {
      throw new IllegalArgumentException("maxWindow must be at least " + MIN_WINDOW + " but was " + maxWindow);
    }
    if (window < MIN_WINDOW || window > maxWindow) {
      throw new IllegalArgumentException(
          "window must be in [" + MIN_WINDOW + ", " + maxWindow + "] but was " + window);
    }
    this.maxWindow = maxWindow;
    this.window = window;
    this.nextWindow = window;
    this.current = new long[words(window)];
    this.previous = new long[1];
  }

  /**
   * Sets the window, clamped to [{@value #MIN_WINDOW}, maxWindow]; it takes effect when the current
   * generation is full, so keys already added keep their place.
   */
  public void setWindow(long keys) {
    nextWindow = (int) Math.max(MIN_WINDOW, Math.min(maxWindow, keys));
  }

  /** The window of the current generation, in keys. */
  public int window() {
    return window;
  }

  /** Remembers {@code key}; starts a new generation, forgetting the oldest, when this one is full. */
  public void add(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (added >= window) {
      previous = current;
      window = nextWindow;
      current = new long[words(window)];
      added = 0;
    }
    long h = hash(key);
    long mask = (long) current.length * 64 - 1;
    int h1 = (int) h;
    int h2 = (int) (h >>> 32) | 1;
    for (int i = 0; i < PROBES; i++) {
      long bit = (h1 + (long) i * h2) & mask;
      current[(int) (bit >>> 6)] |= 1L << bit;
    }
    added++;
  }

  /** Whether {@code key} was added within the window; false positives at about 1%. */
  public boolean mightContain(byte[] key) {
    Objects.requireNonNull(key, "key");
    long h = hash(key);
    return contains(current, h) || contains(previous, h);
  }

  /** Heap bytes of both generations' bits. */
  public long memoryBytes() {
    return 8L * (current.length + previous.length);
  }

  private static boolean contains(long[] bits, long h) {
    long mask = (long) bits.length * 64 - 1;
    int h1 = (int) h;
    int h2 = (int) (h >>> 32) | 1;
    for (int i = 0; i < PROBES; i++) {
      long bit = (h1 + (long) i * h2) & mask;
      if ((bits[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Words for {@code keys} keys at {@value #BITS_PER_KEY} bits each, rounded up to a power of two. */
  private static int words(int keys) {
    long bits = Math.max(64, (long) keys * BITS_PER_KEY);
    return (int) (Long.highestOneBit(bits - 1) << 1 >>> 6);
  }

  /** FNV-1a over the bytes, then MurmurHash3's 64-bit finalizer to spread the low bits. */
  static long hash(byte[] key) {
    long h = 0xcbf29ce484222325L;
    for (byte b : key) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93e53ccfe53L;
    h ^= h >>> 33;
    return h;
  }
}
