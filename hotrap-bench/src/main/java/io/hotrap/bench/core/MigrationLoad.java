package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A write-only load of ten times the fast budget: how fast migration demotes (MiB/s of demoted
 * records over the time spent migrating) and the fast tier's write amplification (bytes RocksDB
 * wrote to the fast tier's SST files over the bytes users wrote).
 */
public final class MigrationLoad {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "migration");

  private MigrationLoad() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("migration", argv, "dir", "budget-mib", "times", "value-bytes", "seed");
    long budget = args.getLong("budget-mib", 8) << 20;
    long times = args.getLong("times", 10);
    int valueBytes = args.getInt("value-bytes", 1000);
    SplittableRandom rnd = new SplittableRandom(args.getLong("seed", 5));
    // Every option is read before the directory is emptied: a typo must not cost its data.
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    HotRapOptions options = HotRapOptions.builder()
        .fastPath(root.resolve("fast")).slowPath(root.resolve("slow")).fastBudgetBytes(budget)
        .build();
    long userBytes = 0;
    long start = System.nanoTime();
    try (HotRapDB db = HotRapDB.open(options)) {
      byte[] value = new byte[valueBytes];
      while (userBytes < times * budget) {
        rnd.nextBytes(value);
        byte[] key = GetBenchmark.key(rnd.nextInt(Integer.MAX_VALUE));
        db.put(key, value);
        userBytes += key.length + value.length;
      }
      db.awaitBackgroundWork();
      double seconds = (System.nanoTime() - start) / 1e9;
      HotRapStats s = db.stats();
      double mib = 1 << 20;
      out.printf("migration: wrote %.1f MiB (%dx a %d MiB fast budget) in %.1f s%n",
          userBytes / mib, times, budget >> 20, seconds);
      out.printf("  demoted %.1f MiB in %d migrations, %.1f s migrating: %.2f MiB/s%n",
          s.bytesDemoted() / mib, s.migrations(), s.migrationNanos() / 1e9,
          s.bytesDemoted() / mib / Math.max(1e-9, s.migrationNanos() / 1e9));
      out.printf("  fast tier wrote %.1f MiB to SSTs: write amplification %.2f;"
              + " slow tier %.1f MiB (%.2f)%n",
          s.fastBytesWritten() / mib, (double) s.fastBytesWritten() / userBytes,
          s.slowBytesWritten() / mib, (double) s.slowBytesWritten() / userBytes);
      out.printf("  largest fast tier seen %.2f MiB; writer stalls %d (%.1f s)%n",
          s.maxFastSstBytes() / mib, s.writeStalls(), s.writeStallNanos() / 1e9);
    }
  }
}
