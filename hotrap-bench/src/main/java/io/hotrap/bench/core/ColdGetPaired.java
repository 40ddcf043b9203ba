package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@link ColdGetBenchmark}'s question — what promotion costs a get of a cold slow-tier record —
 * answered in paired rounds: two stores, promotion on and off, loaded with the same records, read
 * in alternating rounds of equal length from one thread. Each pair of adjacent rounds gives one
 * ratio, so load that other tenants put on a shared machine during the run falls on both sides of
 * most pairs; JMH runs one configuration after the other, and its two figures can come minutes
 * apart.
 *
 * <p>Reports each side's median round throughput, and the median and quartiles of the per-pair
 * ratios (on / off).
 */
public final class ColdGetPaired {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "cold-get");

  private ColdGetPaired() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("cold-get", argv, "dir", "budget-mib", "times", "value-bytes", "rounds",
        "round-ms", "warmup-rounds", "seed", "cache-kib");
    long budget = args.getLong("budget-mib", 4) << 20;
    int valueBytes = args.getInt("value-bytes", 1000);
    int records = (int) (args.getLong("times", 50) * budget / valueBytes);
    int rounds = args.getInt("rounds", 30);
    long roundNanos = args.getLong("round-ms", 2000) * 1_000_000L;
    int warmup = args.getInt("warmup-rounds", 4);
    long seed = args.getLong("seed", 17);
    long cacheBytes = args.getLong("cache-kib", 0) << 10;
    // Every option is read before the directory is emptied: a typo must not cost its data.
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    try (HotRapDB on = open(root.resolve("on"), budget, true, cacheBytes);
        HotRapDB off = open(root.resolve("off"), budget, false, cacheBytes)) {
      out.printf("loading %d records of %d value bytes into each store (budget %d MiB)%n",
          records, valueBytes, budget >> 20);
      byte[][] keys = new byte[records][];
      for (int i = 0; i < records; i++) {
        keys[i] = GetBenchmark.key(i);
      }
      load(on, keys, valueBytes, seed);
      load(off, keys, valueBytes, seed);
      SplittableRandom rnd = new SplittableRandom(seed + 1);
      double[] onRate = new double[rounds];
      double[] offRate = new double[rounds];
      for (int r = -warmup; r < rounds; r++) {
        // Alternate which side goes first, so that neither always follows the other's garbage.
        boolean onFirst = (r & 1) == 0;
        double a = round(onFirst ? on : off, keys, roundNanos, rnd);
        double b = round(onFirst ? off : on, keys, roundNanos, rnd);
        if (r >= 0) {
          onRate[r] = onFirst ? a : b;
          offRate[r] = onFirst ? b : a;
        }
      }
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = onRate[r] / offRate[r];
      }
      out.printf("promotion on : median %.0f gets/s over %d rounds of %d ms%n", median(onRate), rounds,
          roundNanos / 1_000_000);
      out.printf("promotion off: median %.0f gets/s%n", median(offRate));
      double[] sorted = ratio.clone();
      Arrays.sort(sorted);
      out.printf("on/off per pair: median %.3f, quartiles %.3f–%.3f, min %.3f, max %.3f%n",
          median(ratio), sorted[rounds / 4], sorted[(3 * rounds) / 4], sorted[0],
          sorted[rounds - 1]);
      print(out, "on", on.stats());
      print(out, "off", off.stats());
    }
  }

  /** {@code cacheBytes} 0 leaves the promotion cache at its default size. */
  private static HotRapDB open(Path dir, long budget, boolean promotion, long cacheBytes) {
    HotRapOptions.Builder b = HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(budget).promotion(promotion);
    if (cacheBytes != 0) { // a negative size goes to the builder, which rejects it
      b.promotionCacheBytes(cacheBytes);
    }
    return HotRapDB.open(b.build());
  }

  private static void load(HotRapDB db, byte[][] keys, int valueBytes, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] value = new byte[valueBytes];
    for (byte[] key : keys) {
      rnd.nextBytes(value);
      db.put(key, value);
    }
    db.flush();
    db.awaitBackgroundWork();
  }

  /** Uniform gets for {@code nanos}; returns gets per second. */
  private static double round(HotRapDB db, byte[][] keys, long nanos, SplittableRandom rnd) {
    long start = System.nanoTime();
    long deadline = start + nanos;
    long n = 0;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        if (db.get(keys[rnd.nextInt(keys.length)]) == null) {
          throw new IllegalStateException("a loaded record is missing");
        }
      }
      n += 256;
      now = System.nanoTime();
    } while (now < deadline);
    return n * 1e9 / (now - start);
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  private static void print(PrintStream out, String side, HotRapStats s) {
    out.printf("%s: gets served fast %d, slow %d; slow hits not admitted %d; promoted by flush"
        + " %d B, by compaction %d B; promotion cache hits %d%n", side, s.getsServedFast(),
        s.getsServedSlow(), s.promotionReadsNotAdmitted(), s.bytesPromotedByFlush(),
        s.bytesPromotedByCompaction(), s.promotionCacheHits());
  }
}
