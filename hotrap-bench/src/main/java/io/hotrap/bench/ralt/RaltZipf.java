package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import io.hotrap.ralt.RaltStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * RALT alone learning a Zipfian (s = 0.99) stream from empty, driven as {@link RaltStages} drives
 * it: per window, the share of accesses whose key was hot just before, the hot-set limit and the
 * stable bytes. Shows how fast the hot set grows towards its ceiling; {@code --unstable-share}
 * sets {@code RaltOptions.unstableShareOfStable} ({@code Infinity}: the paper's fixed room),
 * {@code --hot-set-beta} the share of the hot-set limit an eviction cuts, {@code --value-bytes}
 * the value length of each record (1000 by default: 1 KiB records with the 24-byte key),
 * {@code --max-unstable-mib} D_hs (by default 0.1·R_hs). The last line gives RALT's statistics:
 * its evictions and the bytes it read and wrote.
 */
public final class RaltZipf {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-zipf");

  private RaltZipf() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("ralt-zipf", argv, "dir", "keys", "accesses", "fast-disk-mib",
        "window", "seed", "unstable-share", "hot-set-beta", "value-bytes",
        "max-unstable-mib");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", 2_883_584);
    long accesses = args.getLong("accesses", 6_000_000);
    long fastDisk = args.getLong("fast-disk-mib", 256) << 20;
    int window = args.getInt("window", 250_000);
    long seed = args.getLong("seed", 1);
    double share = args.getDouble("unstable-share", RaltOptions.DEFAULT_UNSTABLE_SHARE_OF_STABLE);
    double hotSetBeta = args.getDouble("hot-set-beta", RaltOptions.DEFAULT_HOT_SET_BETA);
    int valueBytes = args.getInt("value-bytes", RaltWorkload.VALUE_BYTES);
    if (valueBytes < 0) {
      throw new IllegalArgumentException("--value-bytes must be >= 0 but was " + valueBytes);
    }
    long maxUnstableMib = -1; // RALT's default D_hs
    if (args.getString("max-unstable-mib", null) != null) {
      maxUnstableMib = args.getLong("max-unstable-mib", 0);
      if (maxUnstableMib < 0 || maxUnstableMib > (Long.MAX_VALUE >> 20)) {
        throw new IllegalArgumentException(
            "--max-unstable-mib must be >= 0 but was " + maxUnstableMib);
      }
    }
    RaltStages.checkWindow(window, accesses, keyCount);
    Directories.fresh(dir);
    byte[][] keys = Keys.keys(keyCount);
    AccessStream stream = AccessStream.zipfian(keyCount, 0.99, seed);
    out.printf("RALT learning Zipf 0.99 over %,d keys of %d bytes, %,d accesses, fast disk %s,"
            + " unstable share %s, hot-set cut %s%n", keyCount, Keys.KEY_BYTES + valueBytes,
        accesses, RaltWorkload.bytes(fastDisk), share, hotSetBeta);
    out.printf("%12s %8s %12s %12s%n", "accesses", "hit", "limit", "stable");
    RaltOptions.Builder options = RaltWorkload.options(dir, fastDisk)
        .unstableShareOfStable(share).hotSetBeta(hotSetBeta);
    if (maxUnstableMib >= 0) {
      options.maxUnstableHotBytes(maxUnstableMib << 20);
    }
    try (Ralt ralt = Ralt.open(options.build())) {
      long hits = 0;
      for (long i = 0; i < accesses; i++) {
        byte[] key = keys[stream.next()];
        boolean hit = ralt.isHot(key);
        ralt.record(key, valueBytes, !hit);
        if (hit) {
          hits++;
        }
        if ((i + 1) % RaltStages.CHECK_EVERY == 0) {
          ralt.flushIfBuffered(RaltStages.FLUSH_FLOOR);
        }
        if ((i + 1) % window == 0) {
          RaltStats stats = ralt.stats();
          out.printf("%,12d %8.4f %12s %12s%n", i + 1, (double) hits / window,
              RaltWorkload.bytes(stats.hotSetLimit()), RaltWorkload.bytes(stats.stableHotBytes()));
          hits = 0;
        }
      }
      out.println(ralt.stats());
    }
  }
}
