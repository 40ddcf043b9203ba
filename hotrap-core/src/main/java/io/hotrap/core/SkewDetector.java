package io.hotrap.core;

import io.hotrap.cache.KeyHash;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a stream of keys is skewed, window by window, after LuMDB §6 (DESIGN.md §16): over a
 * window of about one L0's worth of bytes it counts how often each key occurs, keeps Σf and Σf²
 * as it goes (a key going from c to c + 1 occurrences adds 2c + 1 to Σf²), and when the window is
 * full computes the variance of the frequencies over the distinct keys,
 * {@code Σf²/n − (Σf/n)²}. The stream is called skewed when the variance rises above
 * {@code onThreshold} and stays so until it falls below {@code offThreshold}: the band between
 * them keeps the decision from flapping on a workload near the line.
 *
 * <p><b>Why the variance, and the default threshold.</b> A window of W records over N keys written
 * uniformly has frequencies near 1 and a variance near W/N; a hotspot spreads its writes over so
 * many keys that few repeat within one window; under Zipf a handful of keys occur dozens to
 * hundreds of times. Measured with {@code hotrap-bench skew} (updates of 1 KiB records over 11×
 * the budget's records, the default window of one L0, 20 windows each; min–max of the variance):
 * <pre>
 *   budget    uniform      hotspot5     hotspot1     Zipf 0.7     Zipf 0.8     Zipf 0.9     Zipf 0.99
 *   16 MiB    0.000–0.006  0.029–0.054  0.21–0.27    0.05–0.21    0.30–0.93    1.8–4.4      7.5–12.6
 *   128 MiB   0.001–0.003  0.037–0.047  0.22–0.25    0.23–0.58    1.9–2.8      14–18        62–79
 * </pre>
 * The default thresholds ({@value #DEFAULT_ON_THRESHOLD} on, {@value #DEFAULT_OFF_THRESHOLD} off)
 * sit above every uniform and hotspot window at both scales and below every window of Zipf 0.9
 * and steeper, where separation pays (LuMDB §3.1: removing the hottest keys cuts write I/O by a
 * share that grows with α). The variance is not free of scale: a larger window sees more repeats
 * of the same hot keys, so at 128 MiB Zipf 0.8 crosses the threshold too, as it would in LuMDB,
 * whose window is also one L0.
 *
 * <p>The detector is a policy without I/O: the caller feeds it keys ({@link #record}) and gets each
 * closed window through its {@link Listener}, on the thread whose record closed it. Used on writes
 * by {@link WriteHotSeparator}, with the variance above.
 *
 * <p><b>On reads</b> ({@link #forReads}, used by the store to let RALT and promotion idle while
 * reads are uniform) the statistic is the <em>concentration</em> instead: the estimated chance that
 * two reads hit the same key, {@code Σp² ≈ (Σf² − n) / (n(n − 1))} (unbiased for independent
 * reads), times the number of keys in the store, N. Uniform reads give 1 whatever N and the window;
 * reads spread evenly over a hot share h of the keys give 1/h (hotspot-5%: 0.95²/0.05 = 18); Zipf
 * 0.99 gives hundreds. The variance cannot serve here: a read window of one L0 is far smaller than
 * a hot set of 5% of the keys, so few keys repeat in it and hotspot-5% scores like uniform
 * (0.03–0.05 in the table above). The concentration needs a window in which uniform reads make a
 * few dozen colliding pairs (n²/2N), {@link #readWindow}: 16 √N reads, at least
 * {@value #MIN_READ_WINDOW}. It is on above {@value #READ_ON_CONCENTRATION} and off below
 * {@value #READ_OFF_CONCENTRATION}: a hot share of a quarter of the keys or less is skewed, uniform
 * (1 ± 0.2 with 128 expected pairs) is not. While off, the open window is also tested every eighth of
 * its size, so that skew that begins is seen within an eighth of a window (hotspot-5% makes 18×
 * the pairs, far above the threshold's 4× even then); a window only turns skew off when full.
 * Reads keep no key bytes: nothing asks for their keys.
 *
 * <p>Cost: a record hashes its key once and updates a primitive table under the window's
 * monitor, copying the key's bytes into the window's arena the first time it sees the key; it
 * allocates no object per key. Under uniform writes, while the detector keeps separation idle,
 * this is what separation costs a writer ({@code hotrap-bench separation-cost}).
 *
 * <p><b>Quiet windows.</b> A detector built with {@code quietWindows} = q &gt; 0 counts only one
 * window in q + 1 while the stream is plainly uniform: after a window closes unskewed with its
 * statistic below {@code offThreshold}, the next q windows' worth of bytes are only subtracted from
 * one shared counter ({@link #skipBytes}), no key hashed, no table touched, and counting resumes
 * in the window opened at the close. Skew that begins is then seen within q + 2 windows instead of
 * two. A stream inside the band or skewed is counted in full, so a skewed stream turns off as
 * promptly as before. The write detector of {@link WriteHotSeparator} skips
 * {@value #DEFAULT_QUIET_WINDOWS} windows in 8: under uniform writes its cost per write falls to a
 * volatile read and one atomic add on all but one window in eight.
 *
 * <p>Thread-safe: records from many threads go into one window under its monitor; the thread whose
 * record fills the window marks it closed, swaps in a fresh one and reports the old; a record that
 * finds the window it read closed counts in the next, so every record is in exactly one window and
 * a closed window's figures no longer change.
 */
final class SkewDetector {
  /** LuMDB's hot-key rule: a key occurring at least this often in a window is hot (T = 2). */
  static final int DEFAULT_HOT_COUNT = 2;
  static final double DEFAULT_ON_THRESHOLD = 1.0;
  static final double DEFAULT_OFF_THRESHOLD = 0.5;
  /** A window closes only after at least this many records, however large they are. */
  static final int MIN_WINDOW_RECORDS = 256;
  static final double READ_ON_CONCENTRATION = 4.0;
  static final double READ_OFF_CONCENTRATION = 2.0;
  static final int MIN_READ_WINDOW = 8192;
  /** Windows the write detector skips after a plainly uniform one (class comment). */
  static final int DEFAULT_QUIET_WINDOWS = 7;

  /** What a closed window is judged by, from its records n, distinct keys and Σf². */
  interface Statistic {
    double of(long records, int distinct, long sumSquares);
  }

  /** The variance of the per-key frequencies, {@code Σf²/d − (n/d)²} over the d distinct keys. */
  static final Statistic VARIANCE = (n, distinct, sumSquares) -> {
    if (distinct == 0) {
      return 0;
    }
    double mean = (double) n / distinct;
    return Math.max(0, (double) sumSquares / distinct - mean * mean);
  };

  /** Reads' window for a store of {@code keys} keys: 16 √N, at least {@value #MIN_READ_WINDOW}. */
  static long readWindow(long keys) {
    return Math.max(MIN_READ_WINDOW, (long) (16 * Math.sqrt(Math.max(1, keys))));
  }

  /**
   * The read detector: windows of {@link #readWindow} reads for the store's key count as
   * {@code keys} tells it when each window opens, judged by their concentration (class comment).
   * Record each read with {@code bytes} = 1.
   */
  static SkewDetector forReads(java.util.function.LongSupplier keys, Listener listener) {
    Objects.requireNonNull(keys, "keys");
    Statistic concentration = (n, distinct, sumSquares) ->
        n < 2 ? 0 : (double) (sumSquares - n) / ((double) n * (n - 1)) * Math.max(1, keys.getAsLong());
    SkewDetector d = new SkewDetector(() -> readWindow(keys.getAsLong()), READ_ON_CONCENTRATION,
        READ_OFF_CONCENTRATION, concentration, false, true, 0, listener);
    d.skewed = true; // tracked as before until a full window shows the reads uniform
    return d;
  }

  /** One closed window: its keys' frequencies and what they say. */
  static final class Window {
    final long records;
    final long bytes;
    final int distinct;
    final double variance;
    final boolean skewed;
    final long sequence;
    private final Counting table;
    private Map<ByteArrayKey, int[]> counts; // guarded by this; built on first use

    private Window(Counting table, double variance, boolean skewed, long sequence) {
      this.table = table;
      this.records = table.records;
      this.bytes = table.bytes;
      this.distinct = table.distinct;
      this.variance = variance;
      this.skewed = skewed;
      this.sequence = sequence;
    }

    /** A window that saw no record and is not skewed: applied, it empties the index. */
    static Window empty(long sequence) {
      return new Window(new Counting(0, 0, 1, true), 0, false, sequence);
    }

    /**
     * Every key of the window with its count. Built on the first call, by the caller (the
     * separator's thread, and only for a skewed window), not by the writer that closed the window:
     * it allocates a few objects per distinct key. {@link HotKeyIndex#build} needs the keys seen
     * once too, as they are what separates one range of hot keys from the next.
     */
    synchronized Map<ByteArrayKey, int[]> counts() {
      if (!table.keepKeys) {
        throw new IllegalStateException("this detector keeps no keys");
      }
      if (counts == null) {
        counts = table.allCounts();
      }
      return counts;
    }

    /** How often {@code key} occurred in the window; 0 if it did not. */
    int count(byte[] key) {
      return table.count(KeyHash.hash64(key));
    }
  }

  /** Receives each closed window. */
  interface Listener {
    void windowClosed(Window window);
  }

  /**
   * One window's counts: an open-addressing table from each key's 64-bit hash ({@link KeyHash}) to
   * its count, with no object per key, so that a write of a key seen once (every write, under
   * uniform keys) allocates nothing but, now and then, a larger arena. Each key's bytes are copied
   * once, at its first occurrence, into one shared arena ({@link #keyBytes}): the index needs every
   * key of the window in order, the keys seen once included ({@link Window#counts}). Two keys whose
   * 64-bit hashes collide count as one, which moves the variance by a record in about 2^64 / n²
   * windows. Guarded by its own monitor; {@link #closed} once its statistics are read, after which
   * records go to the next window and the table no longer changes.
   */
  private static final class Counting {
    private static final int MIN_SLOTS = 1024;
    private static final int MIN_ARENA = 16 << 10;
    long[] hashes;
    int[] counts;
    /** Per slot: where its key's bytes start in {@link #keyBytes}, and how many there are. */
    int[] keyOffsets;
    int[] keyLengths;
    byte[] keyBytes;
    int keyEnd;
    int distinct;
    long records;
    long bytes;
    long sumSquares;
    boolean closed;
    /** Bytes at which this window closes. */
    final long limit;
    /** Whether {@link #add} copies each key's bytes into {@link #keyBytes}. */
    final boolean keepKeys;

    /** A table sized for {@code expectedDistinct} keys at most half full and {@code expectedKeyBytes}. */
    Counting(int expectedDistinct, int expectedKeyBytes, long limit, boolean keepKeys) {
      this.limit = limit;
      this.keepKeys = keepKeys;
      int slots = Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, 2 * expectedDistinct - 1)) << 1);
      hashes = new long[slots];
      counts = new int[slots];
      keyOffsets = new int[slots];
      keyLengths = new int[slots];
      keyBytes = new byte[keepKeys ? Math.max(MIN_ARENA, expectedKeyBytes) : 0];
    }

    /** Counts one occurrence of {@code key} (hash {@code h}); returns its count now. */
    int add(long h, byte[] key) {
      if (2 * (distinct + 1) > hashes.length) {
        grow();
      }
      int mask = hashes.length - 1;
      long stored = h == 0 ? 1 : h; // 0 marks an empty slot
      int i = (int) stored & mask;
      while (counts[i] != 0 && hashes[i] != stored) {
        i = (i + 1) & mask;
      }
      int now = ++counts[i];
      if (now == 1) {
        hashes[i] = stored;
        distinct++;
        if (!keepKeys) {
          return now;
        }
        if (keyBytes.length - keyEnd < key.length) {
          keyBytes = java.util.Arrays.copyOf(keyBytes,
              (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2L * keyBytes.length, (long) keyEnd + key.length)));
        }
        // The caller's array may change once the write returns: the window keeps its own copy.
        System.arraycopy(key, 0, keyBytes, keyEnd, key.length);
        keyOffsets[i] = keyEnd;
        keyLengths[i] = key.length;
        keyEnd += key.length;
      }
      return now;
    }

    /** The count of the key whose hash is {@code h}; 0 if the window did not see it. */
    int count(long h) {
      long stored = h == 0 ? 1 : h;
      int mask = hashes.length - 1;
      int i = (int) stored & mask;
      while (counts[i] != 0) {
        if (hashes[i] == stored) {
          return counts[i];
        }
        i = (i + 1) & mask;
      }
      return 0;
    }

    private void grow() {
      long[] oldHashes = hashes;
      int[] oldCounts = counts;
      int[] oldOffsets = keyOffsets;
      int[] oldLengths = keyLengths;
      int slots = oldHashes.length * 2;
      hashes = new long[slots];
      counts = new int[slots];
      keyOffsets = new int[slots];
      keyLengths = new int[slots];
      int mask = slots - 1;
      for (int j = 0; j < oldHashes.length; j++) {
        if (oldCounts[j] == 0) {
          continue;
        }
        int i = (int) oldHashes[j] & mask;
        while (counts[i] != 0) {
          i = (i + 1) & mask;
        }
        hashes[i] = oldHashes[j];
        counts[i] = oldCounts[j];
        keyOffsets[i] = oldOffsets[j];
        keyLengths[i] = oldLengths[j];
      }
    }

    /** Every key with its count; call once the window is closed. */
    Map<ByteArrayKey, int[]> allCounts() {
      Map<ByteArrayKey, int[]> m = new HashMap<>(2 * distinct);
      for (int i = 0; i < hashes.length; i++) {
        if (counts[i] != 0) {
          byte[] key = java.util.Arrays.copyOfRange(keyBytes, keyOffsets[i], keyOffsets[i] + keyLengths[i]);
          m.put(ByteArrayKey.wrap(key), new int[] {counts[i]});
        }
      }
      return m;
    }
  }

  private final java.util.function.LongSupplier windowBytes;
  private final double onThreshold;
  private final double offThreshold;
  private final Statistic statistic;
  private final boolean keepKeys;
  /** Whether an open window is tested every eighth of its size while the stream is unskewed. */
  private final boolean earlyOn;
  private final Listener listener;
  /** Windows skipped after a plainly uniform one; 0 counts every window. */
  private final int quietWindows;
  /** Whether records are being skipped now; set by {@link #close}, cleared by the record that ends the skip. */
  private volatile boolean quiet;
  /** Bytes left to skip while {@link #quiet}. */
  private final java.util.concurrent.atomic.AtomicLong skipBytes = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.LongAdder skippedRecords = new java.util.concurrent.atomic.LongAdder();
  private volatile Counting current;
  private volatile boolean skewed;
  private volatile double lastVariance = Double.NaN;
  private long windows; // guarded by this

  /**
   * @param windowBytes key + value bytes a window holds before it closes
   * @param onThreshold variance above which an unskewed stream becomes skewed
   * @param offThreshold variance below which a skewed stream becomes unskewed; at most {@code onThreshold}
   */
  SkewDetector(long windowBytes, double onThreshold, double offThreshold, Listener listener) {
    this(windowBytes, onThreshold, offThreshold, 0, listener);
  }

  /**
   * @param quietWindows windows skipped after one that closes unskewed below {@code offThreshold}
   *     (class comment); 0 counts every window
   */
  SkewDetector(long windowBytes, double onThreshold, double offThreshold, int quietWindows, Listener listener) {
    this(checked(windowBytes), onThreshold, offThreshold, VARIANCE, true, false, quietWindows, listener);
  }

  private SkewDetector(java.util.function.LongSupplier windowBytes, double onThreshold,
      double offThreshold, Statistic statistic, boolean keepKeys, boolean earlyOn, int quietWindows,
      Listener listener) {
    if (!(offThreshold >= 0 && offThreshold <= onThreshold)) {
      throw new IllegalArgumentException("need 0 <= offThreshold <= onThreshold but they were "
          + offThreshold + " and " + onThreshold);
    }
    if (quietWindows < 0) {
      throw new IllegalArgumentException("quietWindows must be >= 0 but was " + quietWindows);
    }
    this.quietWindows = quietWindows;
    this.windowBytes = windowBytes;
    this.onThreshold = onThreshold;
    this.offThreshold = offThreshold;
    this.statistic = statistic;
    this.keepKeys = keepKeys;
    this.earlyOn = earlyOn;
    this.listener = Objects.requireNonNull(listener, "listener");
    this.current = new Counting(0, 0, Math.max(1, windowBytes.getAsLong()), keepKeys);
  }

  private static java.util.function.LongSupplier checked(long windowBytes) {
    if (windowBytes <= 0) {
      throw new IllegalArgumentException("windowBytes must be positive but was " + windowBytes);
    }
    return () -> windowBytes;
  }

  /** Counts one occurrence of {@code key} in a record of {@code bytes} key + value bytes. */
  void record(byte[] key, int bytes) {
    if (quiet) {
      if (skipBytes.addAndGet(-bytes) > 0) {
        skippedRecords.increment();
        return;
      }
      quiet = false; // this record ends the skip, and counts
    }
    long h = KeyHash.hash64(key);
    Counting full = null;
    while (true) {
      Counting w = current;
      synchronized (w) {
        if (w.closed) {
          continue; // the window closed between the read and the lock: count in the next one
        }
        int now = w.add(h, key);
        w.sumSquares += 2L * now - 1;
        w.records++;
        w.bytes += bytes;
        boolean full0 = w.bytes >= w.limit && w.records >= MIN_WINDOW_RECORDS;
        // Skew that begins is caught within an eighth of a window (class comment).
        boolean early = !full0 && earlyOn && !skewed && w.records >= MIN_WINDOW_RECORDS
            && w.bytes % Math.max(1, w.limit / 8) == 0
            && statistic.of(w.records, w.distinct, w.sumSquares) > onThreshold;
        if (full0 || early) {
          w.closed = true;
          // Sized for the keys of this window, so the next one rarely grows its table or arena.
          current = new Counting(w.distinct, w.keyEnd, Math.max(1, windowBytes.getAsLong()), keepKeys);
          full = w;
        }
      }
      break;
    }
    if (full != null) {
      close(full);
    }
  }

  /** Decides on a closed window; windows close one at a time, in order. */
  private synchronized void close(Counting w) {
    double variance = statistic.of(w.records, w.distinct, w.sumSquares);
    boolean was = skewed;
    boolean now = was ? variance >= offThreshold : variance > onThreshold;
    skewed = now;
    lastVariance = variance;
    if (quietWindows > 0 && !now && variance < offThreshold) {
      skipBytes.set(quietWindows * w.limit);
      quiet = true;
    }
    long seq = ++windows;
    listener.windowClosed(new Window(w, variance, now, seq));
  }

  /** The decision of the last closed window; false before the first closes. */
  boolean skewed() {
    return skewed;
  }

  /** The statistic (variance, or concentration on reads) of the last closed window; NaN before the first closes. */
  double lastVariance() {
    return lastVariance;
  }

  /** Records skipped, not counted, in quiet windows (class comment). */
  long skippedRecords() {
    return skippedRecords.sum();
  }

  /** The size of the window now open. */
  long windowBytes() {
    return current.limit;
  }
}
