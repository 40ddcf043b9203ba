package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
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
    if (window % RaltStages.CHECK_EVERY != 0 || window <= 0) {
      throw new IllegalArgumentException("--window must be a positive multiple of " + RaltStages.CHECK_EVERY
          + " but was " + window);
    }
    if (before < window || after < window || keyCount < 100) {
      throw new IllegalArgumentException("--before and --after must be at least one window ("
          + window + ") and --keys at least 100");
    }

    int five = (int) Math.round(0.05 * keyCount);
    out.printf("RALT through a hotspot shift: %,d keys of %d bytes, hotspot-5%% for %,d accesses,"
            + " then a disjoint hotspot-5%% for %,d; fast disk %s%n",
        keyCount, RaltWorkload.RECORD_BYTES, before, after, RaltWorkload.bytes(fastDisk));
    List<RaltStages.Result> results = RaltStages.run(dir, keyCount, fastDisk, List.of(
        new RaltStages.Stage("hotspot-5%", 0.05, 0, before),
        new RaltStages.Stage("hotspot-5%-shifted", 0.05, five, after)), window, seed);
    double[] first = results.get(0).windowHitRates();
    RaltStages.Result shifted = results.get(1);
    StringBuilder line = new StringBuilder();
    for (double rate : shifted.windowHitRates()) {
      line.append(String.format("%.3f ", rate));
    }
    out.printf("hit rate before the shift (last window) %.3f; after, per %,d accesses:%n%s%n",
        first[first.length - 1], window, line.toString().strip());
    out.printf("plateau (final %d windows) %.3f; back within 2 points after %,d accesses%n",
        Math.max(1, shifted.windowHitRates().length / 10), shifted.plateau(),
        shifted.accessesToPlateau());
    out.printf("hot-set limit %s, stable hot bytes %s%n",
        RaltWorkload.bytes(shifted.hotSetLimit()), RaltWorkload.bytes(shifted.stableHotBytes()));
  }
}
