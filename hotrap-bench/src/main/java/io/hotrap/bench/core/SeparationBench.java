package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.harness.BenchSystem;
import io.hotrap.bench.harness.HotRapSystem;
import io.hotrap.bench.harness.SystemConfig;
import io.hotrap.bench.harness.Systems;
import io.hotrap.bench.workload.Operation;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Write-hot separation against HotRAP without it (DESIGN.md §16): for each workload, each system
 * loads the same records (11× the budget) and runs the same operations; the figures are the run
 * phase's throughput and the bytes flushes and compactions wrote on the fast and slow tiers during
 * it (settling included), plus what the skew detector saw. Systems alternate within a round, so a
 * noisy machine disturbs both alike; {@code --rounds} repeats the pairs.
 *
 * <p>Output: a table on stdout and {@code separation.csv} in {@code --dir}.
 */
public final class SeparationBench {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "separation");
  static final String DEFAULT_WORKLOADS = "UH-zipf0.99,UH-zipf1.1,UH-zipf1.2,UH-zipf1.3,WH-uniform";
  static final String DEFAULT_SYSTEMS = "hotrap,hotrap-separated";

  private SeparationBench() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("separation", argv, "dir", "slow-dir", "budget-mib", "ops", "threads",
        "workloads", "systems", "write-buffer-kib", "hot-window-kib", "value-bytes", "rounds", "seed", "keep");
    long budget = args.getLong("budget-mib", 32) << 20;
    int valueBytes = args.getInt("value-bytes", 1000);
    long records = 11 * budget / (valueBytes + 24);
    long ops = args.getLong("ops", 400_000);
    int threads = args.getInt("threads", 2);
    int rounds = args.getInt("rounds", 1);
    long seed = args.getLong("seed", 7);
    long writeBuffer = args.getLong("write-buffer-kib", 0) << 10;
    List<String> workloads = List.of(args.getString("workloads", DEFAULT_WORKLOADS).split(","));
    List<String> systems = List.of(args.getString("systems", DEFAULT_SYSTEMS).split(","));
    for (String s : systems) {
      Systems.requireKnown(s);
    }
    WorkloadParams params = WorkloadParams.defaults().withRecords(records).withValueBytes(valueBytes)
        .withRunOperations(ops).withSeed(seed);
    for (String w : workloads) {
      Workload.parse(w, params); // fail on a bad name before anything is deleted
    }
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    Path slowRoot = args.getString("slow-dir", null) != null
        ? Directories.fresh(args.getPath("slow-dir", null)) : root;
    long hotWindow = args.getLong("hot-window-kib", 0) << 10;
    // Keeps each system's directories (RocksDB's LOG with its per-job events) for a look after.
    boolean keep = Boolean.parseBoolean(args.getString("keep", "false"));
    UnaryOperator<HotRapOptions.Builder> extra = b -> {
      if (writeBuffer > 0) {
        b.writeBufferBytes(writeBuffer);
      }
      if (hotWindow > 0) {
        b.writeHotWindowBytes(hotWindow);
      }
      return b;
    };
    out.printf("separation: %d MiB budget, %d records of %d B, %d run ops, %d threads, write buffer %s,"
        + " skew window %s%n", budget >> 20, records, valueBytes + 24, ops, threads,
        writeBuffer > 0 ? (writeBuffer >> 10) + " KiB" : "the store's default",
        hotWindow > 0 ? (hotWindow >> 10) + " KiB" : "the store's default");
    out.printf("%-14s %-18s %5s %10s %10s %10s %10s %10s %7s %10s %8s %10s %10s %10s%n", "workload",
        "system", "round", "ops/s", "fast MiB", "(fast-hot)", "slow MiB", "total MiB", "skewed",
        "variance", "hot %", "evictions", "demoted", "promoted");
    StringBuilder csv = new StringBuilder("workload,system,round,ops_per_sec,fast_compaction_bytes,"
        + "hot_compaction_bytes,slow_compaction_bytes,write_skewed,write_variance,hot_write_share,evictions,"
        + "write_buffer_bytes,demoted_bytes,promoted_bytes\n");
    Map<String, double[]> sums = new LinkedHashMap<>();
    double mib = 1 << 20;
    for (String w : workloads) {
      for (int round = 0; round < rounds; round++) {
        for (String name : systems) {
          String run = w + "-" + name + "-" + round;
          Path dir = root.resolve(run);
          Path slow = slowRoot.resolve(run + "-slow");
          SystemConfig config = new SystemConfig(dir.resolve("fast"), slow, budget, false);
          Workload workload = Workload.parse(w, params);
          double[] r = runOne(name, config, extra, workload, threads);
          if (!keep) {
            Directories.deleteRecursively(dir);
            Directories.deleteRecursively(slow);
          }
          out.printf("%-14s %-18s %5d %10.0f %10.1f %10.1f %10.1f %10.1f %7s %10.3f %8.1f %10d %10.1f %10.1f%n",
              w, name, round, r[0], r[1] / mib, r[7] / mib, r[2] / mib, (r[1] + r[2]) / mib,
              r[3] > 0 ? "yes" : "no", r[4], 100 * r[5], (long) r[6], r[8] / mib, r[9] / mib);
          csv.append(String.join(",", w, name, Integer.toString(round), String.format("%.1f", r[0]),
              Long.toString((long) r[1]), Long.toString((long) r[7]), Long.toString((long) r[2]), r[3] > 0 ? "true" : "false",
              String.format("%.4f", r[4]), String.format("%.4f", r[5]), Long.toString((long) r[6]),
              Long.toString(writeBuffer), Long.toString((long) r[8]), Long.toString((long) r[9])))
              .append('\n');
          double[] sum = sums.computeIfAbsent(w + " " + name, k -> new double[3]);
          sum[0] += r[0];
          sum[1] += r[1] + r[2];
          sum[2]++;
        }
      }
    }
    out.println();
    out.printf("%-14s %-18s %14s %16s%n", "workload", "system", "ops/s vs first", "compaction vs first");
    for (String w : workloads) {
      double[] base = sums.get(w + " " + systems.get(0));
      for (String name : systems) {
        double[] s = sums.get(w + " " + name);
        out.printf("%-14s %-18s %14.3f %16.3f%n", w, name, s[0] / base[0], s[1] / base[1]);
      }
    }
    try {
      Files.writeString(root.resolve("separation.csv"), csv, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * ops/s, fast bytes (fast-hot included), slow bytes, skewed (1/0), variance, hot write share,
   * evictions, fast-hot bytes, bytes demoted, bytes promoted; counts are the run phase's.
   */
  private static double[] runOne(String name, SystemConfig config,
      UnaryOperator<HotRapOptions.Builder> extra, Workload workload, int threads) {
    try (BenchSystem system = Systems.open(name, config, extra)) {
      drive(system, threads, t -> workload.loader(t, threads));
      system.settle();
      BenchSystem.Counters before = system.counters();
      HotRapStats s0 = system instanceof HotRapSystem h ? h.stats() : null;
      List<OperationGenerator> runners = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        runners.add(workload.runner(t, threads));
      }
      long start = System.nanoTime();
      long done = drive(system, threads, runners::get);
      double seconds = (System.nanoTime() - start) / 1e9;
      system.settle();
      BenchSystem.Counters after = system.counters();
      double[] r = new double[10];
      r[0] = done / seconds;
      r[1] = after.fastCompactionBytes() - before.fastCompactionBytes();
      r[2] = after.slowCompactionBytes() - before.slowCompactionBytes();
      r[4] = Double.NaN;
      if (system instanceof HotRapSystem h) {
        HotRapStats s = h.stats();
        r[3] = s.writeSkewed() ? 1 : 0;
        r[4] = s.writeSkewVariance();
        long writes = workload.params().runOperations() / 2;
        r[5] = writes == 0 ? 0 : (double) (s.writeHotWrites() - s0.writeHotWrites()) / writes;
        r[6] = s.writeHotEvictions() - s0.writeHotEvictions();
        r[7] = s.hotBytesWritten() - s0.hotBytesWritten();
        r[8] = s.bytesDemoted() - s0.bytesDemoted();
        r[9] = s.bytesPromotedByFlush() + s.bytesPromotedByCompaction()
            - s0.bytesPromotedByFlush() - s0.bytesPromotedByCompaction();
      }
      return r;
    }
  }

  /**
   * Applies up to {@code limit} of {@code g}'s operations to {@code system} on the calling thread,
   * each put with fresh random value bytes from {@code random} (so compression does not hide the
   * bytes); returns how many it applied.
   */
  static long apply(BenchSystem system, OperationGenerator g, long limit, java.util.SplittableRandom random) {
    Operation op = new Operation();
    byte[] value = null;
    long n = 0;
    while (n < limit && g.next(op)) {
      if (op.type == Operation.Type.READ) {
        system.get(op.key);
      } else {
        if (value == null || value.length != op.valueBytes) {
          value = new byte[op.valueBytes];
        }
        random.nextBytes(value);
        system.put(op.key, value);
      }
      n++;
    }
    return n;
  }

  /** Runs each thread's generator to its end against {@code system}; returns the operations done. */
  private static long drive(BenchSystem system, int threads,
      java.util.function.IntFunction<OperationGenerator> generators) {
    long[] counts = new long[threads];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      OperationGenerator g = generators.apply(t);
      Thread th = new Thread(() -> {
        try {
          counts[id] = apply(system, g, Long.MAX_VALUE, new java.util.SplittableRandom(id * 7919L + 1));
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "separation-client-" + t);
      ts.add(th);
      th.start();
    }
    long total = 0;
    for (int t = 0; t < threads; t++) {
      try {
        ts.get(t).join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      total += counts[t];
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a client failed", failure.get());
    }
    return total;
  }
}
