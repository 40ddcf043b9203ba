package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.harness.BenchSystem;
import io.hotrap.bench.harness.HotRapSystem;
import io.hotrap.bench.harness.SystemConfig;
import io.hotrap.bench.harness.Systems;
import io.hotrap.core.HotRapStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * A write-only load of {@code --times} the fast budget into each system of {@code --systems}, one
 * after the other with the same keys and values: load throughput (ops/s, settling included), the
 * bytes each tier's flushes and compactions wrote and their write amplification over the bytes
 * users wrote, and the slow tier's SST file count at the end. For HotRAP variants also how fast
 * migration demotes (MiB of demoted records over the time spent migrating) and how demoted records
 * left the fast tier (the native filter or tombstones).
 */
public final class MigrationLoad {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "migration");
  static final String DEFAULT_SYSTEMS = "rocksdb-tiered,hotrap,hotrap-native";

  private MigrationLoad() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("migration", argv, "dir", "slow-dir", "budget-mib", "times", "value-bytes",
        "seed", "systems");
    long budget = args.getLong("budget-mib", 8) << 20;
    long times = args.getLong("times", 10);
    int valueBytes = args.getInt("value-bytes", 1000);
    long seed = args.getLong("seed", 5);
    List<String> systems = List.of(args.getString("systems", DEFAULT_SYSTEMS).split(","));
    for (String s : systems) {
      Systems.requireKnown(s);
    }
    // Every option is read before the directory is emptied: a typo must not cost its data.
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    // The slow tiers under their own root: a throttled disk (scripts/slowdisk.sh) for the slow
    // tier alone, the fast tier on the machine's disk as in the run matrix.
    Path slowRoot = args.getString("slow-dir", null) != null
        ? Directories.fresh(args.getPath("slow-dir", null)) : root;
    double mib = 1 << 20;
    out.printf("migration: %d MiB fast budget, %dx its size written, %d B values%n",
        budget >> 20, times, valueBytes);
    out.printf("%-20s %10s %12s %12s %8s %8s %10s %12s %14s%n", "system", "ops/s", "fast MiB",
        "slow MiB", "fast WA", "slow WA", "slow SSTs", "demote MiB/s", "tombstones");
    for (String name : systems) {
      Path dir = root.resolve(name);
      Path slow = slowRoot == root ? dir.resolve("slow") : slowRoot.resolve(name);
      SystemConfig config = new SystemConfig(dir.resolve("fast"), slow, budget, false);
      SplittableRandom rnd = new SplittableRandom(seed);
      long userBytes = 0;
      long records = 0;
      long start = System.nanoTime();
      try (BenchSystem system = Systems.open(name, config)) {
        byte[] value = new byte[valueBytes];
        while (userBytes < times * budget) {
          rnd.nextBytes(value);
          byte[] key = GetBenchmark.key(rnd.nextInt(Integer.MAX_VALUE));
          system.put(key, value);
          userBytes += key.length + value.length;
          records++;
        }
        system.settle();
        double seconds = (System.nanoTime() - start) / 1e9;
        BenchSystem.Counters c = system.counters();
        String demotion = "-";
        String tombstones = "-";
        if (system instanceof HotRapSystem h) {
          HotRapStats s = h.stats();
          demotion = String.format("%.2f", s.bytesDemoted() / mib / Math.max(1e-9, s.migrationNanos() / 1e9));
          tombstones = Long.toString(s.demotionTombstones());
        }
        out.printf("%-20s %10.0f %12.1f %12.1f %8.2f %8.2f %10d %12s %14s%n", name, records / seconds,
            c.fastCompactionBytes() / mib, c.slowCompactionBytes() / mib,
            (double) c.fastCompactionBytes() / userBytes, (double) c.slowCompactionBytes() / userBytes,
            sstFiles(config.slowDir()), demotion, tombstones);
        if (system instanceof HotRapSystem h) {
          out.printf("  %s stats: %s%n", name, h.stats());
        }
      }
    }
  }

  private static long sstFiles(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
