package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * RALT alone through a shift of the hotspot, the fifth stage of the paper's dynamic workload: a
 * hotspot-5% stream, then one whose hot keys are disjoint from the first. An access counts as
 * served by the fast tier when RALT had its key hot just before it ({@code record(key, len,
 * missed)} is told so, which paces R), and the tracker's buffer is made visible every 5,000
 * accesses once half full, as the store's promotion checks do. Prints the hit rate per window
 * and the accesses from the shift until it stays within two points of its final plateau: how long
 * RALT itself needs to follow a shift, apart from the store's promotion and migration.
 */
public final class RaltShift {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-shift");
  private static final int CHECK_EVERY = 5_000;
  private static final double FLUSH_FLOOR = 0.5;

  private RaltShift() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("ralt-shift", argv, "dir", "keys", "before", "after", "fast-disk-mib",
        "window", "seed");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", 180_224);
    long before = args.getLong("before", 1_200_000);
    long after = args.getLong("after", 600_000);
    long fastDisk = args.getLong("fast-disk-mib", 16) << 20;
    int window = args.getInt("window", 20_000);
    long seed = args.getLong("seed", 1);
    if (window % CHECK_EVERY != 0 || window <= 0) {
      throw new IllegalArgumentException("--window must be a positive multiple of " + CHECK_EVERY
          + " but was " + window);
    }
    if (before < window || after < window || keyCount < 100) {
      throw new IllegalArgumentException("--before and --after must be at least one window ("
          + window + ") and --keys at least 100");
    }

    Directories.fresh(dir);
    byte[][] keys = Keys.keys(keyCount);
    HotspotStream first = AccessStream.hotspot(keyCount, 0.05, 0, 0.95, seed);
    HotspotStream shifted =
        AccessStream.hotspot(keyCount, 0.05, first.hotKeyCount(), 0.95, seed);
    out.printf("RALT through a hotspot shift: %,d keys of %d bytes, hotspot-5%% for %,d accesses,"
            + " then a disjoint hotspot-5%% for %,d; fast disk %s%n",
        keyCount, RaltWorkload.RECORD_BYTES, before, after, RaltWorkload.bytes(fastDisk));

    int windows = (int) (after / window);
    double[] hitRate = new double[windows];
    try (Ralt ralt = Ralt.open(RaltWorkload.options(dir, fastDisk).build())) {
      long hits = 0;
      double plateauBefore = 0;
      for (long i = 0; i < before + after; i++) {
        AccessStream s = i < before ? first : shifted;
        byte[] key = keys[s.next()];
        boolean hit = ralt.isHot(key);
        ralt.record(key, RaltWorkload.VALUE_BYTES, !hit);
        if (hit) {
          hits++;
        }
        if ((i + 1) % CHECK_EVERY == 0) {
          ralt.flushIfBuffered(FLUSH_FLOOR);
        }
        if ((i + 1) % window == 0) {
          double rate = (double) hits / window;
          hits = 0;
          if (i < before) {
            plateauBefore = rate;
          } else {
            int w = (int) ((i + 1 - before) / window) - 1;
            if (w < windows) {
              hitRate[w] = rate;
            }
          }
        }
      }
      RaltStats stats = ralt.stats();
      int tail = Math.max(1, windows / 10);
      double plateau = 0;
      for (int w = windows - tail; w < windows; w++) {
        plateau += hitRate[w] / tail;
      }
      int lastBelow = -1;
      for (int w = 0; w < windows; w++) {
        if (hitRate[w] < plateau - 0.02) {
          lastBelow = w;
        }
      }
      StringBuilder line = new StringBuilder();
      for (int w = 0; w < windows; w++) {
        line.append(String.format("%.3f ", hitRate[w]));
      }
      out.printf("hit rate before the shift (last window) %.3f; after, per %,d accesses:%n%s%n",
          plateauBefore, window, line.toString().strip());
      out.printf("plateau (final %d windows) %.3f; back within 2 points after %,d accesses%n",
          tail, plateau, (long) (lastBelow + 1) * window);
      out.println(stats);
    }
  }
}
