package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * RALT alone through a sequence of hotspot stages, the way the store drives it: an access counts as
 * served by the fast tier when RALT had its key hot just before it ({@code record(key, len,
 * missed)} is told so, which paces R), and the buffer is made visible every 5,000 accesses once
 * half full, as the store's promotion checks do. The default stages are the hotspot stages of the
 * paper's dynamic workload (Fig. 15): 1%, 3% and 5% of the keys from the most popular rank, a
 * disjoint 5%, then 4% and 2% of that one, each taking 95% of the accesses. Per stage it prints the
 * plateau hit rate (final tenth of its windows), the accesses until the hit rate stays within two
 * points of it, and the hot-set limit at the stage's end against the hotspot's bytes; with
 * {@code --windows yes}, every window's hit rate too.
 */
public final class RaltStages {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-stages");
  static final int CHECK_EVERY = 5_000;
  static final double FLUSH_FLOOR = 0.5;
  private static final double HOT_SHARE = 0.95;

  /** {@code fraction} of the keys from popularity rank {@code firstRank}, for {@code accesses}. */
  record Stage(String name, double fraction, int firstRank, long accesses) {}

  /** What one stage measured. */
  record Result(Stage stage, double[] windowHitRates, double plateau, long accessesToPlateau,
      long hotSetLimit, long stableHotBytes, long hotspotBytes) {

    double limitOverHotspot() {
      return (double) hotSetLimit / hotspotBytes;
    }
  }

  private RaltStages() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("ralt-stages", argv, "dir", "keys", "stage-accesses", "fast-disk-mib",
        "window", "seed", "windows");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", 180_224);
    long stageAccesses = args.getLong("stage-accesses", 1_200_000);
    long fastDisk = args.getLong("fast-disk-mib", 16) << 20;
    int window = args.getInt("window", 20_000);
    long seed = args.getLong("seed", 1);
    String windows = args.getString("windows", "no");
    if (!windows.equals("yes") && !windows.equals("no")) {
      throw new IllegalArgumentException("--windows must be yes or no but was " + windows);
    }
    checkWindow(window, stageAccesses, keyCount);
    int five = (int) Math.round(0.05 * keyCount);
    List<Stage> stages = List.of(
        new Stage("hotspot-1%", 0.01, 0, stageAccesses),
        new Stage("hotspot-3%", 0.03, 0, stageAccesses),
        new Stage("hotspot-5%", 0.05, 0, stageAccesses),
        new Stage("hotspot-5%-shifted", 0.05, five, stageAccesses),
        new Stage("hotspot-4%", 0.04, five, stageAccesses),
        new Stage("hotspot-2%", 0.02, five, stageAccesses));
    out.printf("RALT through the dynamic workload's hotspot stages: %,d keys of %d bytes, %,d"
            + " accesses per stage, fast disk %s%n",
        keyCount, RaltWorkload.RECORD_BYTES, stageAccesses, RaltWorkload.bytes(fastDisk));
    List<Result> results = run(dir, keyCount, fastDisk, stages, window, seed);
    out.printf("%-20s %8s %14s %12s %12s %12s%n", "stage", "plateau", "accesses to it",
        "limit", "stable", "limit/hot");
    for (Result r : results) {
      out.printf("%-20s %8.3f %,14d %12s %12s %11.2fx%n", r.stage().name(), r.plateau(),
          r.accessesToPlateau(), RaltWorkload.bytes(r.hotSetLimit()),
          RaltWorkload.bytes(r.stableHotBytes()), r.limitOverHotspot());
    }
    if (windows.equals("yes")) {
      for (Result r : results) {
        StringBuilder line = new StringBuilder(r.stage().name()).append(':');
        for (double rate : r.windowHitRates()) {
          line.append(String.format(" %.3f", rate));
        }
        out.println(line);
      }
    }
  }

  static void checkWindow(int window, long stageAccesses, int keyCount) {
    if (window % CHECK_EVERY != 0 || window <= 0) {
      throw new IllegalArgumentException("--window must be a positive multiple of " + CHECK_EVERY
          + " but was " + window);
    }
    if (stageAccesses < window || keyCount < 100) {
      throw new IllegalArgumentException("each stage must be at least one window (" + window
          + " accesses) and --keys at least 100");
    }
  }

  /** Runs {@code stages} in order through a fresh tracker in {@code dir}. */
  static List<Result> run(Path dir, int keyCount, long fastDisk, List<Stage> stages, int window,
      long seed) {
    Directories.fresh(dir);
    byte[][] keys = Keys.keys(keyCount);
    List<Result> results = new ArrayList<>();
    try (Ralt ralt = Ralt.open(RaltWorkload.options(dir, fastDisk).build())) {
      long done = 0;
      for (Stage stage : stages) {
        HotspotStream stream = io.hotrap.bench.workload.AccessStream.hotspot(keyCount,
            stage.fraction(), stage.firstRank(), HOT_SHARE, seed);
        int windows = (int) (stage.accesses() / window);
        double[] hitRate = new double[windows];
        long hits = 0;
        for (long i = 0; i < (long) windows * window; i++) {
          byte[] key = keys[stream.next()];
          boolean hit = ralt.isHot(key);
          ralt.record(key, RaltWorkload.VALUE_BYTES, !hit);
          if (hit) {
            hits++;
          }
          if (++done % CHECK_EVERY == 0) {
            ralt.flushIfBuffered(FLUSH_FLOOR);
          }
          if ((i + 1) % window == 0) {
            hitRate[(int) (i / window)] = (double) hits / window;
            hits = 0;
          }
        }
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
        var stats = ralt.stats();
        results.add(new Result(stage, hitRate, plateau, (long) (lastBelow + 1) * window,
            stats.hotSetLimit(), stats.stableHotBytes(),
            stream.hotKeyCount() * RaltWorkload.RECORD_BYTES));
      }
    }
    return results;
  }
}
