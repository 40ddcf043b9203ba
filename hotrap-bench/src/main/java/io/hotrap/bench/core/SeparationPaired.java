package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.harness.BenchSystem;
import io.hotrap.bench.harness.HotRapSystem;
import io.hotrap.bench.harness.SystemConfig;
import io.hotrap.bench.harness.Systems;
import io.hotrap.bench.workload.OperationGenerator;
import io.hotrap.bench.workload.Workload;
import io.hotrap.bench.workload.WorkloadParams;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * {@code hotrap-bench separation-paired}: the throughput of two systems on one workload, measured
 * in many short alternating blocks instead of one long run each, so that a shared, noisy machine
 * disturbs both alike and the ratio's uncertainty can be stated. Both systems are open at once and
 * load the same records; then, block after block, each runs the next {@code --block-ops}
 * operations of its own copy of the same operation stream on {@code --threads} threads, the order
 * of the two alternating from block to block. A block's figure is its operations over its wall
 * time, so stalls and background work count as they do in a throughput run; the background work
 * of both stores runs beside every block of either.
 *
 * <p>Prints each system's aggregate ops/s (all operations over all its blocks' time), the median
 * and the geometric mean of the per-block ratios (second system over first) with a 95% interval of
 * the geometric mean (mean of the log ratios ± 1.96 standard errors, the larger of the per-block one
 * and the one from means of batches of {@value #BATCH} consecutive blocks), and the bytes compaction wrote
 * on each. Made for issue 22's target on {@code WH-uniform} (separation within 2% of
 * {@code hotrap}); any pair of systems and any workload run.
 *
 * <p>Output: stdout and {@code paired.csv} (one row per block) in {@code --dir}.
 */
public final class SeparationPaired {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "separation-paired");
  /** Blocks per batch in the batch-means standard error. */
  static final int BATCH = 20;

  private SeparationPaired() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("separation-paired", argv, "dir", "budget-mib", "workload", "systems",
        "blocks", "block-ops", "threads", "write-buffer-kib", "value-bytes", "seed");
    long budget = args.getLong("budget-mib", 16) << 20;
    int valueBytes = args.getInt("value-bytes", 1000);
    long records = 11 * budget / (valueBytes + 24);
    int blocks = args.getInt("blocks", 200);
    int blockOps = args.getInt("block-ops", 2000);
    int threads = args.getInt("threads", 2);
    long seed = args.getLong("seed", 7);
    long writeBuffer = args.getLong("write-buffer-kib", 0) << 10;
    String workloadName = args.getString("workload", "WH-uniform");
    String[] systems = args.getString("systems", "hotrap,hotrap-separated").split(",");
    if (systems.length != 2) {
      throw new IllegalArgumentException("--systems takes exactly two systems");
    }
    if (blocks < 2 || blockOps < 1 || threads < 1) {
      throw new IllegalArgumentException("need --blocks >= 2, --block-ops >= 1 and --threads >= 1");
    }
    for (String s : systems) {
      Systems.requireKnown(s);
    }
    // Enough run operations for every block, with room: a generator ends when they do.
    WorkloadParams params = WorkloadParams.defaults().withRecords(records).withValueBytes(valueBytes)
        .withRunOperations((long) blocks * blockOps * threads + threads).withSeed(seed);
    Workload.parse(workloadName, params); // fail on a bad name before anything is deleted
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    UnaryOperator<HotRapOptions.Builder> extra = b -> writeBuffer > 0 ? b.writeBufferBytes(writeBuffer) : b;
    out.printf("separation-paired: %s, %s against %s, %d MiB budget, %d records of %d B, %d blocks of %d ops"
        + " per thread, %d threads, write buffer %s%n", workloadName, systems[1], systems[0], budget >> 20,
        records, valueBytes + 24, blocks, blockOps, threads,
        writeBuffer > 0 ? (writeBuffer >> 10) + " KiB" : "the store's default");
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "paired-client");
      t.setDaemon(true);
      return t;
    });
    BenchSystem[] open = new BenchSystem[2];
    try {
      Workload[] workloads = new Workload[2];
      OperationGenerator[][] runners = new OperationGenerator[2][threads];
      for (int s = 0; s < 2; s++) {
        Path dir = root.resolve(s + "-" + systems[s]); // the same system twice is an A/A control
        open[s] = Systems.open(systems[s], new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), budget,
            false), extra);
        workloads[s] = Workload.parse(workloadName, params);
        OperationGenerator[] loaders = new OperationGenerator[threads];
        for (int t = 0; t < threads; t++) {
          loaders[t] = workloads[s].loader(t, threads);
        }
        // The load, as one block with no limit, not timed.
        runBlock(pool, open[s], loaders, Long.MAX_VALUE);
        open[s].settle();
        for (int t = 0; t < threads; t++) {
          runners[s][t] = workloads[s].runner(t, threads);
        }
      }
      BenchSystem.Counters[] before = {open[0].counters(), open[1].counters()};
      HotRapStats[] statsBefore = {stats(open[0]), stats(open[1])};
      HotRapStats separatedBefore = statsBefore[1];
      long[] ops = new long[2];
      long[] nanos = new long[2];
      double[] logRatios = new double[blocks];
      double[] ratios = new double[blocks];
      // Systems by position (0 = the first of --systems), as the same system may be given twice.
      StringBuilder csv = new StringBuilder("block,first_run,ops_0,nanos_0,ops_1,nanos_1,ratio_1_over_0\n");
      for (int b = 0; b < blocks; b++) {
        long[] blockNanos = new long[2];
        long[] blockOpsDone = new long[2];
        for (int i = 0; i < 2; i++) {
          int s = b % 2 == 0 ? i : 1 - i; // alternate which system runs first
          long start = System.nanoTime();
          blockOpsDone[s] = runBlock(pool, open[s], runners[s], blockOps);
          blockNanos[s] = System.nanoTime() - start;
          ops[s] += blockOpsDone[s];
          nanos[s] += blockNanos[s];
        }
        double r = ((double) blockOpsDone[1] / blockNanos[1]) / ((double) blockOpsDone[0] / blockNanos[0]);
        ratios[b] = r;
        logRatios[b] = Math.log(r);
        csv.append(b).append(',').append(b % 2 == 0 ? 0 : 1).append(',')
            .append(blockOpsDone[0]).append(',').append(blockNanos[0]).append(',')
            .append(blockOpsDone[1]).append(',').append(blockNanos[1]).append(',')
            .append(String.format("%.4f", r)).append('\n');
      }
      for (BenchSystem s : open) {
        s.settle();
      }
      BenchSystem.Counters[] after = {open[0].counters(), open[1].counters()};
      HotRapStats[] statsAfter = {stats(open[0]), stats(open[1])};
      HotRapStats separatedAfter = statsAfter[1];
      double mean = Arrays.stream(logRatios).average().orElse(0);
      double var = Arrays.stream(logRatios).map(x -> (x - mean) * (x - mean)).sum() / (blocks - 1);
      // Consecutive blocks share background work (a compaction may span several), so their ratios
      // are not independent: the standard error is also taken from the means of batches of
      // BATCH blocks, and the larger of the two is used.
      double se = Math.sqrt(var / blocks);
      int batches = blocks / BATCH;
      if (batches >= 5) {
        double[] means = new double[batches];
        for (int i = 0; i < batches; i++) {
          means[i] = Arrays.stream(logRatios, i * BATCH, (i + 1) * BATCH).average().orElse(0);
        }
        double m = Arrays.stream(means).average().orElse(0);
        double bv = Arrays.stream(means).map(x -> (x - m) * (x - m)).sum() / (batches - 1);
        se = Math.max(se, Math.sqrt(bv / batches));
      }
      double[] sorted = ratios.clone();
      Arrays.sort(sorted);
      double median = (sorted[(blocks - 1) / 2] + sorted[blocks / 2]) / 2;
      for (int s = 0; s < 2; s++) {
        double mib = 1 << 20;
        out.printf("%d %-18s %10.0f ops/s over %d ops; compaction wrote fast %.1f MiB, slow %.1f MiB%n",
            s, systems[s], ops[s] / (nanos[s] / 1e9), ops[s],
            (after[s].fastCompactionBytes() - before[s].fastCompactionBytes()) / mib,
            (after[s].slowCompactionBytes() - before[s].slowCompactionBytes()) / mib);
      }
      out.printf("%s / %s: aggregate %.4f; per block median %.4f, geometric mean %.4f, 95%% interval %.4f–%.4f"
          + " (sd of log ratio %.3f, %d blocks)%n", systems[1], systems[0],
          (ops[1] / (double) nanos[1]) / (ops[0] / (double) nanos[0]), median, Math.exp(mean),
          Math.exp(mean - 1.96 * se), Math.exp(mean + 1.96 * se), Math.sqrt(var), blocks);
      for (int s = 0; s < 2; s++) {
        HotRapStats a = statsAfter[s];
        HotRapStats b = statsBefore[s];
        if (a != null && b != null) {
          // Where a HotRAP store's time went besides the clients' own work.
          out.printf("%d %-18s write stalls %d (%.1f s), migration %.1f s, demoted %.1f MiB, fast gets %.4f%n", s,
              systems[s], a.writeStalls() - b.writeStalls(), (a.writeStallNanos() - b.writeStallNanos()) / 1e9,
              (a.migrationNanos() - b.migrationNanos()) / 1e9, (a.bytesDemoted() - b.bytesDemoted()) / (double) (1 << 20),
              (double) (a.getsServedFast() - b.getsServedFast())
                  / Math.max(1, a.getsServedFast() + a.getsServedSlow() - b.getsServedFast() - b.getsServedSlow()));
        }
      }
      if (separatedBefore != null && separatedAfter != null) {
        out.printf("%s: writes routed to fast-hot during the blocks %d, skewed windows at the end %b,"
            + " writes the detector skipped %d, windows closed %d%n", systems[1],
            separatedAfter.writeHotWrites() - separatedBefore.writeHotWrites(), separatedAfter.writeSkewed(),
            separatedAfter.writeSkewSkippedWrites() - separatedBefore.writeSkewSkippedWrites(),
            separatedAfter.writeHotWindows() - separatedBefore.writeHotWindows());
      }
      Files.writeString(root.resolve("paired.csv"), csv, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      pool.shutdownNow();
      for (BenchSystem s : open) {
        if (s != null) {
          s.close();
        }
      }
    }
  }

  private static HotRapStats stats(BenchSystem s) {
    return s instanceof HotRapSystem h ? h.stats() : null;
  }

  /**
   * Runs up to {@code limit} operations of each thread's generator against {@code system}, one
   * pool thread per generator, and waits for all; returns the operations done.
   */
  private static long runBlock(ExecutorService pool, BenchSystem system, OperationGenerator[] generators,
      long limit) {
    List<Future<Long>> done = new ArrayList<>();
    for (int t = 0; t < generators.length; t++) {
      OperationGenerator g = generators[t];
      long valueSeed = t * 7919L + 1;
      done.add(pool.submit(() -> SeparationBench.apply(system, g, limit, new SplittableRandom(valueSeed))));
    }
    long total = 0;
    for (Future<Long> f : done) {
      try {
        total += f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("a client failed", e.getCause());
      }
    }
    return total;
  }
}
