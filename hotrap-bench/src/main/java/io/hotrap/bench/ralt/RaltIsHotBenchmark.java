package io.hotrap.bench.ralt;

import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltStats;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Ralt#isHot} with at least {@value #MIN_RUNS} runs on disk, each with its own in-memory
 * filters, single thread.
 *
 * <p>The tracker first records {@value #FILL_ACCESSES} accesses of hotspot-5% over a million keys
 * (so the hot set and the limits are established), then more in small batches, each handed off
 * with {@link Ralt#awaitQuiescence()} so it becomes one level-0 run, until at least
 * {@value #MIN_RUNS} runs are on disk; level 0 may hold up to {@value #LEVEL0_RUN_LIMIT} runs.
 * Queries are drawn in advance from the hotspot-5% stream (mostly hot keys) or uniformly (mostly
 * cold keys, the filters' negative path).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class RaltIsHotBenchmark {

  static final int MIN_RUNS = 10;
  static final int LEVEL0_RUN_LIMIT = 16;
  static final long FILL_ACCESSES = 3_000_000;
  /** Small enough to fit the access buffer, so one batch becomes one run. */
  private static final int RUN_BATCH = 10_000;
  private static final int QUERIES = 1 << 20;

  @Param({"hotspot5", "uniform"})
  public String queries;

  private byte[][] keys;
  private byte[][] queryKeys;
  private int cursor;
  private Path dir;
  private Ralt ralt;

  @Setup(Level.Trial)
  public void buildTrackerWithManyRuns() {
    keys = Keys.keys(RaltWorkload.KEYS);
    AccessStream accesses = AccessStream.named("hotspot5", RaltWorkload.KEYS, 42);
    dir = Directories.temporary("ralt-ishot-");
    ralt = Ralt.open(RaltWorkload.options(dir, RaltWorkload.FAST_DISK_BYTES)
        .level0RunLimit(LEVEL0_RUN_LIMIT)
        .build());
    RaltWorkload.record(ralt, keys, accesses, FILL_ACCESSES, RaltWorkload.VALUE_BYTES);
    ralt.awaitQuiescence();
    for (int step = 0; runs(ralt.stats()) < MIN_RUNS; step++) {
      if (step == 10 * LEVEL0_RUN_LIMIT) {
        throw new IllegalStateException(
            "could not get " + MIN_RUNS + " runs on disk: " + ralt.stats());
      }
      RaltWorkload.record(ralt, keys, accesses, RUN_BATCH, RaltWorkload.VALUE_BYTES);
      ralt.awaitQuiescence();
    }
    System.out.println();
    System.out.println("runs per level " + Arrays.toString(ralt.stats().runsPerLevel()));
    int[] queryIds = AccessStream.named(queries, RaltWorkload.KEYS, 7).fill(new int[QUERIES]);
    // Copies allocated in query order: a caller has its key at hand, so the benchmark should not
    // measure cache misses on a million scattered key arrays.
    queryKeys = new byte[QUERIES][];
    for (int i = 0; i < QUERIES; i++) {
      queryKeys[i] = keys[queryIds[i]].clone();
    }
  }

  private static int runs(RaltStats stats) {
    return Arrays.stream(stats.runsPerLevel()).sum();
  }

  @Benchmark
  public boolean isHot() {
    int c = cursor;
    cursor = (c + 1) & (QUERIES - 1);
    return ralt.isHot(queryKeys[c]);
  }

  @TearDown(Level.Trial)
  public void closeTracker() {
    System.out.println();
    System.out.println(ralt.stats());
    ralt.close();
    Directories.deleteRecursively(dir);
  }
}
