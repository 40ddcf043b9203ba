package io.hotrap.core;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

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
 * by {@link WriteHotSeparator}. It knows nothing of writes as such: fed the keys of reads it would
 * tell whether reads are skewed, which the store does not ask yet.
 *
 * <p>Thread-safe: records from many threads go into one window's concurrent map; the thread whose
 * record fills the window swaps in a fresh one and reports the old. Records racing the swap may
 * land in the closed window after its statistics were read; they are counted in no decision, which
 * a statistic over thousands of records does not notice.
 */
final class SkewDetector {
  /** LuMDB's hot-key rule: a key occurring at least this often in a window is hot (T = 2). */
  static final int DEFAULT_HOT_COUNT = 2;
  static final double DEFAULT_ON_THRESHOLD = 1.0;
  static final double DEFAULT_OFF_THRESHOLD = 0.5;
  /** A window closes only after at least this many records, however large they are. */
  static final int MIN_WINDOW_RECORDS = 256;

  /** One closed window: its keys' frequencies and what they say. */
  static final class Window {
    /** Occurrences per key; may still grow by records that raced the window's close. */
    final Map<ByteArrayKey, int[]> counts;
    final long records;
    final long bytes;
    final int distinct;
    final double variance;
    final boolean skewed;
    final long sequence;

    Window(Map<ByteArrayKey, int[]> counts, long records, long bytes, double variance,
        boolean skewed, long sequence) {
      this.counts = counts;
      this.records = records;
      this.bytes = bytes;
      this.distinct = counts.size();
      this.variance = variance;
      this.skewed = skewed;
      this.sequence = sequence;
    }
  }

  /** Receives each closed window. */
  interface Listener {
    void windowClosed(Window window);
  }

  private static final class Counting {
    final ConcurrentHashMap<ByteArrayKey, int[]> counts = new ConcurrentHashMap<>();
    final LongAdder records = new LongAdder();
    final LongAdder bytes = new LongAdder();
    final LongAdder sumSquares = new LongAdder();
  }

  private final long windowBytes;
  private final double onThreshold;
  private final double offThreshold;
  private final Listener listener;
  private final AtomicReference<Counting> current = new AtomicReference<>(new Counting());
  private volatile boolean skewed;
  private volatile double lastVariance = Double.NaN;
  private long windows; // guarded by this

  /**
   * @param windowBytes key + value bytes a window holds before it closes
   * @param onThreshold variance above which an unskewed stream becomes skewed
   * @param offThreshold variance below which a skewed stream becomes unskewed; at most {@code onThreshold}
   */
  SkewDetector(long windowBytes, double onThreshold, double offThreshold, Listener listener) {
    if (windowBytes <= 0) {
      throw new IllegalArgumentException("windowBytes must be positive but was " + windowBytes);
    }
    if (!(offThreshold >= 0 && offThreshold <= onThreshold)) {
      throw new IllegalArgumentException("need 0 <= offThreshold <= onThreshold but they were "
          + offThreshold + " and " + onThreshold);
    }
    this.windowBytes = windowBytes;
    this.onThreshold = onThreshold;
    this.offThreshold = offThreshold;
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Counts one occurrence of {@code key} in a record of {@code bytes} key + value bytes. */
  void record(byte[] key, int bytes) {
    Counting w = current.get();
    int[] c = w.counts.get(ByteArrayKey.wrap(key));
    if (c == null) {
      // The map keeps its own copy: the caller's array may change once the write returns.
      c = w.counts.computeIfAbsent(ByteArrayKey.copyOf(key), k -> new int[1]);
    }
    int now;
    synchronized (c) {
      now = ++c[0];
    }
    w.sumSquares.add(2L * now - 1);
    w.records.increment();
    w.bytes.add(bytes);
    if (w.bytes.sum() >= windowBytes && w.records.sum() >= MIN_WINDOW_RECORDS
        && current.compareAndSet(w, new Counting())) {
      close(w);
    }
  }

  private synchronized void close(Counting w) {
    long n = w.records.sum();
    int distinct = w.counts.size();
    double mean = (double) n / distinct;
    double variance = Math.max(0, (double) w.sumSquares.sum() / distinct - mean * mean);
    boolean was = skewed;
    boolean now = was ? variance >= offThreshold : variance > onThreshold;
    skewed = now;
    lastVariance = variance;
    long seq = ++windows;
    listener.windowClosed(new Window(w.counts, n, w.bytes.sum(), variance, now, seq));
  }

  /** The decision of the last closed window; false before the first closes. */
  boolean skewed() {
    return skewed;
  }

  /** The variance of the last closed window; NaN before the first closes. */
  double lastVariance() {
    return lastVariance;
  }

  long windowBytes() {
    return windowBytes;
  }
}
