package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code hotrap-bench separation-cost}: what write-hot separation costs a writer while uniform
 * writes keep its detector idle. Two stores, separation on and off, take uniform puts in
 * alternating blocks from one thread; each block's figure is that thread's CPU time per put
 * ({@link ThreadMXBean#getCurrentThreadCpuTime}), which other tenants of the machine disturb far
 * less than throughput does. The separated store's per-write work (the detector's count, the
 * routing check) runs on that thread; flushes and compactions are the same in both stores and run
 * on RocksDB's threads. Prints the median CPU time per put of each side and the median of the
 * per-block-pair ratios; fails if any write was routed to {@code fast-hot}.
 */
public final class SeparationCost {
  private static final Path DEFAULT_DIR = Path.of("hotrap-data", "separation-cost");

  private SeparationCost() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("separation-cost", argv, "dir", "keys", "value-bytes", "blocks", "block-puts",
        "window-kib");
    int keys = args.getInt("keys", 500_000);
    int valueBytes = args.getInt("value-bytes", 1000);
    int blocks = args.getInt("blocks", 20);
    int blockPuts = args.getInt("block-puts", 50_000);
    // The detector's window of a 16 MiB store (eight 100 KiB write buffers), so that windows close
    // and the detector decides, as in the separation runs, though this store's budget is larger.
    long windowBytes = args.getLong("window-kib", 800) << 10;
    if (keys < 1 || valueBytes < 1 || blocks < 1 || blockPuts < 1) {
      throw new IllegalArgumentException("--keys, --value-bytes, --blocks and --block-puts must be positive");
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (!mx.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
    }
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    out.printf("separation-cost: %d blocks of %d uniform puts per store, %d keys, %d B values, %d KiB window%n",
        blocks, blockPuts, keys, valueBytes, windowBytes >> 10);
    HotRapDB.loadNativeLibrary();
    double[] on = new double[blocks];
    double[] off = new double[blocks];
    double[] ratio = new double[blocks];
    HotRapStats stats;
    try (HotRapDB separated = HotRapDB.open(options(root.resolve("separated")).writeHotSeparation(true)
        .writeHotWindowBytes(windowBytes).build());
        HotRapDB plain = HotRapDB.open(options(root.resolve("plain")).build())) {
      byte[][] keyBytes = new byte[keys][];
      for (int i = 0; i < keys; i++) {
        keyBytes[i] = GetBenchmark.key(i);
      }
      SplittableRandom random = new SplittableRandom(11);
      byte[] value = new byte[valueBytes];
      random.nextBytes(value);
      // A warm-up block each, not counted: class loading and the JIT.
      block(separated, random, value, keyBytes, blockPuts, mx);
      block(plain, random, value, keyBytes, blockPuts, mx);
      for (int b = 0; b < blocks; b++) {
        // Alternate which store goes first, so that neither always follows the other's flushes.
        if (b % 2 == 0) {
          on[b] = block(separated, random, value, keyBytes, blockPuts, mx);
          off[b] = block(plain, random, value, keyBytes, blockPuts, mx);
        } else {
          off[b] = block(plain, random, value, keyBytes, blockPuts, mx);
          on[b] = block(separated, random, value, keyBytes, blockPuts, mx);
        }
        ratio[b] = on[b] / off[b];
        out.printf("block %2d: separation on %8.0f ns/put, off %8.0f ns/put, on/off %.3f%n", b, on[b], off[b], ratio[b]);
      }
      stats = separated.stats();
    } finally {
      Directories.deleteRecursively(root);
    }
    if (stats.writeHotWrites() > 0) {
      throw new IllegalStateException("uniform puts were routed to fast-hot: " + stats);
    }
    out.printf("median CPU per put: separation on %.0f ns, off %.0f ns; median on/off %.3f (variance of the last window %.4f)%n",
        median(on), median(off), median(ratio), stats.writeSkewVariance());
    out.printf("windows closed %d, skewed at the end %b%n", stats.writeHotWindows(), stats.writeSkewed());
  }

  private static HotRapOptions.Builder options(Path dir) {
    // A budget no block fills: no migration runs, so both stores do the same background work.
    return HotRapOptions.builder().fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(8L << 30);
  }

  /** CPU nanoseconds of this thread per put over {@code puts} uniform puts. */
  private static double block(HotRapDB db, SplittableRandom random, byte[] value, byte[][] keys, int puts,
      ThreadMXBean mx) {
    long start = mx.getCurrentThreadCpuTime();
    for (int i = 0; i < puts; i++) {
      db.put(keys[random.nextInt(keys.length)], value);
    }
    return (double) (mx.getCurrentThreadCpuTime() - start) / puts;
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
