package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.Operation;
import io.hotrap.bench.workload.OperationGenerator;
import io.hotrap.bench.workload.Workload;
import io.hotrap.bench.workload.WorkloadParams;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the write-skew detector sees under each key distribution: the table that places its
 * threshold (DESIGN.md §16; LuMDB gives no value for {@code sep_skewness}). For each distribution
 * a store with write-hot separation on takes a stream of updates whose keys follow that
 * distribution over the key space a budget of {@code --budget-mib} holds 11 times over, until
 * {@code --windows} skew windows (one L0's worth of writes each, the store's default) have closed;
 * the table gives the variance of per-key write counts over those windows (min, median, max) and
 * the share of windows the detector called skewed.
 *
 * <p>The variance is read from {@link HotRapStats#writeSkewVariance()} each time
 * {@link HotRapStats#writeHotWindows()} moves on; the stats are polled every
 * {@value #POLL_EVERY} writes, well under a window's writes, so a window is missed only when two
 * close within one poll, which the count of windows seen reports.
 *
 * <p>Output: a table on stdout and {@code skew.csv} in {@code --dir}.
 */
public final class SkewTable {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "skew");
  static final String DEFAULT_DISTRIBUTIONS =
      "uniform,hotspot5,hotspot1,zipf0.5,zipf0.7,zipf0.8,zipf0.9,zipf0.99,zipf1.1,zipf1.2,zipf1.3";
  /** Writes between two polls of the store's statistics. */
  static final int POLL_EVERY = 64;
  /** Windows before the first counted one: the first closes while the detector has no history. */
  static final int SKIPPED_WINDOWS = 1;

  private SkewTable() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("skew", argv, "dir", "budget-mib", "windows", "distributions",
        "value-bytes", "seed");
    long budget = args.getLong("budget-mib", 16) << 20;
    int valueBytes = args.getInt("value-bytes", 1000);
    int windows = args.getInt("windows", 20);
    if (windows < 1) {
      throw new IllegalArgumentException("--windows must be at least 1 but was " + windows);
    }
    long records = 11 * budget / (valueBytes + 24);
    long seed = args.getLong("seed", 7);
    List<String> distributions = List.of(args.getString("distributions", DEFAULT_DISTRIBUTIONS).split(","));
    WorkloadParams params = WorkloadParams.defaults().withRecords(records).withValueBytes(valueBytes)
        .withSeed(seed).withRunOperations(Long.MAX_VALUE / 4);
    for (String d : distributions) {
      Workload.parse("uh-" + d, params); // fail on a bad name before anything is deleted
    }
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    out.printf("skew: %d MiB budget, keys drawn from %d records of %d B, %d windows per distribution%n",
        budget >> 20, records, valueBytes + 24, windows);
    out.printf("%-10s %8s %10s %10s %10s %10s %9s%n", "keys", "windows", "min var", "median var",
        "max var", "skewed %", "threshold");
    StringBuilder csv = new StringBuilder(
        "distribution,windows,variance_min,variance_median,variance_max,skewed_share,threshold,window_bytes\n");
    for (String d : distributions) {
      Path dir = root.resolve(d);
      HotRapOptions options = HotRapOptions.builder()
          .fastPath(dir.resolve("fast"))
          .slowPath(dir.resolve("slow"))
          .fastBudgetBytes(budget)
          .writeHotSeparation(true)
          .build();
      double[] variances;
      int skewed;
      try (HotRapDB db = HotRapDB.open(options)) {
        Workload w = Workload.parse("uh-" + d, params);
        OperationGenerator g = w.runner(0, 1);
        Operation op = new Operation();
        SplittableRandom random = new SplittableRandom(seed);
        byte[] value = new byte[valueBytes];
        List<Double> seen = new ArrayList<>();
        List<Boolean> decisions = new ArrayList<>();
        long lastWindows = 0;
        long writes = 0;
        while (seen.size() < windows + SKIPPED_WINDOWS && g.next(op)) {
          if (op.type == Operation.Type.READ) {
            continue;
          }
          random.nextBytes(value);
          db.put(op.key, value);
          if (++writes % POLL_EVERY == 0) {
            HotRapStats s = db.stats();
            if (s.writeHotWindows() != lastWindows) {
              lastWindows = s.writeHotWindows();
              seen.add(s.writeSkewVariance());
              decisions.add(s.writeSkewed());
            }
          }
        }
        List<Double> counted = seen.subList(Math.min(SKIPPED_WINDOWS, seen.size()), seen.size());
        variances = counted.stream().mapToDouble(Double::doubleValue).toArray();
        skewed = (int) decisions.subList(Math.min(SKIPPED_WINDOWS, decisions.size()), decisions.size())
            .stream().filter(b -> b).count();
      }
      Directories.deleteRecursively(dir);
      Arrays.sort(variances);
      int n = variances.length;
      double min = n == 0 ? Double.NaN : variances[0];
      double median = n == 0 ? Double.NaN : variances[n / 2];
      double max = n == 0 ? Double.NaN : variances[n - 1];
      double share = n == 0 ? Double.NaN : (double) skewed / n;
      out.printf("%-10s %8d %10.3f %10.3f %10.3f %10.1f %9.2f%n", d, n, min, median, max, 100 * share,
          options.writeSkewThreshold());
      csv.append(String.join(",", d, Integer.toString(n), String.format("%.4f", min),
          String.format("%.4f", median), String.format("%.4f", max), String.format("%.3f", share),
          Double.toString(options.writeSkewThreshold()), Long.toString(options.writeHotWindowBytes())))
          .append('\n');
    }
    try {
      Files.writeString(root.resolve("skew.csv"), csv, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
